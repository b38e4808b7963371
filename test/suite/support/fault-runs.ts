/**
 * Running the suite against a server with several independent faults at once, and judging the outcome per
 * fault: each fault must be caught by a failing test that cites its rule or names it in a failure, and every
 * failing test must fail for a broken rule of this server, never for another.
 */
import { findRule } from '../../../lib/rules.ts';
import { faultById, type Fault } from './faults.ts';
import { failed, ruleTitle, runSuite, type SuiteRunResult, type SuiteTest } from './run-suite.ts';
import type { Quota } from '../../../lib/plans.ts';
import { agreedEnterpriseEnv, startVariant } from './variant-target.ts';

export interface FaultGroup {
  /** Also the run's label. */
  name: string;
  /** Fault ids; their rules must be pairwise distinct. */
  faults: readonly string[];
  /** Title patterns (ruleTitle) of tests that run too and must pass: proof that the failures are specific. */
  controls?: readonly string[];
  quotaTests?: boolean;
  seedPets?: number;
  /** Rate-limit windows are this many times shorter than real ones (default 60: a minute lasts a second). */
  timeScale?: number;
  /** Runs the server's clock this many times faster instead, and tells the suite (PETSTORE_TARGET_CLOCK_*). */
  clockRate?: number;
  workers?: number;
  /** An Enterprise quota agreed with the server and stated to the suite. */
  enterpriseQuota?: Quota;
}

export interface FaultOutcome {
  fault: Fault;
  group: string;
  /** Tests that failed citing or naming the fault's rule. */
  caughtBy: SuiteTest[];
  /**
   * What the run left of the fault's rule partly checked, in its tests' own words: a fault no test caught there
   * was not exercised, which is neither caught nor a pass.
   */
  partlyChecked: string[];
}

export interface GroupOutcome {
  group: FaultGroup;
  run: SuiteRunResult;
  outcomes: FaultOutcome[];
  /** Failing tests whose failures name a rule this server does not break (or no broken rule at all). */
  wrongFailures: Array<{ test: SuiteTest; why: string }>;
  /** Control tests that did not pass. */
  failedControls: SuiteTest[];
}

export async function runFaultGroup(group: FaultGroup): Promise<GroupOutcome> {
  const faults = group.faults.map(faultById);
  const rules = faults.map((fault) => fault.rule);
  if (new Set(rules).size !== rules.length) throw new Error(`fault group ${group.name}: two faults break the same rule; they could not be told apart`);
  for (const rule of rules) if (!findRule(rule)) throw new Error(`fault group ${group.name}: unknown rule ${rule}`);

  const basePaths = [...new Set(faults.flatMap((fault) => (fault.basePath ? [fault.basePath] : [])))];
  if (basePaths.length > 1) throw new Error(`fault group ${group.name}: faults serve under different paths (${basePaths.join(', ')})`);
  const target = await startVariant({
    ...(basePaths[0] ? { basePath: basePaths[0] } : {}),
    transforms: faults.flatMap((fault) => (fault.proxy ? [fault.proxy] : [])),
    wrapLimiter: faults.flatMap((fault) => (fault.limiter ? [fault.limiter] : [])),
    ...(group.seedPets !== undefined ? { seedPets: group.seedPets } : {}),
    ...(group.timeScale !== undefined ? { timeScale: group.timeScale } : {}),
    ...(group.clockRate !== undefined ? { clockRate: group.clockRate } : {}),
    ...(group.enterpriseQuota ? { enterpriseQuota: group.enterpriseQuota } : {}),
  });
  let run: SuiteRunResult;
  try {
    const titles = faults.flatMap((fault) => fault.tests ?? [ruleTitle(fault.rule)]);
    run = await runSuite({
      label: `fault-${group.name}`,
      baseUrl: target.baseUrl,
      titles: [...new Set([...titles, ...(group.controls ?? [])])],
      quotaTests: group.quotaTests ?? false,
      ...(group.workers ? { workers: group.workers } : {}),
      env: { ...target.clockEnv, ...(group.enterpriseQuota ? agreedEnterpriseEnv(group.enterpriseQuota) : {}) },
    });
  } finally {
    await target.close();
  }
  return judgeGroup(group, faults, run);
}

export function judgeGroup(group: FaultGroup, faults: readonly Fault[], run: SuiteRunResult): GroupOutcome {
  const broken = new Set(faults.flatMap((fault) => [fault.rule, ...(fault.alsoBreaks ?? [])]));
  const controls = (group.controls ?? []).map((title) => new RegExp(`^${title}`));
  const outcomes = faults.map((fault) => ({ fault, group: group.name, caughtBy: run.tests.filter((test) => catches(test, fault)), partlyChecked: partlyChecked(run, fault.rule) }));
  const wrongFailures = run.tests.filter(failed).flatMap((test) => {
    const blamed = test.namedRules.length > 0 ? test.namedRules : test.rules.slice(0, 1);
    const stray = blamed.filter((rule) => !broken.has(rule));
    if (blamed.length === 0) return [{ test, why: 'its failure names no rule' }];
    return stray.length > 0 ? [{ test, why: `it fails on ${stray.join(', ')}, which this server does not break: ${firstLine(test)}` }] : [];
  });
  const failedControls = run.tests.filter((test) => controls.some((control) => control.test(test.title)) && test.status !== 'passed');
  return { group, run, outcomes, wrongFailures, failedControls };
}

/**
 * A failing test catches a fault when a failure names the fault's rule, or when the test is about that rule and
 * every failure names only rules the same misbehaviour breaks too (RL-8's test sees a Pro key with the Free
 * limits as a wrong X-RateLimit-Limit, RL-5). A test failing for another fault of the same server does not count.
 */
export function catches(test: SuiteTest, fault: Fault): boolean {
  if (!failed(test)) return false;
  if (test.namedRules.includes(fault.rule)) return true;
  return test.rules[0] === fault.rule && test.namedRules.every((rule) => (fault.alsoBreaks ?? []).includes(rule));
}

/** The run's notes that it left `rule` partly checked (judge.ts, `unchecked`), each once. */
function partlyChecked(run: SuiteRunResult, rule: string): string[] {
  const notes = run.tests.flatMap((test) => test.annotations.filter((note) => note.type === 'unchecked' && note.description?.startsWith(`[${rule}] `)));
  return [...new Set(notes.map((note) => note.description ?? ''))];
}

function firstLine(test: SuiteTest): string {
  return (test.errors[0] ?? '').split('\n').find((line) => line.trim()) ?? '';
}

/** A readable account of a group's run, for an assertion message. */
export function describeOutcome(outcome: GroupOutcome): string {
  const lines = [`fault group "${outcome.group.name}" (${(outcome.run.durationMs / 1000).toFixed(1)} s, exit ${outcome.run.exitCode}):`];
  for (const { fault, caughtBy, partlyChecked } of outcome.outcomes) {
    const verdict =
      caughtBy.length > 0 ? `caught by ${caughtBy.map((test) => `"${test.title}"`).join(', ')}` : partlyChecked.length > 0 ? `NOT EXERCISED, its rule left partly checked: ${partlyChecked.join('; ')}` : 'NOT CAUGHT';
    lines.push(`  ${fault.rule} ${fault.id}: ${verdict}`);
  }
  for (const { test, why } of outcome.wrongFailures) lines.push(`  wrong failure: "${test.title}": ${why}`);
  for (const test of outcome.failedControls) lines.push(`  control test did not pass: "${test.title}" (${test.status})`);
  for (const error of outcome.run.globalErrors) lines.push(`  run error: ${error.split('\n')[0]}`);
  if (outcome.run.tests.length === 0) lines.push(`  no test ran; output:\n${outcome.run.output.slice(-2_000)}`);
  return lines.join('\n');
}
