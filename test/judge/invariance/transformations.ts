/**
 * What production does to the traffic of a correct service on its way to the judge, as fast-check arbitraries over a
 * real capture (capture-lines.ts). None of them makes the service wrong, so none may make a verdict fail:
 *
 * - exact: they add no doubt, so every verdict must stay as it was: lines written twice (at-least-once shipping), a
 *   batch re-sent seconds or a minute later, a rotated log read as `cat petstore.log.1 petstore.log` with the lines
 *   around the cut in both, two nodes' lines concatenated within the judge's reorder buffer;
 * - uncertain: they hide when or in which order things happened, or change what a correct service may answer, so a
 *   verdict may become partly checked, never failed: answers of several nodes overtaking each other (a slower answer;
 *   two requests in flight together decided in the other order), Reset written per node from one window end rounded
 *   the other way, a node's clock off within the clock skew, created pets moved to another status by another client
 *   (the spec shows no transitions), lines without their duration, sampling, a rotated log read from its cut, a
 *   sanitizer's removed Authorization;
 * - written otherwise, applied last, exact: a log_format without escape=json, times in ISO 8601 with an offset, a
 *   browser's HAR holding the answers its own cache gave again.
 *
 * Each is a name (printed with a counterexample) and an edit of a copy of the lines.
 */
import fc from 'fast-check';
import { idText, stringifyLossless, tryParseLossless, type LosslessValue } from '../../../lib/lossless-json.ts';
import { PET_STATUSES } from '../../../reference-server/pet.ts';
import { copyLine, viewOf, type Capture, type Line, type LineView } from './capture-lines.ts';

export interface Transformation {
  /** Which of the field's transformations: each is applied at most once on a path (twice would not be the field's). */
  kind: string;
  name: string;
  /** Adds no doubt: every verdict must stay as it was. */
  exact: boolean;
  apply(capture: Capture): Capture;
}

/** The judge's --clock-skew in these properties (its default). */
export const CLOCK_SKEW_MS = 1_000;
/** Within the judge's reorder buffer (10 s), with room for the clock skew. */
const WITHIN_BUFFER_MS = 8_000;

/** A decision per line, from a seed: the same seed, the same choices (fast-check shrinks the seed with the rest). */
export function chooser(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

function withLines(capture: Capture, lines: Line[]): Capture {
  return { kind: capture.kind, lines };
}

function copied(capture: Capture): Capture {
  return withLines(capture, capture.lines.map(copyLine));
}

/** Lines in the order a log writes them: by when each answer came back (stable for ties). */
function byAnswer(capture: Capture): Capture {
  const view = viewOf(capture.kind);
  return withLines(capture, capture.lines.map((line, index) => ({ line, index })).sort((a, b) => view.answeredAt(a.line) - view.answeredAt(b.line) || a.index - b.index).map(({ line }) => line));
}

const duplicates = fc.record({ rate: fc.double({ min: 0.01, max: 0.1, noNaN: true }), seed: fc.integer() }).map(({ rate, seed }): Transformation => ({
  kind: 'duplicates',
  name: `each line written twice with probability ${rate.toFixed(3)} (seed ${seed})`,
  exact: true,
  apply: (capture) => {
    const next = chooser(seed);
    return withLines(capture, capture.lines.flatMap((line) => (next() < rate ? [line, copyLine(line)] : [line])));
  },
}));

const resentBatch = fc.record({ at: fc.nat(), length: fc.integer({ min: 1, max: 25 }), delayMs: fc.oneof(fc.constantFrom(11_000, 60_000), fc.integer({ min: 500, max: 90_000 })) }).map(({ at, length, delayMs }): Transformation => ({
  kind: 'resentBatch',
  name: `a batch of ${length} lines from line ${at} re-sent ${delayMs} ms later`,
  exact: true,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const start = at % capture.lines.length;
    const batch = capture.lines.slice(start, start + length);
    const due = Math.max(...batch.map((line) => view.answeredAt(line))) + delayMs;
    const where = capture.lines.findIndex((line, index) => index >= start + length && view.answeredAt(line) >= due);
    const lines = [...capture.lines];
    lines.splice(where === -1 ? lines.length : where, 0, ...batch.map(copyLine));
    return withLines(capture, lines);
  },
}));

const rotatedAndCatenated = fc.record({ at: fc.nat(), overlap: fc.integer({ min: 0, max: 4 }) }).map(({ at, overlap }): Transformation => ({
  kind: 'rotatedAndCatenated',
  name: `rotated at line ${at}, read as cat log.1 log with ${overlap} lines in both`,
  exact: true,
  apply: (capture) => {
    const cut = at % capture.lines.length;
    return withLines(capture, [...capture.lines.slice(0, cut), ...capture.lines.slice(Math.max(0, cut - overlap)).map(copyLine)]);
  },
}));

const catenatedNodes = fc.record({ at: fc.nat(), seed: fc.integer() }).map(({ at, seed }): Transformation => ({
  kind: 'catenatedNodes',
  name: `lines from line ${at} on, spanning under ${WITHIN_BUFFER_MS} ms, split between two nodes (seed ${seed}) and catenated node by node`,
  exact: true,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const start = at % capture.lines.length;
    const first = view.answeredAt(capture.lines[start]!);
    let end = start;
    while (end < capture.lines.length && view.answeredAt(capture.lines[end]!) - first < WITHIN_BUFFER_MS) end++;
    const next = chooser(seed);
    const segment = capture.lines.slice(start, end).map((line) => ({ line, node: next() < 0.5 ? 0 : 1 }));
    const catenated = [...segment.filter(({ node }) => node === 0), ...segment.filter(({ node }) => node === 1)].map(({ line }) => line);
    return withLines(capture, [...capture.lines.slice(0, start), ...catenated, ...capture.lines.slice(end)]);
  },
}));

const slowerAnswers = fc.record({ rate: fc.double({ min: 0.05, max: 0.5, noNaN: true }), maxMs: fc.integer({ min: 1, max: 3_000 }), seed: fc.integer() }).map(({ rate, maxMs, seed }): Transformation => ({
  kind: 'slowerAnswers',
  name: `answers of another node up to ${maxMs} ms slower with probability ${rate.toFixed(2)} (seed ${seed}), logged when they came back`,
  exact: false,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const next = chooser(seed);
    const lines = copied(capture);
    for (const line of lines.lines) if (next() < rate && view.duration(line) !== undefined) view.setAnsweredAt(line, view.answeredAt(line) + Math.round(next() * maxMs), true);
    return byAnswer(lines);
  },
}));

/** Rate-limit headers that describe the decision the target made for a request. */
const DECISION = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * Two decisions a window made one right after the other: only those can trade places. A pair in flight together
 * whose Remaining values lie further apart had decisions between them, made before the later request left (a slower
 * answer keeps its request in flight long after it was decided), so swapping them would write a wrong service.
 */
export function nextInCount(a: string | number | undefined, b: string | number | undefined): boolean {
  return a !== undefined && b !== undefined && Math.abs(Number(a) - Number(b)) === 1;
}

const decidedTheOtherWay = fc.record({ rate: fc.double({ min: 0.1, max: 1, noNaN: true }), seed: fc.integer() }).map(({ rate, seed }): Transformation => ({
  kind: 'decidedTheOtherWay',
  name: `requests of one key in flight together decided in the other order with probability ${rate.toFixed(2)} (seed ${seed})`,
  exact: false,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const next = chooser(seed);
    const lines = copied(capture);
    const latest = new Map<string, Line>();
    for (const line of lines.lines) {
      const before = latest.get(view.key(line));
      latest.set(view.key(line), line);
      if (!before || view.status(before) !== 200 || view.status(line) !== 200 || next() >= rate) continue;
      const took = [view.duration(before), view.duration(line)];
      if (took[0] === undefined || took[1] === undefined) continue;
      const overlap = view.answeredAt(line) - took[1] < view.answeredAt(before) && view.answeredAt(before) - took[0] < view.answeredAt(line);
      if (!overlap || view.header(before, 'x-ratelimit-limit') !== view.header(line, 'x-ratelimit-limit') || !nextInCount(view.header(before, 'x-ratelimit-remaining'), view.header(line, 'x-ratelimit-remaining'))) continue;
      for (const name of DECISION) {
        const value = view.header(before, name);
        view.setHeader(before, name, view.header(line, name));
        view.setHeader(line, name, value);
      }
      latest.delete(view.key(line));
    }
    return lines;
  },
}));

const resetRoundedByNode = fc.record({ direction: fc.constantFrom(1, -1), seed: fc.integer() }).map(({ direction, seed }): Transformation => ({
  kind: 'resetRoundedByNode',
  name: `a second node (seed ${seed}) rounds each window's end the other way: its Reset ${direction > 0 ? 'one second later' : 'one second earlier'}`,
  exact: false,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const next = chooser(seed);
    const lines = copied(capture);
    for (const line of lines.lines) {
      const reset = view.header(line, 'x-ratelimit-reset');
      if (reset !== undefined && next() < 0.5) view.setHeader(line, 'x-ratelimit-reset', String(Number(reset) + direction));
    }
    return lines;
  },
}));

const clockOffset = fc.record({ offsetMs: fc.integer({ min: -CLOCK_SKEW_MS, max: CLOCK_SKEW_MS }), seed: fc.integer(), sorted: fc.boolean() }).map(({ offsetMs, seed, sorted }): Transformation => ({
  kind: 'clockOffset',
  name: `a second node (seed ${seed}) whose clock is ${offsetMs} ms off${sorted ? ', lines merged by time' : ''}`,
  exact: false,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const next = chooser(seed);
    const lines = copied(capture);
    for (const line of lines.lines) if (next() < 0.5) view.setAnsweredAt(line, view.answeredAt(line) + offsetMs, false);
    return sorted ? byAnswer(lines) : lines;
  },
}));

const withoutDuration = fc.double({ min: 0.2, max: 1, noNaN: true }).chain((rate) => fc.integer().map((seed): Transformation => ({
  kind: 'withoutDuration',
  name: `lines without their duration with probability ${rate.toFixed(2)} (seed ${seed})`,
  exact: false,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const next = chooser(seed);
    const lines = copied(capture);
    for (const line of lines.lines) if (next() < rate) view.dropDuration(line);
    return lines;
  },
})));

const sampled = fc.record({ rate: fc.double({ min: 0.5, max: 0.98, noNaN: true }), seed: fc.integer() }).map(({ rate, seed }): Transformation => ({
  kind: 'sampled',
  name: `a sample of the lines, each kept with probability ${rate.toFixed(2)} (seed ${seed})`,
  exact: false,
  apply: (capture) => {
    const next = chooser(seed);
    return withLines(capture, capture.lines.filter(() => next() < rate));
  },
}));

const readFromRotation = fc.nat().map((at): Transformation => ({
  kind: 'readFromRotation',
  name: `rotated at line ${at}, only the new file read`,
  exact: false,
  apply: (capture) => withLines(capture, capture.lines.slice(at % capture.lines.length)),
}));

const sanitized = fc.constant<Transformation>({
  kind: 'sanitized',
  name: 'Authorization removed by a sanitizer',
  exact: false,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const lines = copied(capture);
    for (const line of lines.lines) view.sanitize(line);
    return lines;
  },
});

/**
 * Another client (an admin, the store-orders area) moves a few created pets to another status at a moment after their
 * creation: every answer decided after it, taken as decided when it came, shows the pet so (getPet, a list's entry),
 * a list by its old status leaves it out and one by its new status with room holds it. A correct service, whose pets'
 * status the spec lets change (STATE-GAP-1).
 */
const movedByAnotherClient = fc.record({ pets: fc.integer({ min: 1, max: 3 }), seed: fc.integer() }).map(({ pets, seed }): Transformation => ({
  kind: 'movedByAnotherClient',
  name: `${pets} created pet${pets === 1 ? '' : 's'} moved to another status by another client some time after its creation (seed ${seed})`,
  exact: false,
  apply: (capture) => {
    const view = viewOf(capture.kind);
    const next = chooser(seed);
    const lines = copied(capture);
    const lastAnswer = Math.max(...lines.lines.map((line) => view.answeredAt(line)));
    const creations = lines.lines.filter((line) => view.method(line) === 'POST' && view.status(line) === 201 && petIn(view.responseBody(line)) !== undefined);
    const moves = new Map<string, { at: number; status: string }>();
    for (let count = 0; count < pets && creations.length > 0; count++) {
      const creation = creations.splice(Math.floor(next() * creations.length), 1)[0]!;
      const pet = petIn(view.responseBody(creation))!;
      const others = PET_STATUSES.filter((status) => status !== pet.status);
      const createdAt = view.answeredAt(creation);
      moves.set(idText(pet.id) ?? '', { at: createdAt + next() * (lastAnswer - createdAt), status: others[Math.floor(next() * others.length)]! });
    }
    for (const line of lines.lines) {
      const text = view.responseBody(line);
      if (view.method(line) !== 'GET' || view.status(line) !== 200 || text === undefined) continue;
      const movedBy = (pet: LosslessValue): { at: number; status: string } | undefined => {
        const move = isPet(pet) ? moves.get(idText(pet.id) ?? '') : undefined;
        return move !== undefined && view.answeredAt(line) > move.at ? move : undefined;
      };
      const moved = (pet: LosslessValue): LosslessValue => (movedBy(pet) ? { ...(pet as Record<string, LosslessValue>), status: movedBy(pet)!.status } : pet);
      const body = tryParseLossless(text);
      if (body === undefined) continue;
      if (!Array.isArray(body)) {
        if (movedBy(body)) view.setBody(line, stringifyLossless(moved(body)));
        continue;
      }
      const query = new URL(view.path(line), 'http://capture').searchParams;
      const filter = query.get('status');
      let listed = body.map(moved).filter((pet) => filter === null || !movedBy(pet) || (pet as Record<string, LosslessValue>).status === filter);
      // A list by the new status with room holds the moved pets it did not.
      const limit = Number(query.get('limit') ?? 20);
      for (const [id, move] of moves) {
        if (filter !== move.status || view.answeredAt(line) <= move.at || listed.length >= limit || listed.some((pet) => isPet(pet) && idText(pet.id) === id)) continue;
        const created = creationOf(lines, view, id);
        if (created !== undefined) listed = [...listed, { ...created, status: move.status }];
      }
      if (listed.length !== body.length || listed.some((pet, index) => pet !== body[index])) view.setBody(line, stringifyLossless(listed));
    }
    return lines;
  },
}));

function isPet(value: LosslessValue | undefined): value is Record<string, LosslessValue> {
  return value !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The Pet a creation's answer carries, if its body holds one with an id. */
function petIn(text: string | undefined): Record<string, LosslessValue> | undefined {
  const value = text === undefined ? undefined : tryParseLossless(text);
  return isPet(value) && idText(value.id) !== undefined ? value : undefined;
}

/** The Pet created with `id`, as its creation answered it. */
function creationOf(capture: Capture, view: LineView, id: string): Record<string, LosslessValue> | undefined {
  for (const line of capture.lines) {
    const pet = view.method(line) === 'POST' && view.status(line) === 201 ? petIn(view.responseBody(line)) : undefined;
    if (pet !== undefined && idText(pet.id) === id) return pet;
  }
  return undefined;
}

/** Every "" of a log line as nginx writes it when the log_format lacks escape=json: "-". */
export function dashed(value: unknown): unknown {
  if (value === '') return '-';
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, each]) => [name, dashed(each)]));
}

/** `ms` as ISO 8601 the way some loggers write it: local time `hours` from UTC, a space, a comma, the offset as +hhmm. */
function isoTime(ms: number, hours: number): string {
  const offset = `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}00`;
  return `${new Date(ms + hours * 3_600_000).toISOString().slice(0, 23).replace('T', ' ').replace('.', ',')}${offset}`;
}

/**
 * How another writer writes the same exchanges, applied last (the views read the how-to's forms only), which must
 * leave every verdict as it was: a log_format without escape=json ("-" for each value nginx lacks), times in ISO
 * 8601 with an offset rather than $msec, and a browser's HAR holding, beside its entries, the answers its own
 * cache gave again (Chrome's _fromCache), which never reached the target.
 */
export const writtenOtherwise = fc
  .record({ dashes: fc.boolean(), offsetHours: fc.option(fc.integer({ min: -12, max: 14 }), { nil: undefined }), cachedRate: fc.double({ min: 0, max: 0.3, noNaN: true }), seed: fc.integer() })
  .map(({ dashes, offsetHours, cachedRate, seed }): Transformation => ({
    kind: 'writtenOtherwise',
    name: `written otherwise: a log ${dashes ? 'with "-" for values it lacks' : 'as the how-to writes it'}, ${offsetHours === undefined ? 'its times as $msec' : `its times in ISO 8601 at ${offsetHours} h from UTC`}; a HAR with ${(cachedRate * 100).toFixed(1)}% of its answers given again from the browser's cache (seed ${seed})`,
    exact: true,
    apply: (capture) => {
      if (capture.kind === 'nginx') {
        return withLines(capture, capture.lines.map((line) => {
          const entry = (dashes ? dashed(line.entry) : structuredClone(line.entry)) as Record<string, unknown>;
          if (offsetHours !== undefined) entry.time = isoTime(viewOf('nginx').answeredAt(line), offsetHours);
          return { entry };
        }));
      }
      const next = chooser(seed);
      return withLines(capture, capture.lines.flatMap((line) => {
        if (next() >= cachedRate) return [line];
        const copy = copyLine(line);
        copy.entry.startedDateTime = new Date(viewOf('har').answeredAt(line) + Math.round(next() * 5_000)).toISOString();
        copy.entry.time = 0;
        copy.entry._fromCache = next() < 0.5 ? 'memory' : 'disk';
        return [line, copy];
      }));
    },
  }));

/** What leaves every verdict as it was. */
export const EXACT = [duplicates, resentBatch, rotatedAndCatenated, catenatedNodes];
/**
 * What a fleet's nodes do: answers in another order or time, Reset rounded another way; and what other clients do to
 * the store: pets moved to another status. It blurs order and time, and changes what a correct service answers, but
 * leaves what the capture shows of a fault: a fault planted after it is still there to see.
 */
export const SERVICE = [slowerAnswers, decidedTheOtherWay, resetRoundedByNode, clockOffset, movedByAnotherClient];
/** What the log keeps of them: lines without duration, a sample, the part after a rotation. A fault may vanish with them. */
export const WRITTEN = [withoutDuration, sampled, readFromRotation];
/** What shipping and reading the log does to its lines: repeats, re-sent batches, files catenated, a sanitizer. */
export const SHIPPING = [...EXACT, sanitized];

export function transformations(from: ReadonlyArray<fc.Arbitrary<Transformation>>, maxLength = 3): fc.Arbitrary<Transformation[]> {
  return fc.uniqueArray(fc.oneof(...from), { maxLength, selector: (step) => step.kind });
}

/**
 * What the service's nodes do to answers, then what the log keeps of them, then what shipping does to its lines, in
 * that order: a line is repeated or re-sent as it was written, never a line written otherwise.
 */
export function fieldPath(...stages: ReadonlyArray<ReadonlyArray<fc.Arbitrary<Transformation>>>): fc.Arbitrary<Transformation[]> {
  return fc.tuple(...stages.map((stage) => transformations(stage))).map((steps) => steps.flat());
}

export function applyAll(capture: Capture, steps: readonly Transformation[]): Capture {
  return steps.reduce((current, step) => step.apply(current), capture);
}
