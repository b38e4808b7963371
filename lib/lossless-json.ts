/**
 * JSON parsing that keeps integers exact: an integer literal outside Number's safe range becomes a
 * BigInt instead of a rounded double. Implementations may hand out int64 ids above 2^53, and an id
 * rounded on the way in would point at another pet on the way out.
 */
import { randomUUID } from 'node:crypto';

export type LosslessValue = null | boolean | number | bigint | string | LosslessValue[] | { [key: string]: LosslessValue };

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} at position ${position}`);
    this.name = 'JsonSyntaxError';
  }
}

/** Deeper nesting than any Pet Store body could need; past it, an answer is refused instead of overflowing the stack. */
export const MAX_DEPTH = 512;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const WHITESPACE = /[ \t\n\r]*/y;

/** An integer literal this long may lie beyond 2^53; shorter ones never do. */
const LONG_DIGITS = /\d{16}/;

export function parseLossless(text: string): LosslessValue {
  // Text with no long integer and too few brackets to nest past MAX_DEPTH parses to the same tree natively,
  // many times faster; anything native JSON.parse refuses goes to the careful parser, which says where.
  if (!LONG_DIGITS.test(text) && !mayNestPastMaxDepth(text)) {
    try {
      return JSON.parse(text) as LosslessValue;
    } catch {
      // The careful parser below throws the JsonSyntaxError with its position.
    }
  }
  return parseCarefully(text);
}

function mayNestPastMaxDepth(text: string): boolean {
  if (text.length <= 2 * MAX_DEPTH) return false;
  let openings = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++openings > MAX_DEPTH) return true;
    }
  }
  return false;
}

function parseCarefully(text: string): LosslessValue {
  let at = 0;
  let depth = 0;

  const skipWhitespace = (): void => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.test(text);
    at = WHITESPACE.lastIndex;
  };

  const fail = (what: string): never => {
    throw new JsonSyntaxError(at >= text.length ? 'Unexpected end of JSON' : `${what}, found ${JSON.stringify(text[at])}`, at);
  };

  const value = (): LosslessValue => {
    skipWhitespace();
    const char = text[at];
    if (char === '{') return object();
    if (char === '[') return array();
    if (char === '"') return string();
    if (text.startsWith('true', at)) return (at += 4), true;
    if (text.startsWith('false', at)) return (at += 5), false;
    if (text.startsWith('null', at)) return (at += 4), null;
    return number();
  };

  const number = (): number | bigint => {
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(text);
    if (!match) return fail('Expected a JSON value');
    const literal = match[0];
    at += literal.length;
    if (INTEGER.test(literal)) {
      const asNumber = Number(literal);
      return Number.isSafeInteger(asNumber) ? asNumber : BigInt(literal);
    }
    return Number(literal);
  };

  const string = (): string => {
    const start = at;
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++;
      at++;
    }
    if (at >= text.length) return fail('Unterminated string');
    at++;
    try {
      return JSON.parse(text.slice(start, at)) as string;
    } catch {
      throw new JsonSyntaxError('Invalid string', start);
    }
  };

  const enter = (): void => {
    if (++depth > MAX_DEPTH) throw new JsonSyntaxError(`Nesting deeper than ${MAX_DEPTH} levels`, at);
    at++;
  };

  const array = (): LosslessValue[] => {
    enter();
    const items: LosslessValue[] = [];
    skipWhitespace();
    if (text[at] === ']') return depth--, at++, items;
    for (;;) {
      items.push(value());
      skipWhitespace();
      if (text[at] === ',') at++;
      else if (text[at] === ']') return depth--, at++, items;
      else fail('Expected , or ] in array');
    }
  };

  const object = (): { [key: string]: LosslessValue } => {
    enter();
    const result: { [key: string]: LosslessValue } = {};
    skipWhitespace();
    if (text[at] === '}') return depth--, at++, result;
    for (;;) {
      skipWhitespace();
      if (text[at] !== '"') fail('Expected a property name');
      const key = string();
      skipWhitespace();
      if (text[at] !== ':') fail('Expected : after property name');
      at++;
      Object.defineProperty(result, key, { value: value(), enumerable: true, writable: true, configurable: true });
      skipWhitespace();
      if (text[at] === ',') at++;
      else if (text[at] === '}') return depth--, at++, result;
      else fail('Expected , or } in object');
    }
  };

  const result = value();
  skipWhitespace();
  if (at < text.length) fail('Unexpected data after JSON');
  return result;
}

/** JSON text for a value that may hold BigInts (written as bare integer literals). */
export function stringifyLossless(value: LosslessValue, indent?: number): string {
  // A per-call nonce: data cannot contain a marker it has never seen.
  const marker = `bigint-${randomUUID()}:`;
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v}` : v), indent);
  return text.replace(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1');
}

/** An id as exact decimal text, whether it arrived as a number or a BigInt. */
export function idText(value: LosslessValue | undefined): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return undefined;
}

/** A body's JSON value, or undefined when the body is empty or not JSON (for callers that report that apart). */
export function tryParseLossless(text: string): LosslessValue | undefined {
  if (text.trim() === '') return undefined;
  try {
    return parseLossless(text);
  } catch {
    return undefined;
  }
}
