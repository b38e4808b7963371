/** RFC 8288 Link header values: parsed strictly enough to tell a well-formed one from a broken one. */

export interface Link {
  target: string;
  /** Parameter names in lower case; values unquoted. */
  params: Record<string, string>;
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const PARAM = new RegExp(`^\\s*(${TOKEN})\\s*(?:=\\s*(${TOKEN}|${QUOTED}))?\\s*$`);
const TARGET = /^\s*<([^<>\s]*)>\s*$/;

/** The links of a Link header, or a reason it is not well formed. */
export function parseLinkHeader(value: string): { links: Link[] } | { problem: string } {
  const links: Link[] = [];
  for (const part of splitOutside(value, ',')) {
    if (part.trim() === '') continue;
    const [targetPart = '', ...paramParts] = splitOutside(part, ';');
    const target = TARGET.exec(targetPart);
    if (!target) return { problem: `"${part.trim()}" does not start with a <URI-reference>` };
    const params: Record<string, string> = {};
    for (const param of paramParts) {
      const match = PARAM.exec(param);
      if (!match) return { problem: `"${param.trim()}" is not a link parameter (name or name=value)` };
      const raw = match[2] ?? '';
      params[match[1]!.toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    }
    links.push({ target: target[1]!, params });
  }
  return links.length > 0 ? { links } : { problem: 'the header holds no link' };
}

/** Splits on `separator` outside <…> and "…". */
function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inTarget = false;
  let inQuotes = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inQuotes && char === '\\') {
      current += char + (text[++index] ?? '');
      continue;
    }
    if (char === '"' && !inTarget) inQuotes = !inQuotes;
    else if (char === '<' && !inQuotes) inTarget = true;
    else if (char === '>' && !inQuotes) inTarget = false;
    if (char === separator && !inTarget && !inQuotes) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}
