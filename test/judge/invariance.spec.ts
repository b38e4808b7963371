/**
 * The judge's verdicts, and the load harness's, are invariant under what production does to the traffic of a correct
 * service, proved as properties on real captures (test/judge/invariance/: the nginx gateway's log of the how-to, the
 * recording proxy's HAR of a load run, the built-in engine's own record of one, all of the reference server at
 * 15-second windows): no transformation of the field makes a rule
 * fail, the exact ones (repeated lines, re-sent batches, rotated or catenated files) change no verdict, and each
 * fault planted in such a run fails its own rule. A fixed seed here; the field tier runs a fresh one on fresh
 * captures (invariance-field.spec.ts). A failure prints the smallest case fast-check shrank it to, and the
 * PETSTORE_PROPERTY_SEED and _PATH that replay it.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import { readLines, writeLines } from './invariance/capture-lines.ts';
import { FAULTS } from './invariance/faults.ts';
import { correctStaysCorrect, faultsAreCaught, propertyRun, TRAFFIC_CANNOT_SHOW, verdicts } from './invariance/properties.ts';
import { loadFaultsAreCaught, loadVerdictsHold } from './invariance/load-properties.ts';
import { LOAD_CAPTURE, LOAD_RESULT, NGINX_CAPTURE, type RecordedKey } from './invariance/record-captures.ts';
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
