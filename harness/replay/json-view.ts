/**
 * A body as the report shows it: JSON pretty-printed with each line knowing the JSON pointer it belongs to,
 * so the lines a difference points at can be highlighted; anything else shown as it came.
 */
import { html, type Html } from '../../lib/html.ts';
import { parseLossless, stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';
import { joinPointer } from './ignore.ts';

interface Line {
  text: string;
  pointer: string;
}

const MAX_LINES = 400;

/** The body with the lines under any of `marked` pointers highlighted ("" marks the whole body). */
export function bodyView(body: string | undefined, marked: ReadonlySet<string>): Html {
  if (body === undefined) return html`<p class="muted">(no body in the capture)</p>`;
  if (body === '') return html`<p class="muted">(empty body)</p>`;
  let value: LosslessValue;
  try {
    value = parseLossless(body);
  } catch {
    return html`<pre class="${marked.size > 0 ? 'marked' : ''}">${body}</pre>`;
  }
  const lines: Line[] = [];
  render(value, [], '', '', '', lines);
  const shown = lines.slice(0, MAX_LINES).map((line) =>
    isMarked(line.pointer, marked) ? html`<mark>${line.text}</mark>\n` : html`${line.text}\n`,
  );
  const rest = lines.length - MAX_LINES;
  return html`<pre>${shown}${rest > 0 ? `… ${rest} more lines` : ''}</pre>`;
}

function isMarked(pointer: string, marked: ReadonlySet<string>): boolean {
  if (marked.size === 0) return false;
  for (const target of marked) if (pointer === target || pointer.startsWith(`${target}/`) || target === '') return true;
  return false;
}

function render(value: LosslessValue, path: string[], indent: string, label: string, comma: string, out: Line[]): void {
  const pointer = joinPointer(path);
  if (Array.isArray(value) || (value !== null && typeof value === 'object')) {
    const entries: Array<[string, LosslessValue]> = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      out.push({ text: `${indent}${label}${open}${close}${comma}`, pointer });
      return;
    }
    out.push({ text: `${indent}${label}${open}`, pointer });
    entries.forEach(([key, inner], index) => {
      const innerLabel = Array.isArray(value) ? '' : `${JSON.stringify(key)}: `;
      render(inner, [...path, key], `${indent}  `, innerLabel, index < entries.length - 1 ? ',' : '', out);
    });
    out.push({ text: `${indent}${close}${comma}`, pointer });
    return;
  }
  out.push({ text: `${indent}${label}${stringifyLossless(value)}${comma}`, pointer });
}
