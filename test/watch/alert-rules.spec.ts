/**
 * The alerting rules shipped with the package (fixtures/alerts/petstore-watch.rules.yml) load in Prometheus
 * (`promtool check rules`) and fire, or stay quiet, as their recorded series say (`promtool test rules` on
 * petstore-watch.promtool.yml beside this file): a gateway over quota, a client hammering after 429s, a MUST
 * rule failing on live traffic, a watcher that lags or loses lines, and a correct gateway raising nothing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { toolPath } from '../support/installed-tools.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RULES = 'fixtures/alerts/petstore-watch.rules.yml';
const promtool = toolPath('promtool', 'bash scripts/ensure-prometheus.sh (npm test runs it) or apt-get install prometheus');

function run(args: string[], cwd: string): string {
  const result = spawnSync(promtool as string, args, { cwd, encoding: 'utf8', timeout: 30_000 });
  expect(result.status, `promtool ${args.join(' ')}:\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

test('the shipped alerting rules load in Prometheus', () => {
  expect(run(['check', 'rules', RULES], ROOT)).toContain('SUCCESS: 6 rules found');
});

test('each alert fires on its recorded series and a correct gateway raises none', () => {
  expect(run(['test', 'rules', 'petstore-watch.promtool.yml'], fileURLToPath(new URL('.', import.meta.url)))).toContain('SUCCESS');
});

test('the package ships the rules', () => {
  const files = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[] }).files;
  expect(files.some((entry) => RULES.startsWith(entry))).toBe(true);
});
