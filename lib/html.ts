/**
 * The shell every HTML report shares: one self-contained file (no scripts or fonts fetched), readable
 * offline and when printed, with the same look across the conformance, load and replay reports.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A link target taken from data someone else wrote: relative, http or https only, so that a `javascript:`
 * URL cannot run when clicked. Tabs, newlines and leading controls go first, as a browser drops them too.
 */
export function safeHref(href: string): string | undefined {
  const cleaned = href.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https' ? cleaned : undefined;
}

/** A tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

export interface PageOptions {
  title: string;
  body: Html;
  /** Extra CSS for this report only. */
  css?: string;
}

export function htmlPage({ title, body, css = '' }: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${BASE_CSS}${css}</style>
</head>
<body>
${body.value}
</body>
</html>
`;
}

const BASE_CSS = `
:root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --info: #0969da; --muted: #59636e; --line: #d1d9e0; --bg-soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0 auto; max-width: 1200px; padding: 24px; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg-soft); font-weight: 600; } code, pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: var(--bg-soft); padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; border-radius: 6px; }
.muted { color: var(--muted); } .pass { color: var(--pass); } .fail { color: var(--fail); } .warn { color: var(--warn); } .info { color: var(--info); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; color: #fff; }
.badge.pass { background: var(--pass); color: #fff; } .badge.fail { background: var(--fail); color: #fff; } .badge.warn { background: var(--warn); color: #fff; }
.badge.info { background: var(--info); color: #fff; } .badge.muted { background: var(--muted); color: #fff; }
.verdict { padding: 16px; border-radius: 8px; margin: 16px 0; font-size: 18px; font-weight: 600; }
.verdict.pass { background: #dafbe1; } .verdict.fail { background: #ffebe9; } .verdict.warn { background: #fff8c5; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 130px; }
.card .n { font-size: 22px; font-weight: 600; } .card .l { color: var(--muted); font-size: 12px; }
details > summary { cursor: pointer; } svg text { font: 11px system-ui, sans-serif; fill: #1f2328; }
@media print { details { display: block; } }
`;
