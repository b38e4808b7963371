/**
 * Stateful replay: a pet created as 17 in the recording may be created as 3 on the target, and every later
 * request that named 17 must name 3. Ids are kept as exact decimal text (lib/lossless-json.ts), so ids
 * above 2^53 map as exactly as small ones.
 *
 * Where ids are recognised: path segments below the base (/pets/17), and JSON fields named `id` or `petId`
 * in request and response bodies. Other numbers (categoryId, limit) are never touched, even when equal.
 */
import type { JsonBody } from '../../lib/json-body.ts';
import { idText, stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';

const ID_FIELDS = new Set(['id', 'petId']);
/** A cheap look before reading the tree: most request bodies (a NewPet) have no id field at all. */
const MAY_NAME_ID = /"(?:id|petId)"\s*:/;
const INTEGER_TEXT = /^-?\d+$/;
/** A path with a segment that may be an id; most paths (/pets) have none. */
const MAY_HOLD_ID_SEGMENT = /\/-?\d/;
/**
 * A key "id" or "petId" with an integer literal, as JSON text plainly writes it. The quote before the key is
 * not escaped, so it opens a string (in valid JSON, a closing quote cannot be followed by id"), and that
 * string, followed by a colon, is a key. A key or number written otherwise (an escape, 17.0) is not matched:
 * the text then does not match the answer, and the bodies are compared as trees.
 */
const ID_LITERAL = /(?<!\\)"(id|petId)"(\s*:\s*)(-?\d+)(?![\d.eE])/g;

export class IdMap {
  private readonly replayedByRecorded = new Map<string, string>();
  private identity = true;

  get size(): number {
    return this.replayedByRecorded.size;
  }

  /** True while every id learned is the same on both sides: bodies can then be compared as text. */
  get isIdentity(): boolean {
    return this.identity;
  }

  learn(recorded: string, replayed: string): void {
    this.replayedByRecorded.set(recorded, replayed);
    if (recorded !== replayed) this.identity = false;
  }

  lookup(recorded: string): string | undefined {
    return this.replayedByRecorded.get(recorded);
  }

  /** /pets/17 -> /pets/3 once 17 is known to be 3; an id the target gave as text is percent-encoded as a path segment. */
  remapPath(path: string): string {
    if (this.replayedByRecorded.size === 0 || !MAY_HOLD_ID_SEGMENT.test(path)) return path;
    return path
      .split('/')
      .map((segment) => {
        const replayed = INTEGER_TEXT.test(segment) ? this.replayedByRecorded.get(segment) : undefined;
        return replayed === undefined ? segment : encodeURIComponent(replayed);
      })
      .join('/');
  }

  /** A request body with recorded ids replaced; the text unchanged when nothing had to change. */
  remapBody(body: JsonBody | undefined): string | undefined {
    if (body === undefined || this.replayedByRecorded.size === 0 || !MAY_NAME_ID.test(body.text)) return body?.text;
    const value = body.value;
    if (value === undefined) return body.text;
    let changed = false;
    const remapped = mapIdFields(value, (id) => {
      const replayed = this.replayedByRecorded.get(id);
      if (replayed !== undefined && replayed !== id) changed = true;
      return replayed;
    });
    return changed ? stringifyLossless(remapped) : body.text;
  }

  /** A recorded body's text with its plainly written ids in the target's ids: equal to the answer, the bodies are equal. */
  remapText(text: string): string {
    if (this.identity || !MAY_NAME_ID.test(text)) return text;
    // A loop rather than replace() with a callback: half the time, and this runs for nearly every answer.
    let remapped = '';
    let from = 0;
    ID_LITERAL.lastIndex = 0;
    for (let match = ID_LITERAL.exec(text); match !== null; match = ID_LITERAL.exec(text)) {
      const id = match[3] ?? '';
      const replayed = this.replayedByRecorded.get(id);
      if (replayed === undefined) continue;
      const end = match.index + match[0].length;
      remapped += text.slice(from, end - id.length) + replayed;
      from = end;
    }
    return from === 0 ? text : remapped + text.slice(from);
  }

  /** A recorded field's value in the target's ids: changed only for an id field naming an id learned. */
  fieldInTarget(key: string, value: LosslessValue): LosslessValue {
    if (this.identity || !ID_FIELDS.has(key)) return value;
    const id = typeof value === 'string' ? value : idText(value);
    const replayed = id === undefined ? undefined : this.replayedByRecorded.get(id);
    if (replayed === undefined) return value;
    return typeof value === 'string' ? replayed : idValue(replayed);
  }

  /** A recorded response body in the target's ids, to compare with what the target answered. */
  normalise(value: LosslessValue): LosslessValue {
    if (this.identity) return value;
    return mapIdFields(value, (id) => this.replayedByRecorded.get(id));
  }
}

/** The id a creation assigned, from its response body: a JSON object with an `id`. */
export function createdId(value: LosslessValue | undefined): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const id = value.id;
  return typeof id === 'string' ? id : idText(id);
}

/** The id a creation assigned, from its recorded response body; undefined when it names none. */
export function createdIdIn(body: JsonBody | undefined): string | undefined {
  if (body === undefined || !MAY_NAME_ID.test(body.text)) return undefined;
  return createdId(body.value);
}

/** Ids a request names, in its path and its body: what it must wait for when the creation is still running. */
export function namedIds(path: string, body: JsonBody | undefined): string[] {
  const ids = MAY_HOLD_ID_SEGMENT.test(path) ? path.split('/').filter((segment) => INTEGER_TEXT.test(segment)) : [];
  // A body that is not JSON names no ids: only its path can.
  const value = body !== undefined && MAY_NAME_ID.test(body.text) ? body.value : undefined;
  if (value !== undefined) {
    mapIdFields(value, (id) => {
      ids.push(id);
      return undefined;
    });
  }
  return ids;
}

function mapIdFields(value: LosslessValue, replace: (id: string) => string | undefined): LosslessValue {
  if (Array.isArray(value)) return value.map((item) => mapIdFields(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const result: { [key: string]: LosslessValue } = {};
  for (const [key, inner] of Object.entries(value)) {
    const id = ID_FIELDS.has(key) ? (typeof inner === 'string' ? inner : idText(inner)) : undefined;
    const replaced = id === undefined ? undefined : replace(id);
    const mapped = replaced === undefined ? mapIdFields(inner, replace) : typeof inner === 'string' ? replaced : idValue(replaced);
    Object.defineProperty(result, key, { value: mapped, enumerable: true, writable: true, configurable: true });
  }
  return result;
}

function idValue(text: string): LosslessValue {
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : BigInt(text);
}
