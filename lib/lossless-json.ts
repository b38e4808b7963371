/**
 * JSON parsing that keeps integers exact: an integer literal outside Number's safe range becomes a
 * BigInt instead of a rounded double. Implementations may hand out int64 ids above 2^53, and an id
 * rounded on the way in would point at another pet on the way out.
 */
import { randomUUID } from 'node:crypto';
import { isInteger, isSafeNumber, parse } from 'lossless-json';

export type LosslessValue = null | boolean | number | bigint | string | LosslessValue[] | { [key: string]: LosslessValue };

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} at position ${position}`);
    this.name = 'JsonSyntaxError';
  }
}

/** Deeper nesting than any Pet Store body could need; past it, an answer is refused instead of overflowing the stack. */
export const MAX_DEPTH = 512;

const [QUOTE, BACKSLASH, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = [34, 92, 91, 93, 123, 125];

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

/** Past 2^53 or possibly deep: the lossless-json library, with JSON.parse's last-wins for repeated keys. */
function parseCarefully(text: string): LosslessValue {
  refuseDeepNesting(text);
  try {
    return parse(text, null, { parseNumber: exactNumber, onDuplicateKey: ({ newValue }) => newValue }) as LosslessValue;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const position = /at position (\d+)/.exec(error.message);
    throw new JsonSyntaxError(error.message.replace(/ at position \d+$/, ''), position ? Number(position[1]) : 0);
  }
}

/** An integer beyond Number's safe range is a BigInt; every other number a Number, as JSON.parse reads it. */
function exactNumber(literal: string): number | bigint {
  return isInteger(literal) && !isSafeNumber(literal) ? BigInt(literal) : Number(literal);
}

/** The library parses recursively: nesting past MAX_DEPTH is refused before it could overflow the stack. */
function refuseDeepNesting(text: string): void {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      for (at++; at < text.length && text.charCodeAt(at) !== QUOTE; at++) if (text.charCodeAt(at) === BACKSLASH) at++;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > MAX_DEPTH) throw new JsonSyntaxError(`Nesting deeper than ${MAX_DEPTH} levels`, at);
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth--;
  }
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
