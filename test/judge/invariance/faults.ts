/**
 * Faults planted in a capture of a correct service (after the field's transformations), each where the capture can
 * show it whatever order and rounding it allows, and the rule each must fail. A fault that has no such place in a
 * capture (no 429 to strip, no line decided after another, no window seen to end whatever the clocks) is not planted:
 * `plant` returns undefined.
 */
import { copyLine, viewOf, type Capture, type Line, type LineView } from './capture-lines.ts';
import { RESET_RESOLUTION_S } from '../../../lib/rate-limiter/reading.ts';
import { CLOCK_SKEW_MS } from './transformations.ts';

export interface PlantedFault {
  name: string;
  /** The rule that must fail. */
  rule: string;
  /** Rules the fault cannot help breaking as well. */
  alsoBreaks: readonly string[];
  plant(capture: Capture, pick: number): Capture | undefined;
}

/** Well before a Reset: more than the judge's slack (Reset's second and the clock skew) and a node's rounding. */
const CLEAR_OF_RESET_MS = 1_000 + 2 * CLOCK_SKEW_MS + 1_000 + 500;

interface Placed {
  capture: Capture;
  at: number;
}

function copy(capture: Capture): Capture {
  return { kind: capture.kind, lines: capture.lines.map(copyLine) };
}

/** Indexes of the lines `wanted` picks, one of which `pick` chooses; the capture copied to edit it. */
function choose(capture: Capture, pick: number, wanted: (line: Line, index: number) => boolean): Placed | undefined {
  const places = capture.lines.flatMap((line, index) => (wanted(line, index) ? [index] : []));
  if (places.length === 0) return undefined;
  return { capture: copy(capture), at: places[pick % places.length]! };
}

/** When the line's request left, by the capture's clock: undefined where the line does not say how long it took. */
function sentAt(view: LineView, line: Line): number | undefined {
  const took = view.duration(line);
  return took === undefined ? undefined : view.answeredAt(line) - took;
}

const resetOf = (view: LineView, line: Line): number => Number(view.header(line, 'x-ratelimit-reset'));

/** Admitted answers (a list served, a pet created) of `line`'s key under its Limit that carry a Reset. */
function admissionsOfLimit(capture: Capture, view: LineView, line: Line): Line[] {
  const limit = view.header(line, 'x-ratelimit-limit');
  return capture.lines.filter((other) => (view.status(other) === 200 || view.status(other) === 201) && view.key(other) === view.key(line) && view.header(other, 'x-ratelimit-limit') === limit && view.header(other, 'x-ratelimit-reset') !== undefined);
}

/**
 * Whether the capture shows `line`'s key counting its Limit down in fixed windows whatever the clocks: an admission
 * saying all but one of the quota is left under a later Reset, its request sent more than the clock skew after every
 * answer of an earlier window came back and after the earliest that window may have ended (its Reset rounded up). Only
 * a fixed window gives the whole quota back at once (or a sliding log whose requests all left together, which must
 * count down too); a bucket or a sliding counter may keep Remaining still, so a Remaining that did not fall breaks RL-6
 * only where the capture shows this. Sent within the skew of that end, a clock may have sent it before the end came.
 */
function countsDownInWindows(capture: Capture, line: Line): boolean {
  const view = viewOf(capture.kind);
  const admissions = admissionsOfLimit(capture, view, line);
  const limit = Number(view.header(line, 'x-ratelimit-limit'));
  return admissions.some((first) => {
    const sent = sentAt(view, first);
    if (sent === undefined || Number(view.header(first, 'x-ratelimit-remaining')) !== limit - 1) return false;
    const before = admissions.filter((other) => resetOf(view, other) < resetOf(view, first) - RESET_RESOLUTION_S);
    return before.length > 0 && before.every((other) => sent >= Math.max(view.answeredAt(other), (resetOf(view, other) - RESET_RESOLUTION_S) * 1000) + CLOCK_SKEW_MS);
  });
}

/**
 * Whether the window a refusal names admitted its whole quota, each admission well before its Reset (one end, rounded
 * a second either way by two nodes): only then is one more admission over the quota. A refusal may name another wait
 * than its window's (a key banned for hammering through its 429s), under which nothing was admitted.
 */
function windowFull(capture: Capture, view: LineView, refusal: Line): boolean {
  const reset = resetOf(view, refusal);
  const firm = admissionsOfLimit(capture, view, refusal).filter((line) => Math.abs(resetOf(view, line) - reset) <= RESET_RESOLUTION_S && view.answeredAt(line) < resetOf(view, line) * 1000 - CLEAR_OF_RESET_MS);
  return firm.length >= Number(view.header(refusal, 'x-ratelimit-limit'));
}

/**
 * Admitted answers of one key one after another for certain, well before their Reset: for each, the one before it
 * (which it was decided after) and the one after it (decided after it), by the intervals the capture gives them.
 */
function chained(capture: Capture): Array<{ before: number; at: number; after: number }> {
  const view = viewOf(capture.kind);
  const clear = (line: Line): boolean => view.answeredAt(line) < Number(view.header(line, 'x-ratelimit-reset')) * 1000 - CLEAR_OF_RESET_MS;
  const byKey = new Map<string, number[]>();
  capture.lines.forEach((line, index) => {
    if (view.status(line) !== 200 || view.header(line, 'x-ratelimit-remaining') === undefined || !clear(line)) return;
    const key = view.key(line);
    byKey.set(key, [...(byKey.get(key) ?? []), index]);
  });
  const after = (first: number, second: number): boolean => {
    const sent = sentAt(view, capture.lines[second]!);
    return sent !== undefined && sent >= view.answeredAt(capture.lines[first]!) + CLOCK_SKEW_MS;
  };
  const found: Array<{ before: number; at: number; after: number }> = [];
  for (const indexes of byKey.values()) {
    const sorted = [...indexes].sort((a, b) => view.answeredAt(capture.lines[a]!) - view.answeredAt(capture.lines[b]!));
    for (let i = 1; i + 1 < sorted.length; i++) {
      const [before, at, next] = [sorted[i - 1]!, sorted[i]!, sorted[i + 1]!];
      if (after(before, at) && after(at, next)) found.push({ before, at, after: next });
    }
  }
  return found;
}

/** The capture with one of the lines `wanted` picks (by `pick`) edited, or undefined when no line is wanted. */
function editOne(capture: Capture, pick: number, wanted: (view: LineView, line: Line) => boolean, edit: (view: LineView, line: Line) => void): Capture | undefined {
  const view = viewOf(capture.kind);
  const placed = choose(capture, pick, (line) => wanted(view, line));
  if (!placed) return undefined;
  edit(view, placed.capture.lines[placed.at]!);
  return placed.capture;
}

const listing = (view: LineView, line: Line): boolean => view.method(line) === 'GET' && /^\/pets(\?|$)/.test(view.path(line));
const creation = (view: LineView, line: Line): boolean => view.method(line) === 'POST' && /^\/pets(\?|$)/.test(view.path(line));

/**
 * Another line of the key answered in the same millisecond: a log without bodies (nginx's) then writes the refusal
 * turned admission exactly as the last admission, and a judge rightly reads it as that line written twice.
 */
function twinOf(capture: Capture, view: LineView, line: Line): boolean {
  return capture.lines.some((other) => other !== line && view.key(other) === view.key(line) && view.answeredAt(other) === view.answeredAt(line));
}

const overQuota: PlantedFault = {
  name: 'one admission over the quota in a window: a refusal well before Reset turned into an admission',
  rule: 'PLAN-FREE',
  alsoBreaks: ['RL-6'],
  plant: (capture, pick) =>
    editOne(capture, pick, (view, line) => view.status(line) === 429 && /free/i.test(view.key(line)) && (listing(view, line) || creation(view, line)) && view.answeredAt(line) < Number(view.header(line, 'x-ratelimit-reset')) * 1000 - CLEAR_OF_RESET_MS && !twinOf(capture, view, line) && windowFull(capture, view, line), (view, line) => {
      // Answered as the operation answers: a list, or the pet created.
      const created = creation(view, line);
      view.setStatus(line, created ? 201 : 200);
      view.setBody(line, created ? JSON.stringify({ id: 987_654, ...(JSON.parse(view.requestBody(line) || '{}') as object) }) : '[]');
      view.setHeader(line, 'retry-after', undefined);
      view.setHeader(line, 'x-ratelimit-remaining', '0');
    }),
};

const remainingOneMore: PlantedFault = {
  name: 'a Remaining one more than is left, between answers decided one after the other',
  rule: 'RL-6',
  alsoBreaks: [],
  plant: (capture, pick) => {
    const view = viewOf(capture.kind);
    const places = chained(capture).filter(({ before, at }) => Number(view.header(capture.lines[at]!, 'x-ratelimit-remaining')) === Number(view.header(capture.lines[before]!, 'x-ratelimit-remaining')) - 1 && countsDownInWindows(capture, capture.lines[at]!));
    if (places.length === 0) return undefined;
    const { at } = places[pick % places.length]!;
    const planted = copy(capture);
    const line = planted.lines[at]!;
    view.setHeader(line, 'x-ratelimit-remaining', String(Number(view.header(line, 'x-ratelimit-remaining')) + 1));
    return planted;
  },
};

function resetMoved(byS: number): PlantedFault {
  return {
    name: `a Reset moved ${byS > 0 ? 'forward' : 'back'} ${Math.abs(byS)} s within a window, more than its one-second resolution and a node's rounding`,
    rule: 'RL-7',
    alsoBreaks: [],
    plant: (capture, pick) => {
      const places = chained(capture);
      if (places.length === 0) return undefined;
      const view = viewOf(capture.kind);
      const { at } = places[pick % places.length]!;
      const planted = copy(capture);
      const line = planted.lines[at]!;
      view.setHeader(line, 'x-ratelimit-reset', String(Number(view.header(line, 'x-ratelimit-reset')) + byS));
      return planted;
    },
  };
}

const refusalWithoutRetryAfter: PlantedFault = {
  name: 'a 429 without Retry-After',
  rule: 'RL-1',
  alsoBreaks: [],
  plant: (capture, pick) => editOne(capture, pick, (view, line) => view.status(line) === 429, (view, line) => view.setHeader(line, 'retry-after', undefined)),
};

const deprecatedListing: PlantedFault = {
  name: 'a Deprecation header on an answer of listPets, which the spec does not deprecate',
  rule: 'VER-3',
  alsoBreaks: [],
  plant: (capture, pick) => editOne(capture, pick, (view, line) => listing(view, line) && view.status(line) === 200, (view, line) => view.setHeader(line, 'deprecation', '@1735689600')),
};

const unknownKeyServed: PlantedFault = {
  name: 'a 200 to a key the service never issued',
  rule: 'AUTH-2',
  alsoBreaks: [],
  plant: (capture, pick) => editOne(capture, pick, (view, line) => listing(view, line) && view.status(line) === 401, (view, line) => view.setStatus(line, 200)),
};

const neverAnswered: PlantedFault = {
  name: 'a request never answered (nginx logs 444 for a connection closed without one, a HAR status 0 with the reset)',
  rule: 'RESP-3',
  alsoBreaks: [],
  plant: (capture, pick) =>
    editOne(capture, pick, (view, line) => listing(view, line) && view.status(line) === 200, (view, line) => {
      view.setStatus(line, capture.kind === 'nginx' ? 444 : 0);
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'content-type']) view.setHeader(line, name, undefined);
      view.setBody(line, '');
      if (capture.kind === 'har') (line.entry as { response: Record<string, unknown> }).response._error = 'net::ERR_CONNECTION_RESET';
    }),
};

export const FAULTS: readonly PlantedFault[] = [neverAnswered, overQuota, remainingOneMore, resetMoved(-3), resetMoved(3), refusalWithoutRetryAfter, deprecatedListing, unknownKeyServed];
