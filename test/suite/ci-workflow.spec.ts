/**
 * The example CI workflow stays runnable and honest as the project changes: three jobs certify through the
 * Action, none accepts "Not certified" wholesale, the nightly job's time is sized from the plans' days, and the
 * per-commit and production jobs read the night's reports as evidence. ci-workflow-run.spec.ts runs the jobs.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { keyVariable } from '../../lib/keys.ts';
import { plans, PLAN_IDS } from '../../lib/plans.ts';
import { WORKFLOW_FILE, workflow, type WorkflowStep } from './support/workflow-runner.ts';

const text = readFileSync(WORKFLOW_FILE, 'utf8');
const certifyStep = (job: string): WorkflowStep => {
  const steps = (workflow.jobs[job]?.steps ?? []).filter((step) => step.uses === './');
  expect(steps, `the ${job} job certifies in one step of the Action`).toHaveLength(1);
  return steps[0]!;
};

test('three jobs certify through the Action with one key variable per plan, none accepts "Not certified" wholesale, none installs a browser', () => {
  expect(Object.keys(workflow.jobs).sort()).toEqual(['nightly', 'per-commit', 'production']);
  for (const job of Object.keys(workflow.jobs)) {
    const inputs = certifyStep(job).with ?? {};
    for (const plan of PLAN_IDS) expect(inputs[`${plan}-keys`]).toBe(`\${{ secrets.${keyVariable(plan)} }}`);
    expect(inputs['accept-not-certified'], `${job}: a scope or evidence, not a blanket override`).toBeUndefined();
  }
  expect(text).not.toMatch(/PETSTORE_ACCEPT_NOT_CERTIFIED|accept-not-certified/);
  expect(text, 'API tests need no browser').not.toMatch(/playwright install/);
});

test("the nightly job spends every plan's day with keys of its own, and its budget and time are sized from the plans' days", () => {
  const nightly = workflow.jobs.nightly!;
  const inputs = certifyStep('nightly').with ?? {};
  expect(inputs['quota-tests']).toBe('true');
  expect(nightly.environment, 'its own keys: the day it spends is not the per-commit keys\' day').not.toBe(workflow.jobs['per-commit']?.environment);
  // As the daily-quota test estimates its cost at real time: a minute window per quota of a minute, with its margin.
  const dayEstimates = PLAN_IDS.flatMap((plan) => {
    const documented = plans[plan].documented;
    return documented ? [Math.ceil(documented.perDay / documented.perMinute) * 60 * 1.15 + documented.perDay / 2_000] : [];
  });
  const budget = Number(inputs['quota-budget-seconds']);
  const runTimeout = Number(inputs['run-timeout-seconds']);
  expect(budget, "every plan's day fits in the budget, Business's longest").toBeGreaterThanOrEqual(Math.max(...dayEstimates));
  expect(runTimeout, 'the run outlasts its longest day').toBeGreaterThan(budget);
  expect((nightly['timeout-minutes'] ?? 0) * 60, 'the job outlasts the run, so the run ends with a verdict, not a kill').toBeGreaterThan(runTimeout);
});

test('the per-commit job runs no day and counts the last nightly reports; production is read-only, judges its traffic and counts staging through VER-2', () => {
  const commit = certifyStep('per-commit').with ?? {};
  expect(commit['quota-tests']).toBeUndefined();
  expect(commit.evidence, 'the folder only when the night left a report in it: an empty one is refused').toBe('${{ steps.last-nightly-reports.outputs.folder }}');
  expect((workflow.jobs['per-commit']?.steps ?? []).find((step) => step.id === 'last-nightly-reports')?.run).toMatch(/gh run download .*--dir evidence --pattern 'conformance-\*'/);

  const production = certifyStep('production').with ?? {};
  expect(workflow.jobs.production?.needs).toBe('nightly');
  expect(production['read-only']).toBe('true');
  expect(production.traffic).toBe('gateway.ndjson');
  expect(production['staging-url']).toBe('${{ vars.PETSTORE_STAGING_BASE_URL }}');
  const downloaded = (workflow.jobs.production?.steps ?? []).find((step) => step.uses?.startsWith('actions/download-artifact@'));
  expect(downloaded?.with).toEqual({ name: certifyStep('nightly').with?.['artifact-name'], path: production.evidence });
});
