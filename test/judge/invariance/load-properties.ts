/**
 * The invariance properties of the load harness's verdicts, over a real run's own record (the built-in engine's
 * answers to a Free key, record-captures.ts): what a fleet of nodes does to the answers (an answer slower, two in
 * flight decided in the other order, Reset rounded apart by a node) makes no verdict fail, whether the verdicts come
 * from the answers (the built-in engine) or from per-window sums of them (Locust's workers ship those); and each
 * fault planted in such a run fails its own check.
 */
import fc from 'fast-check';
import { expect } from '@playwright/test';
import type { Observation } from '../../../harness/load/observation.ts';
import type { KeyResult } from '../../../harness/load/runner.ts';
import type { CheckId } from '../../../harness/load/verdicts/verdict.ts';
import { judge } from '../../load/support/judge.ts';
import type { PropertyRun } from './properties.ts';
import type { RecordedKey } from './record-captures.ts';
import { chooser, nextInCount } from './transformations.ts';

interface AnswerChange {
  kind: string;
  name: string;
  apply(observations: Observation[]): Observation[];
}

const byAnswer = (observations: Observation[]): Observation[] => [...observations].sort((a, b) => a.doneAt - b.doneAt);

const slower = fc.record({ rate: fc.double({ min: 0.05, max: 0.5, noNaN: true }), maxMs: fc.integer({ min: 1, max: 2_000 }), seed: fc.integer() }).map(({ rate, maxMs, seed }): AnswerChange => ({
  kind: 'slower',
  name: `answers of another node up to ${maxMs} ms slower with probability ${rate.toFixed(2)} (seed ${seed})`,
  apply: (observations) => {
    const next = chooser(seed);
    return byAnswer(observations.map((o) => (next() < rate ? { ...o, doneAt: o.doneAt + Math.round(next() * maxMs) } : o)));
  },
}));

const otherOrder = fc.record({ rate: fc.double({ min: 0.1, max: 1, noNaN: true }), seed: fc.integer() }).map(({ rate, seed }): AnswerChange => ({
  kind: 'other-order',
  name: `requests in flight together decided in the other order with probability ${rate.toFixed(2)} (seed ${seed})`,
  apply: (observations) => {
    const next = chooser(seed);
    const changed = observations.map((o) => ({ ...o }));
    for (let i = 1; i < changed.length; i++) {
      const [a, b] = [changed[i - 1]!, changed[i]!];
      const overlap = b.sentAt < a.doneAt && a.sentAt < b.doneAt;
      if (!overlap || a.outcome !== 'admitted' || b.outcome !== 'admitted' || a.limit !== b.limit || !nextInCount(a.remaining, b.remaining) || next() >= rate) continue;
      [a.remaining, b.remaining, a.reset, b.reset] = [b.remaining, a.remaining, b.reset, a.reset];
      i++;
    }
    return changed;
  },
}));

const rounded = fc.record({ direction: fc.constantFrom(1, -1), seed: fc.integer() }).map(({ direction, seed }): AnswerChange => ({
  kind: 'rounded',
  name: `a second node (seed ${seed}) rounds each window's end the other way: its Reset a second ${direction > 0 ? 'later' : 'earlier'}`,
  apply: (observations) => {
    const next = chooser(seed);
    return observations.map((o) => (o.reset !== undefined && next() < 0.5 ? { ...o, reset: o.reset + direction } : o));
  },
}));

const FLEET = fc.uniqueArray(fc.oneof(slower, otherOrder, rounded), { maxLength: 3, selector: (change) => change.kind });

interface LoadFault {
  name: string;
  check: CheckId;
  plant(observations: Observation[], pick: number, startedAtEpochMs: number): Observation[] | undefined;
}

/** Well before Reset: more than a node's rounding and Reset's own second. */
const CLEAR_MS = 3_000;

/** Admitted answers decided one after the other for certain, well before Reset: each with the one before. */
function chained(observations: readonly Observation[], startedAtEpochMs: number): Array<{ before: number; at: number }> {
  const admitted = observations.map((o, index) => ({ o, index })).filter(({ o }) => o.outcome === 'admitted' && o.reset !== undefined && startedAtEpochMs + o.doneAt < o.reset * 1000 - CLEAR_MS);
  const found: Array<{ before: number; at: number }> = [];
  for (let i = 1; i + 1 < admitted.length; i++) {
    const [before, at, after] = [admitted[i - 1]!, admitted[i]!, admitted[i + 1]!];
    const alone = observations.every((other) => other === before.o || other === at.o || other === after.o || other.doneAt <= before.o.sentAt || other.sentAt >= after.o.doneAt);
    if (alone && at.o.sentAt >= before.o.doneAt && after.o.sentAt >= at.o.doneAt && at.o.remaining === (before.o.remaining ?? 0) - 1) found.push({ before: before.index, at: at.index });
  }
  return found;
}

function edited(observations: readonly Observation[], index: number, change: Partial<Observation>): Observation[] {
  return observations.map((o, i) => (i === index ? { ...o, ...change } : o));
}

const FAULTS: readonly LoadFault[] = [
  {
    name: 'one admission over the quota: a refusal well before Reset turned into an admission',
    check: 'minute-max',
    plant: (observations, pick, start) => {
      const places = observations.flatMap((o, index) => (o.outcome === 'refused' && o.reset !== undefined && start + o.doneAt < o.reset * 1000 - CLEAR_MS ? [index] : []));
      if (places.length === 0) return undefined;
      return edited(observations, places[pick % places.length]!, { outcome: 'admitted', status: 200, remaining: 0, retryAfterMs: undefined });
    },
  },
  {
    name: 'a Remaining one more than is left',
    check: 'remaining-steps',
    plant: (observations, pick, start) => {
      const places = chained(observations, start);
      if (places.length === 0) return undefined;
      const { at } = places[pick % places.length]!;
      return edited(observations, at, { remaining: observations[at]!.remaining! + 1 });
    },
  },
  ...[-3, 3].map((byS): LoadFault => ({
    name: `a Reset moved ${byS > 0 ? 'forward' : 'back'} ${Math.abs(byS)} s within a window`,
    check: 'reset-stable',
    plant: (observations, pick, start) => {
      const places = chained(observations, start);
      if (places.length === 0) return undefined;
      const { at } = places[pick % places.length]!;
      return edited(observations, at, { reset: observations[at]!.reset! + byS });
    },
  })),
];

function failed(recorded: RecordedKey, observations: Observation[]): CheckId[] {
  const result: KeyResult = { ...recorded.key, observations };
  return judge(result, recorded.startedAtEpochMs).failed;
}

/** The failed checks with what they said, for a message. */
function failedSaying(recorded: RecordedKey, observations: Observation[]): string {
  const judged = judge({ ...recorded.key, observations }, recorded.startedAtEpochMs);
  return judged.failed.map((check) => `${check}: ${judged.verdict(check).detail} ${judged.verdict(check).evidence.join('; ')}`).join('\n');
}

function names(changes: readonly AnswerChange[]): string {
  return changes.length === 0 ? 'none' : changes.map((change) => change.name).join('; then ');
}

async function holds<T>(title: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => void, run: PropertyRun): Promise<void> {
  const result = fc.check(fc.property(arbitrary, predicate), { seed: run.seed, numRuns: run.numRuns, ...(run.path ? { path: run.path } : {}) });
  if (!result.failed) return;
  const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
  throw new Error(`${title}: falsified (seed ${result.seed}, path "${result.counterexamplePath}")\n${cause}\nReplay: PETSTORE_PROPERTY_SEED=${result.seed} PETSTORE_PROPERTY_PATH=${result.counterexamplePath}`);
}

/** What a fleet does to a correct run's answers makes no check of the built-in engine's verdicts fail. */
export async function loadVerdictsHold(recorded: RecordedKey, run: PropertyRun): Promise<void> {
  expect(failed(recorded, recorded.key.observations), 'the run itself fails nothing').toEqual([]);
  await holds('a correct run answered by a fleet fails no check', FLEET, (changes) => {
    const observations = changes.reduce((current, change) => change.apply(current), recorded.key.observations);
    expect(failed(recorded, observations), `${names(changes)}\n${failedSaying(recorded, observations)}`).toEqual([]);
  }, run);
}

/** Each fault planted in a correct run a fleet answered fails its own check. */
export async function loadFaultsAreCaught(recorded: RecordedKey, run: PropertyRun): Promise<void> {
  for (const fault of FAULTS) expect(fault.plant(recorded.key.observations, 0, recorded.startedAtEpochMs), `${fault.name}: no place in the run to plant it`).toBeDefined();
  const arbitrary = fc.record({ fault: fc.constantFrom(...FAULTS), changes: FLEET, pick: fc.nat() });
  await holds('a fault planted in a run a fleet answered fails its check', arbitrary, ({ fault, changes, pick }) => {
    const observations = changes.reduce((current, change) => change.apply(current), recorded.key.observations);
    const planted = fault.plant(observations, pick, recorded.startedAtEpochMs);
    fc.pre(planted !== undefined);
    expect(failed(recorded, planted!), `${fault.name}, after: ${names(changes)}`).toContain(fault.check);
  }, run);
}
