/**
 * The GitHub Action (action.yml) as far as it can be tested without GitHub: its inputs and the certify step's
 * environment agree with the script the step runs, and that script, run as the step runs it, certifies a
 * running server, writes the reports where asked and appends the verdict to the job summary.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { DEMO_KEYS, keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import { createReferenceServer, type RunningServer } from '../../reference-server/server.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8')) as Action;
const script = readFileSync(path.join(REPO_ROOT, 'action', 'certify.sh'), 'utf8');
const SPEC_URL = 'https://github.com/acme/petstore-conformance/blob/v1/fixtures/spec/pet-store-interface.md';

function runScript(env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const kept = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PETSTORE_|PW_|PLAYWRIGHT_|TEST_|GITHUB_|NODE_OPTIONS$|npm_)/.test(name)));
  return new Promise((resolve) => {
    execFile('bash', [path.join(REPO_ROOT, 'action', 'certify.sh')], { cwd, env: { ...kept, ...env }, timeout: 150_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

test('every input the steps use is declared, and the certify step hands the script every variable it reads', () => {
  expect(action.runs.using).toBe('composite');
  const text = JSON.stringify(action.runs.steps);
  const used = new Set([...text.matchAll(/inputs\.([a-z-]+)/g)].map((match) => match[1]!));
  expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
  expect(action.inputs['base-url']?.required).toBe(true);

  const certify = action.runs.steps.find((step) => step.id === 'certify');
  expect(certify?.run).toBe('bash "$GITHUB_ACTION_PATH/action/certify.sh"');
  const read = new Set([...script.matchAll(/\b((?:INPUT|PETSTORE)_[A-Z_]*[A-Z])\b/g)].map((match) => match[1]!));
  expect([...read].filter((name) => !(name in (certify?.env ?? {})))).toEqual([]);

  const upload = action.runs.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
  expect(upload?.with?.path).toBe('${{ inputs.output }}');
});

test.describe.serial('the action\'s script, run as its step runs it', () => {
  let server: RunningServer;
  let work: string;

  test.beforeAll(async () => {
    server = await createReferenceServer({ timeScale: 60 });
    work = mkdtempSync(path.join(tmpdir(), 'petstore-action-'));
  });

  test.afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('certifies the server, leaves the reports in the output folder and appends verdict and failing rules to the job summary', async () => {
    test.setTimeout(180_000);
    const summary = path.join(work, 'step-summary.md');
    writeFileSync(summary, 'an earlier step wrote this\n');
    const keys = Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), DEMO_KEYS[plan].join(',')]));
    const outcome = await runScript(
      {
        ...keys,
        INPUT_BASE_URL: server.baseUrl,
        INPUT_OUTPUT: 'certification',
        INPUT_PLAYWRIGHT_ARGS: '--grep VER-',
        PETSTORE_ENTERPRISE_PER_MINUTE: '',
        PETSTORE_SPEC_URL: SPEC_URL,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'acme/pet-service',
        GITHUB_RUN_ID: '42',
      },
      work,
    );
    // Only the versioning tests ran: every other MUST rule is unchecked, so the run is not certified.
    expect(outcome.code, outcome.stdout.slice(-2_000) + outcome.stderr.slice(-2_000)).toBe(3);
    const report = JSON.parse(readFileSync(path.join(work, 'certification', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict.state).toBe('incomplete');
    const written = readFileSync(summary, 'utf8');
    expect(written.startsWith('an earlier step wrote this\n')).toBe(true);
    expect(written).toContain(`## Pet Store conformance: ${server.baseUrl}`);
    expect(written).toContain(`**${report.verdict.headline.slice(0, 40)}`);
    expect(written).toContain('| rule | level | verdict | what happened |');
    expect(written).toContain(`| [\`SVC-1\`](${SPEC_URL}#what-the-service-does) | MUST | not-run |`);
    expect(written).toContain(`| [\`GET-1\`](${SPEC_URL}#get-petspetid-operation-name-getpet--deprecated) | MUST | not-run |`);
    expect(written).not.toContain('VER-1');
    expect(written).toContain('(https://github.com/acme/pet-service/actions/runs/42)');
    for (const key of Object.values(DEMO_KEYS).flat()) expect(written).not.toContain(key);
  });

  test('a missing base-url is one line and exit 2, before anything is installed or run', async () => {
    const outcome = await runScript({ INPUT_BASE_URL: '' }, work);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toEqual([expect.stringContaining('the input base-url is required')]);
    expect(existsSync(path.join(work, 'petstore-conformance-reports'))).toBe(false);
  });
});
