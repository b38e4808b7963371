/**
 * The example CI workflow stays runnable as the project changes: it names projects the suite's config has,
 * the key variables the suite reads, shards and merges, keeps production read-only, and installs no browser.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import { listTests, REPO_ROOT } from '../fixtures/listed-tests.ts';

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  env?: Record<string, string>;
  steps?: Step[];
  needs?: string | string[];
}

const WORKFLOW = path.join(REPO_ROOT, '.github', 'workflows', 'conformance.yml');
const text = readFileSync(WORKFLOW, 'utf8');
const workflow = parse(text) as { jobs: Record<string, Job> };
const runs = (job: string): string => (workflow.jobs[job]?.steps ?? []).map((step) => step.run ?? '').join('\n');

test('the workflow shards the functional tests, runs the rate-limit tests on one machine, and merges the blobs', async () => {
  const projects = new Set((await listTests(['-c', 'playwright.config.ts'])).map((listed) => listed.project));
  expect(runs('functional'), 'a shard never spends a key\'s day').toMatch(/npx playwright test --project=functional --grep-invert @quota --shard=\$\{\{ matrix\.shard \}\}\/\$\{\{ env\.SHARDS \}\} --reporter=blob/);
  expect(runs('rate-limits')).toMatch(/npx playwright test --project=rate-limits --reporter=blob/);
  for (const project of ['functional', 'rate-limits']) expect(projects, `the suite's config has a project "${project}"`).toContain(project);
  expect(workflow.jobs['rate-limits']?.needs, 'rate limits are measured after the functional shards, not beside them').toContain('functional');
  expect(runs('report')).toContain('npx playwright merge-reports --config playwright.config.ts');
  const kept = (workflow.jobs.report?.steps ?? []).filter((step) => step.uses?.startsWith('actions/upload-artifact')).map((step) => step.with?.path);
  expect(kept, 'the reports are kept as an artifact').toContain('reports/');
});

test('the workflow gives the suite its keys from secrets, keeps production read-only, and installs no browser', () => {
  const secrets = [...text.matchAll(/secrets\.([A-Z_]+)/g)].map((match) => match[1]);
  expect(new Set(secrets)).toEqual(new Set(PLAN_IDS.map(keyVariable)));
  for (const job of ['functional', 'rate-limits', 'report']) {
    expect(workflow.jobs[job]?.env?.PETSTORE_READ_ONLY).toBe("${{ matrix.target == 'production' && '1' || '0' }}");
    expect(workflow.jobs[job]?.env?.PETSTORE_BASE_URL).toBe('${{ vars.PETSTORE_BASE_URL }}');
  }
  const commands = Object.keys(workflow.jobs).map(runs).join('\n');
  expect(commands, 'API tests need no browser').not.toMatch(/playwright install/);
});

test('the merge job turns the verdict into its exit code, and only production accepts "Not certified"', () => {
  expect(runs('report')).toContain('npx playwright merge-reports --config playwright.config.ts');
  expect(workflow.jobs.report?.env?.PETSTORE_ACCEPT_NOT_CERTIFIED).toBe("${{ matrix.target == 'production' && '1' || '0' }}");
});
