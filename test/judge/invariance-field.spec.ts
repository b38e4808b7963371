/**
 * The invariance properties (invariance.spec.ts) with a fresh seed, on captures recorded fresh by running the real
 * parts (Debian's nginx with the how-to's configuration in front of the reference server, the recording proxy, the
 * built-in load engine), and with more runs. The seed is printed first: a failure prints the smallest case fast-check
 * shrank it to and the PETSTORE_PROPERTY_SEED and _PATH that replay it (on the committed captures, which the quick
 * tier uses, or on captures recorded again).
 */
import { randomInt } from 'node:crypto';
import { copyFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { readLines } from './invariance/capture-lines.ts';
import { FAULTS } from './invariance/faults.ts';
import { loadFaultsAreCaught, loadVerdictsHold } from './invariance/load-properties.ts';
import { correctStaysCorrect, faultsAreCaught, propertyRun, TRAFFIC_CANNOT_SHOW } from './invariance/properties.ts';
import { LOAD_CAPTURE, NGINX_CAPTURE, recordGatewayLog, recordLoadResult, recordLoadRun } from './invariance/record-captures.ts';
import { suiteWindowFaultsAreCaught, suiteWindowVerdictsHold } from './invariance/suite-window-properties.ts';
import { NGINX_HINT, nginxPath, OPENSSL_HINT, opensslPath } from './nginx.ts';

const RUNS = 100;
const seed = randomInt(2 ** 31 - 1);

test.skip(nginxPath() === undefined, NGINX_HINT);
test.skip(opensslPath() === undefined, OPENSSL_HINT);
test.setTimeout(900_000);

test("with a fresh seed, on the committed captures and on captures recorded now, no transformation of the field makes a verdict of the judge, the load harness or the suite's window analysis fail, and each planted fault fails its own rule", async () => {
  const run = propertyRun(seed, RUNS);
  process.stdout.write(`invariance properties: seed ${run.seed}${run.path ? `, path ${run.path}` : ''} (replay with PETSTORE_PROPERTY_SEED=${run.seed})\n`);
  test.info().annotations.push({ type: 'seed', description: String(run.seed) });
  const [log, har, result] = await Promise.all([recordGatewayLog(), recordLoadRun(), recordLoadResult()]);
  // Kept beside the test's results, so a counterexample found on them can be replayed on them.
  for (const [from, name] of [[log, 'nginx.log'], [har, 'load.har.ndjson']] as const) copyFileSync(from, test.info().outputPath(name));
  writeFileSync(test.info().outputPath('load-run-free.json'), JSON.stringify(result));
  process.stdout.write(`fresh captures kept in ${test.info().outputDir}\n`);
  const tried = new Set<string>();
  for (const path of [NGINX_CAPTURE, LOAD_CAPTURE, log, har]) {
    const capture = readLines(path);
    await correctStaysCorrect(capture, run);
    for (const name of await faultsAreCaught(capture, run, TRAFFIC_CANNOT_SHOW)) tried.add(name);
    await suiteWindowVerdictsHold(capture, run);
    await suiteWindowFaultsAreCaught(capture, run);
  }
  expect([...tried].sort()).toEqual(FAULTS.filter((fault) => !TRAFFIC_CANNOT_SHOW.has(fault.rule)).map((fault) => fault.name).sort());
  await loadVerdictsHold(result, run);
  await loadFaultsAreCaught(result, run);
});
