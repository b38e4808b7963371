/**
 * The quota-load-at-scale how-to shows the commands an export's README gives for the default scenario on ten
 * workers: they must be the lines the engine's own code writes (the same code that starts a local run), so the
 * page cannot drift from what a user who copies it gets.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { locustCommandText } from '../../harness/load/engine/commands.ts';
import { exportReadme, runPlanOf } from '../../harness/load/engine/locust-engine.ts';
import { runKeysOf } from '../../harness/load/run-keys.ts';
import { DEFAULT_SCENARIO, loadScenario } from '../../harness/load/scenario.ts';

const PAGE = fileURLToPath(new URL('../../docs/how-to/quota-load-at-scale.md', import.meta.url));
const WORKERS = 10;
const BASE_URL = 'https://api.example.com/v1';

test("the how-to's master and worker commands are the ones an export of the default scenario writes", () => {
  const scenario = loadScenario(DEFAULT_SCENARIO);
  // As `load --engine locust --export` computes it with PETSTORE_BASE_URL set and no time scale given.
  const plan = runPlanOf(scenario, runKeysOf(scenario, () => '', 1), BASE_URL, 1, undefined, WORKERS);
  const commands = locustCommandText(plan, WORKERS);
  const page = readFileSync(PAGE, 'utf8');
  expect(page).toContain(`PETSTORE_BASE_URL=${BASE_URL} npx petstore-conformance load --engine locust --scenario ${DEFAULT_SCENARIO} --workers ${WORKERS} --export locust-test`);
  expect(page).toContain(`\n${commands.master}\n`);
  expect(page).toContain(`\n${commands.worker}\n`);
  expect(commands.master).toContain(`-t ${scenario.durationMs / 1000 + 1}s`);
  expect(commands.worker).toContain('PETSTORE_API_KEY_BUSINESS=...');
  const readme = exportReadme(plan, WORKERS);
  expect(readme).toContain(commands.master);
  expect(readme).toContain(commands.worker);
});
