/**
 * How a replayed response differs from the recorded one, leaving out what is volatile (see ignore.ts)
 * and what stateful replay changes on purpose (ids, see id-map.ts). Lists whose items all carry an id are
 * compared as sets keyed by id: the spec leaves the order of GET /pets open, so order is no difference.
 */
import { JsonBody } from '../../lib/json-body.ts';
import { diffBodies, shorten, type Difference } from './body-diff.ts';
import type { IdMap } from './id-map.ts';
import { isIgnored, TRANSPORT_HEADERS, VALUE_VOLATILE_HEADERS, type IgnoreRules } from './ignore.ts';

export type { Difference };

export interface ComparableResponse {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  /** undefined when the recording holds no body. */
  body: string | undefined;
}

/** More than this per exchange says enough; the count of the rest is kept. */
const MAX_DIFFERENCES = 50;

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
  const names = Object.keys(recorded);
  for (const name in replayed) if (!Object.hasOwn(recorded, name)) names.push(name);
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
  // Most answers are the recording in the target's ids, to the byte: found so, neither body is walked.
  if (ids.remapText(recordedText) === replayedBody) return;
  const recordedValue = (options.recordedJson ?? new JsonBody(recordedText)).value;
  const replayedValue = (options.replayedJson ?? new JsonBody(replayedBody)).value;
  if (recordedValue === undefined || replayedValue === undefined) {
    if (recordedText !== replayedBody) out.push({ where: 'body', recorded: shorten(recordedText), replayed: shorten(replayedBody) });
    return;
  }
  diffBodies(recordedValue, replayedValue, rules, ids, out, MAX_DIFFERENCES);
}

