/**
 * The invariance properties of the judge, over one real capture: under the field's transformations of a correct
 * run no verdict fails (and under the exact ones none changes at all), and each fault planted in such a run fails
 * its own rule. fast-check runs them; a failure is shrunk to the fewest, smallest transformations and printed with
 * its seed and path so it can be replayed (`replayHint`).
 */
import fc from 'fast-check';
import { expect } from '@playwright/test';
import { CLIENT_RULES } from '../../../harness/judge/client-exchange.ts';
import type { ConformanceReport } from '../../../lib/verdicts/model.ts';
import { failures, judged } from '../support.ts';
import { writeLines, type Capture } from './capture-lines.ts';
import { FAULTS, type PlantedFault } from './faults.ts';
import { applyAll, EXACT, fieldPath, SERVICE, SHIPPING, transformations, WRITTEN, writtenOtherwise, type Transformation } from './transformations.ts';

export interface PropertyRun {
  seed: number;
  numRuns: number;
  /** fast-check's path to one counterexample: replays it alone. */
  path?: string;
}

/** The run a tier asks for: `seed` unless PETSTORE_PROPERTY_SEED (and _PATH) replay a printed counterexample. */
export function propertyRun(seed: number, numRuns: number, env: NodeJS.ProcessEnv = process.env): PropertyRun {
  const replay = env.PETSTORE_PROPERTY_SEED;
  if (replay === undefined || replay === '') return { seed, numRuns };
  return { seed: Number(replay), numRuns, ...(env.PETSTORE_PROPERTY_PATH ? { path: env.PETSTORE_PROPERTY_PATH } : {}) };
}

/**
 * Faults traffic cannot show, by rule, with why: each must still go uncaught (planted once without transformations),
 * so the list is shortened as soon as the judge learns one.
 */
export const TRAFFIC_CANNOT_SHOW: ReadonlyMap<string, string> = new Map([
  // Not a gap of the judge: nothing in traffic tells a key never issued from one the judge was not told of. The
  // recorder's $PETSTORE_INVALID_KEY is no such sign either: it names a key invalid because the answer was a 401.
  ['AUTH-2', "a key the capture does not name is not known to be invalid: a 200 to it may be a key the judge was not told of (the nginx log writes every key it does not know alike, and the recorder calls a key invalid only when it was answered 401)"],
]);

/** Each rule's verdict. */
export function verdicts(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(report.rules.map((row) => [row.id, row.verdict]));
}

/**
 * Each verdict on the service. The client's (ERR-3, ERR-4: what it sent after a 429) are judged in the order the
 * capture lists its requests, not put back in order: catenated nodes may leave them partly checked (never failed).
 */
function serviceVerdicts(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(Object.entries(verdicts(report)).filter(([rule]) => !(CLIENT_RULES as readonly string[]).includes(rule)));
}

async function judgedCapture(capture: Capture): Promise<ConformanceReport> {
  return judged(writeLines(capture), {});
}

function names(steps: readonly Transformation[]): string {
  return steps.length === 0 ? 'none' : steps.map((step) => step.name).join('; then ');
}

/** Runs a property, and on failure throws with what fast-check shrank it to and how to replay it. */
export async function holds<T>(title: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, run: PropertyRun, describe: (value: T) => string): Promise<void> {
  const result = await fc.check(fc.asyncProperty(arbitrary, predicate), { seed: run.seed, numRuns: run.numRuns, ...(run.path ? { path: run.path } : {}) });
  if (!result.failed) return;
  const shrunk = result.counterexample?.[0];
  const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
  throw new Error(`${title}: falsified after ${result.numRuns} runs (seed ${result.seed}, path "${result.counterexamplePath}"); shrunk to: ${shrunk === undefined ? 'nothing' : describe(shrunk)}\n${cause}\nReplay: PETSTORE_PROPERTY_SEED=${result.seed} PETSTORE_PROPERTY_PATH=${result.counterexamplePath}`);
}

/** No transformation of a correct run makes a rule fail; the exact ones change no verdict at all. */
export async function correctStaysCorrect(capture: Capture, run: PropertyRun): Promise<void> {
  const baseline = await judgedCapture(capture);
  expect(failures(baseline), 'the capture itself fails nothing').toEqual({});
  const before = serviceVerdicts(baseline);
  await holds(
    'a transformed correct run fails nothing',
    fc.tuple(fieldPath(SERVICE, WRITTEN, SHIPPING), writtenOtherwise).map(([steps, form]) => [...steps, form]),
    async (steps) => {
      const transformed = applyAll(capture, steps);
      // A sample of what a rotation left may keep no line: an empty capture is bad input (exit 2), not a run to judge.
      fc.pre(transformed.lines.length > 0);
      const report = await judgedCapture(transformed);
      expect(failures(report), names(steps)).toEqual({});
    },
    run,
    names,
  );
  await holds(
    'exactly transformed, a run keeps every verdict',
    fc.tuple(transformations(EXACT), writtenOtherwise).map(([steps, form]) => [...steps, form]),
    async (steps) => {
      const report = await judgedCapture(applyAll(capture, steps));
      expect(serviceVerdicts(report), names(steps)).toEqual(before);
    },
    run,
    names,
  );
}

/** Each fault planted in a transformed run fails its own rule (and none but the ones it cannot help breaking). */
/**
 * Plants each fault the capture has a place for (a fault of answers one after the other needs answers more than the
 * clock skew apart) and returns their names, so a caller can require every fault tried on some capture.
 */
export async function faultsAreCaught(capture: Capture, run: PropertyRun, expectedUncaught: ReadonlyMap<string, string> = new Map()): Promise<string[]> {
  for (const fault of FAULTS.filter((candidate) => expectedUncaught.has(candidate.rule))) {
    const planted = fault.plant(capture, 0);
    if (planted === undefined) continue;
    expect(Object.keys(failures(await judgedCapture(planted))), `${fault.name} is caught now: take ${fault.rule} off TRAFFIC_CANNOT_SHOW`).not.toContain(fault.rule);
  }
  const placeable: PlantedFault[] = [];
  for (const fault of FAULTS.filter((candidate) => !expectedUncaught.has(candidate.rule))) {
    const planted = fault.plant(capture, 0);
    if (planted === undefined) continue;
    placeable.push(fault);
    expect(Object.keys(failures(await judgedCapture(planted))), fault.name).toContain(fault.rule);
  }
  const arbitrary = fc.record({ fault: fc.constantFrom(...placeable), service: transformations(SERVICE), shipping: fc.tuple(transformations(EXACT), writtenOtherwise).map(([steps, form]) => [...steps, form]), pick: fc.nat() });
  await holds(
    'a fault planted in a transformed run fails its rule',
    arbitrary,
    async ({ fault, service, shipping, pick }) => {
      const planted = fault.plant(applyAll(capture, service), pick);
      fc.pre(planted !== undefined);
      const failed = failures(await judgedCapture(applyAll(planted!, shipping)));
      const what = `${fault.name}, after: ${names(service)}, then: ${names(shipping)}`;
      expect(Object.keys(failed), what).toContain(fault.rule);
      const allowed = new Set([fault.rule, ...fault.alsoBreaks]);
      expect(Object.keys(failed).filter((rule) => !allowed.has(rule)), `${what}: ${JSON.stringify(failed)}`).toEqual([]);
    },
    run,
    ({ fault, service, shipping, pick }) => `${fault.name} (pick ${pick}), after: ${names(service)}, then: ${names(shipping)}`,
  );
  return placeable.map((fault) => fault.name);
}
