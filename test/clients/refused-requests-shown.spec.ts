/**
 * The how-to's TypeScript client: an SDK generated from fixtures/openapi.yaml (openapi-typescript's types, used
 * through openapi-fetch, matrix/clients/sdks/openapi-fetch.ts) run as the how-to runs it, `--clock-rate 20 --
 * node --import tsx …`. It stays on the fast clock (tsx keeps NODE_OPTIONS), so it is certified, and every request
 * it sent while its key was refused is in the report, the page included, with the reading that judged it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { writeJudgeReports } from '../../cli/judge-reports.ts';
import { clientCertificate } from '../../harness/client-rules/client-certificate.ts';
import { runClient } from '../../harness/client-rules/run-client.ts';
import { tempDir } from '../judge/support.ts';
import { ROOT } from '../replay/support.ts';

const HOW_TO = join(ROOT, 'docs', 'how-to', 'certify-a-client.md');
const READINGS = /\(by (the connection that carried the 429|the client's own clock|the allowance, nothing else told)\)/;

test("ERR-3 ERR-4 the how-to's generated TypeScript SDK on the fast clock: every request it sent while refused is shown with the reading that judged it", async () => {
  test.setTimeout(120_000);
  // The how-to's command, with its my-client.ts being the matrix's openapi-fetch client.
  const howTo = readFileSync(HOW_TO, 'utf8');
  const command = /npx petstore-conformance certify-client --clock-rate (\d+) --fail-on should -- (node --import tsx) my-client\.ts/.exec(howTo);
  expect(command, 'the how-to shows a TypeScript client run on the fast clock').not.toBeNull();
  expect(howTo).toContain('openapi-typescript fixtures/openapi.yaml');
  const clockRate = Number(command?.[1]);
  const run = await runClient({ command: [...(command?.[2] ?? '').split(' '), 'matrix/clients/sdks/openapi-fetch.ts', 'as-generated'], seed: 1, clockRate, timeoutMs: 90_000, env: process.env, cwd: ROOT, stdio: 'ignore' });
  expect(run.clockFollowed, 'the TypeScript client kept the fast clock').not.toBe('not-followed');
  const report = clientCertificate(run, { command: 'openapi-fetch SDK', seed: 1, failOnShould: true, timeoutMs: 90_000, facts: { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' } });
  expect(report.verdict.headline).toMatch(/^Client fails: it breaks ERR-3 and ERR-4/);

  const notes = report.rules.flatMap((row) => row.observations.map((note) => note.text));
  const shown = new Map<number, string>();
  for (const note of notes) {
    const listed = /^ {2}exchange (\d+) \(GET \/pets\?limit=1\) sent \d+\.\d+ s after it, within its wait: (.*)$/.exec(note);
    if (listed) shown.set(Number(listed[1]), listed[2] ?? '');
  }
  // Each request the server refused because its key was still refused (or banned) came within a 429's wait.
  const refusedAgain = run.exchanges.filter((exchange) => exchange.scenario === 'still-refused' || exchange.scenario === 'ban');
  expect(refusedAgain.length, 'a client that calls again at once meets "still refused"').toBeGreaterThan(3);
  for (const exchange of refusedAgain) expect(shown.has(exchange.number), `exchange ${exchange.number} (${exchange.scenario}) shown`).toBe(true);
  // Every request listed names its reading, and the count the rule gives is the count listed, once per rule it concerns.
  for (const reading of shown.values()) expect(reading).toMatch(READINGS);
  const counted = notes.map((note) => /^(\d+) requests? sent within a 429's wait/.exec(note)?.[1]).find((found) => found !== undefined);
  expect(Number(counted)).toBe(shown.size);
  // The TypeScript client's own clock told: none was left to the allowance.
  expect([...shown.values()].some((reading) => reading.includes('the allowance'))).toBe(false);

  // And the page a reviewer opens shows each of them.
  const output = tempDir('refused-shown');
  writeJudgeReports(report, { outputDir: output, summaryFile: undefined }, process.env);
  const page = readFileSync(join(output, 'index.html'), 'utf8');
  for (const number of shown.keys()) expect(page).toMatch(new RegExp(`exchange ${number} \\(GET /pets\\?limit=1\\) sent`));
});
