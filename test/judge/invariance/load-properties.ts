/**
 * The invariance properties of the load harness's verdicts, over a real run's own record (the built-in engine's
 * answers to a Free key, record-captures.ts), and over its answers until its first refusal (a key never refused):
 * what a fleet of nodes does to the answers (an answer slower, two in flight decided in the other order, Reset
 * rounded apart by a node) makes no verdict fail, whether the verdicts come from the answers (the built-in engine,
 * judge) or from per-window sums of them (Locust's workers ship those: judgeSummed, the sums one generator ships);
 * and each fault planted in such a run fails its own check on both paths, but where the sums cannot show it
 * (SUMS_CANNOT_SHOW): there the check says not checked, never passed.
 */
import fc from 'fast-check';
import { expect } from '@playwright/test';
import type { Observation } from '../../../harness/load/observation.ts';
import type { KeyResult } from '../../../harness/load/runner.ts';
import type { CheckId } from '../../../harness/load/verdicts/verdict.ts';
import { judge, judgeSummed, type Judged } from '../../load/support/judge.ts';
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

/**
 * Faults Locust's sums cannot show in some runs, by check, with when and why: there the check must say not checked
 * (never pass); in every other run the sums path must fail it as the answers do. A fault not listed, the sums always show.
 */
export const SUMS_CANNOT_SHOW: ReadonlyArray<{ check: CheckId; when: string; applies(summed: Judged): boolean }> = [
  {
    check: 'remaining-steps',
    when: "the key was never refused (model 'unseen'): sums show the kind of limiter only by refusals, and a token bucket or sliding log asked for fewer than its limit may say one Remaining twice under one Reset, which is all a Remaining one more than is left leaves in the sums",
    applies: (summed) => summed.account.model === 'unseen',
  },
];

/** The recorded run, and its answers decided before its first refusal left: a key never refused. */
function runsOf(recorded: RecordedKey): Array<{ name: string; observations: Observation[] }> {
  const { observations } = recorded.key;
  const firstRefusalSent = Math.min(...observations.filter((o) => o.outcome === 'refused').map((o) => o.sentAt));
  return [
    { name: 'the whole run', observations },
    { name: 'the run until its first refusal', observations: observations.filter((o) => o.doneAt < firstRefusalSent) },
  ];
}

/** The key judged from its answers by the built-in engine's path, and from their sums by Locust's. */
function judgedBoth(recorded: RecordedKey, observations: Observation[]): { answers: Judged; sums: Judged } {
  const result: KeyResult = { ...recorded.key, observations };
  return { answers: judge(result, recorded.startedAtEpochMs), sums: judgeSummed(result, recorded.startedAtEpochMs) };
}

/** The failed checks of each path with what they said, for a message. */
function saying(judged: { answers: Judged; sums: Judged }): string {
  const of = (path: string, one: Judged): string[] => one.failed.map((check) => `${path} ${check}: ${one.verdict(check).detail} ${one.verdict(check).evidence.join('; ')}`);
  return [...of('answers', judged.answers), ...of('sums', judged.sums)].join('\n');
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

/** What a fleet does to a correct run's answers makes no check fail, judged from the answers or from their sums. */
export async function loadVerdictsHold(recorded: RecordedKey, run: PropertyRun): Promise<void> {
  const runs = runsOf(recorded);
  for (const { name, observations } of runs) {
    const judged = judgedBoth(recorded, observations);
    expect([...judged.answers.failed, ...judged.sums.failed], `${name} itself fails nothing\n${saying(judged)}`).toEqual([]);
  }
  await holds('a correct run answered by a fleet fails no check, from its answers or from their sums', fc.record({ view: fc.constantFrom(...runs), changes: FLEET }), ({ view, changes }) => {
    const judged = judgedBoth(recorded, changes.reduce((current, change) => change.apply(current), view.observations));
    expect([...judged.answers.failed, ...judged.sums.failed], `${view.name}, after: ${names(changes)}\n${saying(judged)}`).toEqual([]);
  }, run);
}

/**
 * Each fault planted in a correct run a fleet answered fails its own check, from the answers and from their sums,
 * but where SUMS_CANNOT_SHOW says the sums cannot show it; each fault has a place in the whole run, and each entry
 * of SUMS_CANNOT_SHOW is met by some fault planted without a fleet.
 */
export async function loadFaultsAreCaught(recorded: RecordedKey, run: PropertyRun): Promise<void> {
  const runs = runsOf(recorded);
  for (const fault of FAULTS) expect(fault.plant(runs[0]!.observations, 0, recorded.startedAtEpochMs), `${fault.name}: no place in the run to plant it`).toBeDefined();
  const met = runs.flatMap(({ observations }) =>
    FAULTS.flatMap((fault) => {
      const planted = fault.plant(observations, 0, recorded.startedAtEpochMs);
      return planted ? SUMS_CANNOT_SHOW.filter((entry) => entry.check === fault.check && entry.applies(judgeSummed({ ...recorded.key, observations: planted }, recorded.startedAtEpochMs))) : [];
    }),
  );
  expect(new Set(met).size, 'every case the sums cannot show is met by a fault planted in a run').toBe(SUMS_CANNOT_SHOW.length);
  const arbitrary = fc.record({ fault: fc.constantFrom(...FAULTS), view: fc.constantFrom(...runs), changes: FLEET, pick: fc.nat() });
  await holds('a fault planted in a run a fleet answered fails its check, from the answers and from their sums (but where the sums cannot show it)', arbitrary, ({ fault, view, changes, pick }) => {
    const planted = fault.plant(changes.reduce((current, change) => change.apply(current), view.observations), pick, recorded.startedAtEpochMs);
    fc.pre(planted !== undefined);
    const { answers, sums } = judgedBoth(recorded, planted!);
    const where = `${fault.name}, in ${view.name}, after: ${names(changes)}`;
    expect(answers.failed, `${where}: from the answers`).toContain(fault.check);
    const hidden = SUMS_CANNOT_SHOW.find((entry) => entry.check === fault.check && entry.applies(sums));
    if (hidden) expect(sums.verdict(fault.check).status, `${where}: from the sums, where ${hidden.when}`).toBe('not-checked');
    else expect(sums.failed, `${where}: from the sums (${sums.verdict(fault.check).status}: ${sums.verdict(fault.check).detail})`).toContain(fault.check);
  }, run);
}
