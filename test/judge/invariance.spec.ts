/**
 * The judge's verdicts, and the load harness's, are invariant under what production does to the traffic of a correct
 * service, proved as properties on real captures (test/judge/invariance/: the nginx gateway's log of the how-to, the
 * recording proxy's HAR of a load run, the built-in engine's own record of one, all of the reference server at
 * 15-second windows): no transformation of the field makes a rule
 * fail, the exact ones (repeated lines, re-sent batches, rotated or catenated files) change no verdict, and each
 * fault planted in such a run fails its own rule. The suite's window analysis runs under them too, on each whole
 * Free window of the captures read as the suite's own measurement (invariance/suite-window-properties.ts). A fixed
 * seed here; the field tier runs a fresh one on fresh captures (invariance-field.spec.ts). A failure prints the smallest case fast-check shrank it to, and the
 * PETSTORE_PROPERTY_SEED and _PATH that replay it.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import { copyLine, readLines, viewOf, writeLines, type Capture } from './invariance/capture-lines.ts';
import { FAULTS } from './invariance/faults.ts';
import { correctStaysCorrect, faultsAreCaught, propertyRun, TRAFFIC_CANNOT_SHOW, verdicts } from './invariance/properties.ts';
import { loadFaultsAreCaught, loadVerdictsHold } from './invariance/load-properties.ts';
import { LOAD_CAPTURE, LOAD_RESULT, NGINX_CAPTURE, type RecordedKey } from './invariance/record-captures.ts';
import { suiteWindowFaultsAreCaught, suiteWindowVerdictsHold } from './invariance/suite-window-properties.ts';
import { failures, judged } from './support.ts';

const SEED = 38;
const RUNS = 25;

for (const [name, path] of [['the nginx gateway log', NGINX_CAPTURE], ['the recorded load run', LOAD_CAPTURE]] as const) {
  test(`${name}: no transformation of the field makes a verdict of the correct service fail, and the exact ones change none`, async () => {
    test.setTimeout(120_000);
    await correctStaysCorrect(readLines(path), propertyRun(SEED, RUNS));
  });
}

test('each fault planted in a transformed run fails its own rule, and every fault the judge is to catch is tried on some capture', async () => {
  test.setTimeout(240_000);
  const tried = new Set<string>();
  for (const path of [NGINX_CAPTURE, LOAD_CAPTURE]) for (const name of await faultsAreCaught(readLines(path), propertyRun(SEED, RUNS), TRAFFIC_CANNOT_SHOW)) tried.add(name);
  expect([...tried].sort()).toEqual(FAULTS.filter((fault) => !TRAFFIC_CANNOT_SHOW.has(fault.rule)).map((fault) => fault.name).sort());
});

test("the load harness's verdicts of a run a fleet answered (slower answers, requests decided in the other order, Reset rounded apart by a node) fail no check, and each fault planted in it fails its own", async () => {
  const recorded = JSON.parse(readFileSync(LOAD_RESULT, 'utf8')) as RecordedKey;
  await loadVerdictsHold(recorded, propertyRun(SEED, 100));
  await loadFaultsAreCaught(recorded, propertyRun(SEED, 100));
});

test('a line written twice and a batch re-sent a minute later are one exchange each, and the report says how many lines were dropped', async () => {
  const capture = readLines(NGINX_CAPTURE);
  const resent = capture.lines.slice(0, 20);
  const doubled = { ...capture, lines: [...capture.lines.flatMap((line, i) => (i % 10 === 3 ? [line, line] : [line])), ...resent] };
  const file = writeLines(doubled);
  const { report, repeatsDropped, exchanges } = await judgeCapture(file, { env: {}, clockSkewMs: 1_000, run: { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' } });
  const lines = capture.lines.length;
  expect(repeatsDropped).toBe(doubled.lines.length - lines);
  expect(exchanges).toBe(lines);
  expect(report.target.url).toContain(`${repeatsDropped} lines that repeated ones already read counted once`);
  expect(verdicts(report)).toEqual(verdicts(await judged(NGINX_CAPTURE)));
  expect(failures(report)).toEqual({});
});

/** The committed gateway log with `edit` made to a copy of its lines. */
function edited(edit: (capture: Capture) => void): Capture {
  const capture = readLines(NGINX_CAPTURE);
  const copy = { kind: capture.kind, lines: capture.lines.map(copyLine) };
  edit(copy);
  return copy;
}

/** The committed gateway log with `edit` made to a copy of its lines, judged. */
async function judgedEdited(edit: (capture: Capture) => void): Promise<Record<string, string>> {
  return failures(await judged(writeLines(edited(edit))));
}

test('a fixed window whose end a second node rounds a second later from some answer on is still a fixed window: a Remaining one more than is left fails RL-6 (the gap fresh seed 1868376020 found in the field tier)', async () => {
  const view = viewOf('nginx');
  const remainingOneMore = FAULTS.find((fault) => fault.rule === 'RL-6')!;
  // From the 18th admission of the last window on (its answers one at a time, 1.2 s apart): Reset steps a second
  // forward once between answers decided one after the other, and never back, as a bucket spending a token would.
  const roundedUp = (capture: Capture): void => {
    const admitted = capture.lines.filter((line) => view.key(line) === 'free-1' && view.status(line) === 200);
    const last = admitted.filter((line) => view.header(line, 'x-ratelimit-reset') === view.header(admitted.at(-1)!, 'x-ratelimit-reset'));
    for (const line of last.slice(17)) view.setHeader(line, 'x-ratelimit-reset', String(Number(view.header(line, 'x-ratelimit-reset')) + 1));
  };
  expect(await judgedEdited(roundedUp), 'rounded apart, the correct service fails nothing').toEqual({});
  const failed = await judgedEdited((capture) => {
    roundedUp(capture);
    capture.lines = remainingOneMore.plant(capture, 0)!.lines;
  });
  expect(Object.keys(failed)).toEqual(['RL-6']);
  expect(failed['RL-6']).toContain('the limiter is fixed-first-use');
});

test('two admissions of one fixed window saying the same Remaining fail RL-6 whatever order they were decided in (a node\'s clock 957 ms behind put them apart)', async () => {
  const view = viewOf('nginx');
  const failed = await judgedEdited((capture) => {
    const [, got, orders] = capture.lines.filter((line) => view.key(line) === 'pro-1');
    view.setAnsweredAt(got!, view.answeredAt(got!) - 957, false);
    view.setHeader(orders!, 'x-ratelimit-remaining', view.header(got!, 'x-ratelimit-remaining'));
  });
  expect(Object.keys(failed)).toEqual(['RL-6']);
  expect(failed['RL-6']).toMatch(/two admissions under one Reset \(\d+\), more than 2.0 s before it, both said X-RateLimit-Remaining 298/);
});

test("a Remaining one more than is left is planted only where the capture shows a fixed window whatever the clocks: where the next window's first request left within the clock skew of the old window's earliest end, a clock that far off leaves the judge no kind to hold Remaining to (CI's fresh seed 2015088623)", async () => {
  const view = viewOf('nginx');
  const remainingOneMore = FAULTS.find((fault) => fault.rule === 'RL-6')!;
  /** The Free key's first admission under its second Reset, its request sent `ms` after the earliest the first window may end. */
  const secondWindowAt = (ms: number) => (capture: Capture): void => {
    const admitted = capture.lines.filter((line) => view.key(line) === 'free-1' && view.status(line) === 200);
    const opening = admitted.find((line) => view.header(line, 'x-ratelimit-reset') !== view.header(admitted[0]!, 'x-ratelimit-reset'))!;
    const earliestEnd = (Number(view.header(admitted[0]!, 'x-ratelimit-reset')) - 1) * 1000;
    view.setAnsweredAt(opening, earliestEnd + ms + view.duration(opening)!, false);
  };
  expect(remainingOneMore.plant(edited(secondWindowAt(1_100)), 0), 'past the skew, the fault has its place').toBeDefined();
  expect(remainingOneMore.plant(edited(secondWindowAt(500)), 0), 'within the skew, none').toBeUndefined();
  // What the judge reads there with a clock 600 ms behind: a Reset moved on with the quota back before the old one could come.
  const report = await judged(writeLines(edited(secondWindowAt(-100))));
  expect(failures(report), 'the correct service fails nothing').toEqual({});
  const kinds = report.rules.find((row) => row.id === 'RL-GAP-2')?.observations.map((note) => note.text).join(' ');
  expect(kinds).toContain('key free-1, Limit 60, as far as this traffic shows: unknown');
});

test('one admission over the quota is planted only on a refusal whose window admitted its whole quota: not on one naming a ban (a key that hammered through its 429s), under which nothing was admitted', () => {
  const view = viewOf('nginx');
  const overQuota = FAULTS.find((fault) => fault.rule === 'PLAN-FREE')!;
  expect(overQuota.plant(edited(() => {}), 0)).toBeDefined();
  const banned = edited((capture) => {
    for (const line of capture.lines.filter((candidate) => view.status(candidate) === 429)) {
      view.setHeader(line, 'x-ratelimit-reset', String(Number(view.header(line, 'x-ratelimit-reset')) + 150));
      view.setHeader(line, 'retry-after', '150');
    }
  });
  expect(overQuota.plant(banned, 0)).toBeUndefined();
});

test("the suite's window analysis of each whole Free window in the captures (a probe, the rest of the quota, the refusal after it): what a fleet does to the answers fails none of its verdicts, and each fault planted in the window fails its own rule", async () => {
  for (const path of [NGINX_CAPTURE, LOAD_CAPTURE]) {
    await suiteWindowVerdictsHold(readLines(path), propertyRun(SEED, RUNS));
    await suiteWindowFaultsAreCaught(readLines(path), propertyRun(SEED, RUNS));
  }
});
