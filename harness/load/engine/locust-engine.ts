/**
 * `load --engine locust`: the scenario as a Locust test (locustfile.py and its run plan), run in Locust's
 * distributed mode on this machine (run-locust.ts) or exported for many machines, and its merged result
 * read back into the run the built-in verdicts judge (observations.ts).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { keyVariable, type KeysByPlan } from '../../../lib/keys.ts';
import { PLAN_IDS, type PlanId } from '../../../lib/plans.ts';
import { InputError } from '../input-error.ts';
import type { RunKey, RunResult } from '../runner.ts';
import type { Scenario } from '../scenario.ts';
import { locustCommandText } from './commands.ts';
import { ensureLocust, LOCUST_REQUIREMENT } from './locust-binary.ts';
import { runFromResult } from './run-from-sums.ts';
import { readEngineResult } from './result.ts';
import { runLocust } from './run-locust.ts';
import { clientPlan, keyCount, LOCUSTFILE, LOCUSTFILE_SOURCE, RESULT_FILE, RUN_PLAN_FILE, type RunPlan, type RunPlanKey } from './run-plan.ts';

export const ENGINES = ['builtin', 'locust'] as const;
export type Engine = (typeof ENGINES)[number];
export const DEFAULT_WORKERS = 2;
/** What one Locust user (one connection, one request at a time) is asked to send at most, per second. */
const PER_USER_PER_SECOND = 50;

export function runPlanOf(scenario: Scenario, keys: readonly RunKey[], baseUrl: string, timeScale: number, seed: number | undefined, workers: number): RunPlan {
  const fastest = Math.max(0, ...keys.map((key) => key.perSecond ?? 0));
  const anyMax = keys.some((key) => key.perSecond === undefined);
  const share = Math.max(1, Math.floor(scenario.concurrency / keys.length));
  // At least one user per worker, so every generator sends with every key: the point of spreading the load.
  const usersPerKey = Math.max(workers, Math.min(share, anyMax ? share : Math.ceil(fastest / PER_USER_PER_SECOND)));
  return {
    scenario: `${scenario.name} (${scenario.source})`,
    baseUrl,
    durationS: scenario.durationMs / 1000,
    usersPerKey,
    timeScale,
    seed: seed ?? null,
    client: clientPlan(),
    keys: groupsOf(keys),
  };
}

/** Consecutive keys of one plan sent alike become one group of the run plan. */
function groupsOf(keys: readonly RunKey[]): RunPlanKey[] {
  const groups: RunPlanKey[] = [];
  keys.forEach(({ spec, perSecond }, index) => {
    const last = groups.at(-1);
    const perSecondOrNull = perSecond ?? null;
    if (
      last && last.plan === spec.plan && last.keyNumber + last.count === spec.keyNumber && last.perSecond === perSecondOrNull &&
      last.behaviour === spec.behaviour && JSON.stringify(last.mix) === JSON.stringify(spec.mix)
    ) {
      last.count++;
      return;
    }
    groups.push({ label: spec.label, plan: spec.plan, keyNumber: spec.keyNumber, count: 1, index, keyVariable: keyVariable(spec.plan), perSecond: perSecondOrNull, behaviour: spec.behaviour, mix: spec.mix });
  });
  return groups;
}

export function writeLocustTest(dir: string, plan: RunPlan): void {
  mkdirSync(dir, { recursive: true });
  copyFileSync(LOCUSTFILE_SOURCE, join(dir, LOCUSTFILE));
  rmSync(join(dir, RESULT_FILE), { force: true });
  writeFileSync(join(dir, RUN_PLAN_FILE), `${JSON.stringify(plan, null, 2)}\n`);
}

export function readRunPlan(resultFile: string): RunPlan {
  const path = join(dirname(resultFile), RUN_PLAN_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError(`cannot read ${path}, which the export wrote beside ${LOCUSTFILE} (${(error as NodeJS.ErrnoException).code ?? String(error)}): keep the result file in the export's folder`);
  }
  const plan = raw as Partial<RunPlan>;
  const valid =
    typeof plan.scenario === 'string' && typeof plan.baseUrl === 'string' && typeof plan.durationS === 'number' && typeof plan.timeScale === 'number' && typeof plan.usersPerKey === 'number' && typeof plan.client === 'object' &&
    Array.isArray(plan.keys) && plan.keys.length > 0 &&
    plan.keys.every((key) => PLAN_IDS.includes(key?.plan as PlanId) && Number.isInteger(key?.keyNumber) && Number.isInteger(key?.count) && key.count > 0 && Number.isInteger(key?.index) && typeof key?.label === 'string');
  if (!valid) throw new InputError(`${path} is not a run plan this version wrote: export the test again`);
  return plan as RunPlan;
}

export interface LocalRun {
  plan: RunPlan;
  dir: string;
  workers: number;
  keys: KeysByPlan;
  scenario: Scenario;
  say: (line: string) => void;
  /** Once Locust is found and its test written, just before traffic starts (any input error comes before). */
  beforeTraffic?: () => void;
  onTick?: (elapsedS: number) => void;
  signal?: AbortSignal;
}

export async function runWithLocust(run: LocalRun): Promise<RunResult> {
  const locust = ensureLocust(run.say);
  // Its master and workers all run here: the plan says so, for --verdicts-from to judge the result alike.
  const plan: RunPlan = { ...run.plan, oneMachine: true };
  writeLocustTest(run.dir, plan);
  run.beforeTraffic?.();
  run.say(`Engine: Locust (${locust}), a master and ${run.workers} workers on this machine, ${plan.usersPerKey} users per key; its test is in ${relative(process.cwd(), run.dir) || run.dir}`);
  const resultFile = await runLocust({ locust, dir: run.dir, plan, workers: run.workers, keys: run.keys, onTick: run.onTick, signal: run.signal });
  const result = resultFromFile(resultFile, run.scenario, plan);
  if (result.lostAnswers) run.say(`Partly checked: ${result.lostAnswers}`);
  return result;
}

export function resultFromFile(resultFile: string, scenario: Scenario, plan: RunPlan): RunResult {
  const result = readEngineResult(resultFile, plan);
  if (result.windows.length + result.loose.length === 0) {
    throw new InputError(`${resultFile} holds no answer of the target: did the generators reach ${plan.baseUrl}, with keys in ${[...new Set(plan.keys.map((key) => key.keyVariable))].join(', ')}?`);
  }
  const run = runFromResult(result, scenario.keys, plan);
  const silent = result.withoutLastReport ?? [];
  if (silent.length === 0) return run;
  const workers = `${silent.length === 1 ? 'worker' : 'workers'} ${silent.join(', ')}`;
  return { ...run, lostAnswers: `the last report of Locust ${workers} never reached the master, so the answers of its last seconds are missing` };
}

export function exportReadme(plan: RunPlan, workers: number): string {
  const variables = [...new Set(plan.keys.map((key) => key.keyVariable))];
  const commands = locustCommandText(plan, workers);
  return `# ${plan.scenario}, as a Locust test

Written by \`petstore-conformance load --engine locust --export\`. No key is in these files: every generator
reads ${variables.map((v) => `\`${v}\``).join(', ')} (comma-separated keys of that plan, in key-number order) from
its environment. Each of the ${keyCount(plan)} key${keyCount(plan) === 1 ? '' : 's'} runs as ${plan.usersPerKey} Locust users
(exported for ${workers} workers: export again with \`--workers N\` for N workers, so every worker sends with every key).

## Run it on many machines

Every machine needs Locust (\`pip install "${LOCUST_REQUIREMENT}"\`, or Debian's \`python3-locust\`) and this folder.
Every worker must reach the master on Locust's port 5557, and the target, ${plan.baseUrl}.

1. On the master, in this folder:

       ${commands.master}

2. On each worker machine (as many as --expect-workers says), in this folder, with the keys in the environment:

       ${commands.worker}

   A worker that lacks a key variable sends nothing with that plan's keys: give each worker every variable above.

The master stops every worker after the run and writes \`${RESULT_FILE}\` here: what every worker counted, per
key and per target window. On Kubernetes, Locust's own Helm chart or operator runs the same master and workers.

## Hand the result back for verdicts

Keep \`${RESULT_FILE}\` in this folder and run

    petstore-conformance load --verdicts-from ${RESULT_FILE}

for the same verdicts, HTML report and exit code as a local run (exit 0: every documented quota held; 1: one broke).
`;
}

/** The scenario a result was made from, as its run plan recorded it, for `--verdicts-from`. */
export function scenarioFromPlan(plan: RunPlan, source: string): Scenario {
  return {
    name: plan.scenario,
    description: '',
    source,
    durationMs: plan.durationS * 1000,
    concurrency: plan.usersPerKey * keyCount(plan),
    timeScale: plan.timeScale,
    keys: plan.keys.flatMap((group) =>
      Array.from({ length: group.count }, (_, offset) => ({
        label: offset === 0 ? group.label : group.label.replace(`#${group.keyNumber} `, `#${group.keyNumber + offset} `),
        plan: group.plan as PlanId,
        keyNumber: group.keyNumber + offset,
        rate: group.perSecond === null ? { kind: 'max' as const } : { kind: 'perSecond' as const, perSecond: group.perSecond },
        behaviour: group.behaviour,
        mix: group.mix,
      })),
    ),
  };
}
