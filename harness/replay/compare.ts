/**
 * How a replayed response differs from the recorded one, leaving out what is volatile (see ignore.ts)
 * and what stateful replay changes on purpose (ids, see id-map.ts). Lists whose items all carry an id are
 * compared as sets keyed by id: the spec leaves the order of GET /pets open, so order is no difference.
 */
import { JsonBody } from '../../lib/json-body.ts';
import { stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';
import type { IdMap } from './id-map.ts';
import { isIgnored, joinPointer, TRANSPORT_HEADERS, VALUE_VOLATILE_HEADERS, type IgnoreRules } from './ignore.ts';

export interface Difference {
  /** "status", "header content-type", "body" or "body /0/name". */
  where: string;
  /** For differences inside JSON bodies: where in each body (they differ when a list came in another order). */
  recordedPointer?: string;
  replayedPointer?: string;
  recorded: string | undefined;
  replayed: string | undefined;
}

export interface ComparableResponse {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  /** undefined when the recording holds no body. */
  body: string | undefined;
}

/** More than this per exchange says enough; the count of the rest is kept. */
const MAX_DIFFERENCES = 50;
const MAX_SHOWN_VALUE = 200;

export interface CompareOptions {
  rules: IgnoreRules;
  ids: IdMap;
  /** Puts a URL the recorded server gave under the target's base (see CaptureBase.rebase). */
  rebase?: (url: string) => string;
  /** The bodies as the caller holds them, so a tree parsed for another step is not parsed again. */
  recordedJson?: JsonBody;
  replayedJson?: JsonBody;
}

export function compareResponses(recorded: ComparableResponse, replayed: ComparableResponse, options: CompareOptions): Difference[] {
  const { rules, ids } = options;
  const rebase = options.rebase ?? ((url: string) => url);
  const out: Difference[] = [];
  if (recorded.status !== replayed.status) out.push({ where: 'status', recorded: String(recorded.status), replayed: String(replayed.status) });
  compareHeaders(recorded.headers, replayed.headers, rules, (url) => ids.remapPath(rebase(url)), out);
  compareBodies(recorded.body, replayed.body, options, out);
  if (out.length > MAX_DIFFERENCES) {
    const rest = out.length - MAX_DIFFERENCES;
    out.length = MAX_DIFFERENCES;
    out.push({ where: `and ${rest} more difference(s)`, recorded: undefined, replayed: undefined });
  }
  return out;
}

/** Headers that carry a URL of a resource, whose path names ids the target may have assigned anew. */
const URL_HEADERS = new Set(['location', 'content-location']);

function compareHeaders(
  recorded: ComparableResponse['headers'],
  replayed: ComparableResponse['headers'],
  rules: IgnoreRules,
  asTargetUrl: (url: string) => string,
  out: Difference[],
): void {
  const names = new Set([...Object.keys(recorded), ...Object.keys(replayed)]);
  for (const name of names) {
    if (TRANSPORT_HEADERS.has(name) || rules.headers.has(name)) continue;
    const recordedValue = recorded[name];
    const before = recordedValue !== undefined && URL_HEADERS.has(name) ? asTargetUrl(recordedValue) : recordedValue;
    const after = replayed[name];
    const differs = VALUE_VOLATILE_HEADERS.has(name) ? (before === undefined) !== (after === undefined) : before !== after;
    if (differs) out.push({ where: `header ${name}`, recorded: before, replayed: after });
  }
}

function compareBodies(recordedText: string | undefined, replayedText: string | undefined, options: CompareOptions, out: Difference[]): void {
  const { rules, ids } = options;
  if (recordedText === undefined || isIgnored([], rules)) return;
  const replayedBody = replayedText ?? '';
  if (recordedText === replayedBody && ids.isIdentity) return;
  const recordedValue = (options.recordedJson ?? new JsonBody(recordedText)).value;
  const replayedValue = (options.replayedJson ?? new JsonBody(replayedBody)).value;
  if (recordedValue === undefined || replayedValue === undefined) {
    if (recordedText !== replayedBody) out.push({ where: 'body', recorded: shorten(recordedText), replayed: shorten(replayedBody) });
    return;
  }
  diffValues(ids.normalise(recordedValue), replayedValue, [], [], rules, out);
}

/** `at` is the path in the recorded body (what ignore rules match), `there` the path in the replayed one. */
function diffValues(recorded: LosslessValue, replayed: LosslessValue, at: string[], there: string[], rules: IgnoreRules, out: Difference[]): void {
  if (out.length > MAX_DIFFERENCES) return;
  if (at.length > 0 && isIgnored(at, rules)) return;
  const recordedKind = kind(recorded);
  if (recordedKind !== kind(replayed)) return push(out, at, there, recorded, replayed);
  if (recordedKind === 'array') return diffArrays(recorded as LosslessValue[], replayed as LosslessValue[], at, there, rules, out);
  if (recordedKind === 'object') return diffObjects(recorded as Record<string, LosslessValue>, replayed as Record<string, LosslessValue>, at, there, rules, out);
  if (String(recorded) !== String(replayed)) push(out, at, there, recorded, replayed);
}

function diffObjects(recorded: Record<string, LosslessValue>, replayed: Record<string, LosslessValue>, at: string[], there: string[], rules: IgnoreRules, out: Difference[]): void {
  for (const key of Object.keys(recorded)) {
    if (Object.hasOwn(replayed, key)) diffValues(recorded[key] as LosslessValue, replayed[key] as LosslessValue, [...at, key], [...there, key], rules, out);
    else if (!isIgnored([...at, key], rules)) push(out, [...at, key], undefined, recorded[key], undefined);
  }
  for (const key of Object.keys(replayed)) {
    if (!Object.hasOwn(recorded, key) && !isIgnored([...at, key], rules)) push(out, undefined, [...there, key], undefined, replayed[key]);
  }
}

function diffArrays(recorded: LosslessValue[], replayed: LosslessValue[], at: string[], there: string[], rules: IgnoreRules, out: Difference[]): void {
  const recordedById = byId(recorded);
  const replayedById = byId(replayed);
  if (recordedById && replayedById) {
    recorded.forEach((item, index) => {
      const match = replayedById.get(idOf(item) ?? '');
      const itemAt = [...at, String(index)];
      if (match) diffValues(item, match.item, itemAt, [...there, String(match.index)], rules, out);
      else if (!isIgnored(itemAt, rules)) push(out, itemAt, undefined, item, undefined);
    });
    replayed.forEach((item, index) => {
      if (!recordedById.has(idOf(item) ?? '') && !isIgnored([...at, String(index)], rules)) push(out, undefined, [...there, String(index)], undefined, item);
    });
    return;
  }
  const length = Math.max(recorded.length, replayed.length);
  for (let index = 0; index < length; index++) {
    const itemAt = [...at, String(index)];
    const itemThere = [...there, String(index)];
    if (index >= replayed.length) {
      if (!isIgnored(itemAt, rules)) push(out, itemAt, undefined, recorded[index], undefined);
    } else if (index >= recorded.length) {
      if (!isIgnored(itemAt, rules)) push(out, undefined, itemThere, undefined, replayed[index]);
    } else diffValues(recorded[index] as LosslessValue, replayed[index] as LosslessValue, itemAt, itemThere, rules, out);
  }
}

/** Items by id when every item is an object with a unique scalar id; undefined otherwise. */
function byId(items: LosslessValue[]): Map<string, { item: LosslessValue; index: number }> | undefined {
  if (items.length === 0) return new Map();
  const map = new Map<string, { item: LosslessValue; index: number }>();
  for (const [index, item] of items.entries()) {
    const id = idOf(item);
    if (id === undefined || map.has(id)) return undefined;
    map.set(id, { item, index });
  }
  return map;
}

function idOf(item: LosslessValue): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const id = item.id;
  return typeof id === 'number' || typeof id === 'bigint' || typeof id === 'string' ? `${typeof id === 'string' ? 's' : 'n'}${String(id)}` : undefined;
}

function kind(value: LosslessValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'number';
  return typeof value;
}

function push(out: Difference[], at: string[] | undefined, there: string[] | undefined, recorded: LosslessValue | undefined, replayed: LosslessValue | undefined): void {
  const recordedPointer = at && joinPointer(at);
  const replayedPointer = there && joinPointer(there);
  out.push({
    where: `body ${(recordedPointer ?? replayedPointer) || '(whole)'}`,
    ...(recordedPointer !== undefined ? { recordedPointer } : {}),
    ...(replayedPointer !== undefined ? { replayedPointer } : {}),
    recorded: show(recorded),
    replayed: show(replayed),
  });
}

function show(value: LosslessValue | undefined): string | undefined {
  return value === undefined ? undefined : shorten(stringifyLossless(value));
}

function shorten(text: string): string {
  return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE)}…` : text;
}
