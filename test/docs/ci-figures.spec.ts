/**
 * The figures and the recommended CI path, true by test (issue 40): every quota budget and run timeout the
 * README, docs/, action.yml, the example workflow and scripts/ state for a nightly job is the one in
 * lib/docs/ci-figures.ts (action.yml said "about 7200" where the workflow used 7800), the workflow's job outlasts
 * its run's bound, and no script, workflow or code block of the manual waves "Not certified" through with
 * PETSTORE_ACCEPT_NOT_CERTIFIED or the Action's accept-not-certified: the scoped way (--out-of-scope) is the
 * one recommended. Prose may still say the old override exists, for compatibility.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { NIGHTLY_QUOTA_BUDGET_SECONDS, NIGHTLY_RUN_TIMEOUT_SECONDS } from '../../lib/docs/ci-figures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function filesUnder(folder: string, ending: RegExp): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => ending.test(file))
    .map((file) => path.join(folder, file));
}

/**
 * README, the hand-written manual, the Action and its script, the workflows, the scripts, the project's own CI and
 * its npm scripts: where a CI figure is stated, or an override could hide.
 */
const PLACES = [
  'README.md',
  'action.yml',
  'package.json',
  '.ci/run',
  ...filesUnder('action', /\.(sh|ts|mjs)$/),
  ...filesUnder('docs', /\.md$/).filter((file) => !file.startsWith(path.join('docs', 'reference'))),
  ...filesUnder('.github/workflows', /\.ya?ml$/),
  ...filesUnder('scripts', /\.(sh|ts)$/),
];

/** Each number a place states after a figure's name, with where. */
function stated(name: RegExp): Array<{ where: string; value: number }> {
  return PLACES.flatMap((file) =>
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => [...line.matchAll(name)].map((match) => ({ where: `${file}:${index + 1}`, value: Number(match[1]!.replace(/,/g, '')) }))),
  );
}

test('every nightly quota budget and run timeout stated anywhere is the one of lib/docs/ci-figures.ts', () => {
  const budgets = stated(/quota-budget-seconds[`'":\s]*(?:<!-- generated:[a-z-]+ -->)?'?(\d[\d,]{2,})/g);
  const timeouts = stated(/run-timeout-seconds[`'":\s]*(?:<!-- generated:[a-z-]+ -->)?'?(\d[\d,]{2,})/g);
  const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { description: string }> };
  const actionSays = /needs about (\d[\d,]*)/.exec(action.inputs['quota-budget-seconds']!.description)?.[1];
  expect(budgets.length, 'the workflow and the CI how-to state the budget').toBeGreaterThanOrEqual(3);
  expect(budgets.filter(({ value }) => value !== NIGHTLY_QUOTA_BUDGET_SECONDS)).toEqual([]);
  expect(timeouts.filter(({ value }) => value !== NIGHTLY_RUN_TIMEOUT_SECONDS)).toEqual([]);
  expect(Number(actionSays), "action.yml's description of quota-budget-seconds").toBe(NIGHTLY_QUOTA_BUDGET_SECONDS);
});

test("the example workflow's nightly job outlasts its run's bound, and the bound its budget", () => {
  const workflow = parse(readFileSync(path.join(ROOT, '.github/workflows/conformance.yml'), 'utf8')) as {
    jobs: Record<string, { 'timeout-minutes'?: number; steps: Array<{ uses?: string; with?: Record<string, string> }> }>;
  };
  const nightly = workflow.jobs.nightly!;
  const step = nightly.steps.find((candidate) => candidate.uses === './')!;
  expect(Number(step.with?.['quota-budget-seconds'])).toBe(NIGHTLY_QUOTA_BUDGET_SECONDS);
  expect(Number(step.with?.['run-timeout-seconds'])).toBe(NIGHTLY_RUN_TIMEOUT_SECONDS);
  expect(NIGHTLY_RUN_TIMEOUT_SECONDS).toBeGreaterThan(NIGHTLY_QUOTA_BUDGET_SECONDS);
  expect(nightly['timeout-minutes']! * 60).toBeGreaterThan(NIGHTLY_RUN_TIMEOUT_SECONDS);
});

test('no script, workflow or code block of the manual waves Not certified through: the scoped way is the one shown', () => {
  const overrides: string[] = [];
  const override = /PETSTORE_ACCEPT_NOT_CERTIFIED\s*[=:]\s*['"]?1|accept-not-certified\s*:\s*['"]?true/;
  for (const file of PLACES) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    // In a Markdown page, only what a reader copies: its code blocks.
    const copied = file.endsWith('.md') ? [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((match) => match[1]!).join('\n') : text;
    for (const line of copied.split('\n')) if (override.test(line)) overrides.push(`${file}: ${line.trim()}`);
  }
  expect(overrides).toEqual([]);
  expect(readFileSync(path.join(ROOT, 'scripts/representative.sh'), 'utf8')).toMatch(/PETSTORE_OUT_OF_SCOPE=/);
});

test("the README gives the bundled run's time as the benchmarks page measured it, with its conditions, not \"well under a minute\"", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  expect(readme).not.toMatch(/well under a minute/);
  for (const fact of ['bundled-run-quiet-seconds', 'bundled-run-busy-seconds', 'bundled-run-busy-load']) expect(readme).toContain(`<!-- generated:${fact} -->`);
  const benchmarks = readFileSync(path.join(ROOT, 'docs/benchmarks.md'), 'utf8');
  for (const fact of ['bundled-run-quiet-seconds', 'bundled-run-busy-seconds']) expect(benchmarks).toContain(`<!-- generated:${fact} -->`);
});
