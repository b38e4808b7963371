/** `petstore-conformance load [flags]`: the flags, their help, and the scenario they describe. */
import { existsSync } from 'node:fs';
import { KeysFileError, keysFileEnv } from '../../lib/cli/keys-file.ts';
import { dirname, join } from 'node:path';
import { commandFlags, FlagError, FLAGS, notTakenHelp, parseCommandFlags } from '../../lib/cli/vocabulary.ts';
import { EXIT, exitCodeHelp, type ExitCode } from '../../lib/docs/exit-codes.ts';
import { parsePlanId, type PlanId } from '../../lib/plans.ts';
import { parseDuration } from './duration.ts';
import { DEFAULT_WORKERS, ENGINES, type Engine } from './engine/locust-engine.ts';
import { RUN_PLAN_FILE } from './engine/run-plan.ts';
import { InputError } from './input-error.ts';
import { parseRate } from './rate.ts';
import {
  bundledScenarioNames,
  DEFAULT_CONCURRENCY,
  DEFAULT_MIX,
  DEFAULT_SCENARIO,
  loadScenario,
  parseMix,
  type Behaviour,
  type Scenario,
  type ScenarioKey,
} from './scenario.ts';

export interface CliOptions {
  help: boolean;
  scenario: Scenario;
  timeScale: number | undefined;
  outDir: string;
  /** --base-url: the target, in place of PETSTORE_BASE_URL. */
  baseUrl: string | undefined;
  /** --summary: the Markdown file the printed summary is appended to. */
  summaryFile: string | undefined;
  seed: number | undefined;
  engine: Engine;
  /** Locust workers started on this machine (--engine locust), or expected by an export. */
  workers: number;
  /** Write the engine's test here instead of running it. */
  exportDir: string | undefined;
  /** Judge an engine's aggregated result instead of running anything. */
  verdictsFrom: string | undefined;
  /** The key variables of --keys-file (or PETSTORE_KEYS_FILE), read and checked with the other flags. */
  keys: Record<string, string>;
  /** --label: what a certificate calls this run's summary; undefined: PETSTORE_RUN_LABEL, else the default. */
  label: string | undefined;
}

export const DEFAULT_OUT_DIR = 'reports/load';

export const LOAD_FLAGS = commandFlags(
  'load',
  ['base-url', 'keys-file', 'scenario', 'plan', 'rate', 'behaviour', 'duration', 'concurrency', 'mix', 'time-scale', 'output', 'summary', 'label', 'seed', 'engine', 'workers', 'export', 'verdicts-from', 'help'],
  { out: 'output', behavior: 'behaviour' },
);

export const LOAD_EXIT_CODES: readonly ExitCode[] = [
  { code: EXIT.ok, when: 'every documented quota and rate-limit rule held' },
  { code: EXIT.broken, when: 'a documented quota or rate-limit rule was broken' },
  { code: EXIT.badInput, when: 'bad input or an unreachable target, said in one line' },
  { code: EXIT.fault, when: 'the run itself failed (a fault of the tool, said in one line; until 0.2 this was 3)' },
  { code: EXIT.interrupted, when: 'Ctrl-C twice: stopped at once (once: stops early and still writes the report, with the verdict so far)' },
];
const DEFAULT_FLAG_RATE = '1.1x';
const DEFAULT_FLAG_DURATION = '10s';

export function helpText(): string {
  return `usage: petstore-conformance load [--base-url URL] [--scenario NAME | --plan PLAN [--rate RATE] [--behaviour B]] [options]

Drives traffic at a Pet Store target and reports, from the target's own X-RateLimit-* headers, whether each
plan's documented quota held. Keys: PETSTORE_API_KEY_<PLAN>.

      --base-url URL    the target, /v1 included (same as PETSTORE_BASE_URL); without either, a bundled
                        reference server with scaled time (a minute lasts 1 s) and the demo keys
      --keys-file F     the keys, PETSTORE_API_KEY_<PLAN>=key,key a line, instead of the environment
  -s, --scenario NAME   a scenario under fixtures/load/ (${bundledScenarioNames().join(', ')})
                        or a YAML file; default ${DEFAULT_SCENARIO}
  -p, --plan PLAN       free, pro, business or enterprise (comma-separated for several), instead of a scenario
  -r, --rate RATE       per key: requests per second (2), a multiple of the plan's per-minute limit (1.1x),
                        or max (closed loop at the concurrency cap); default ${DEFAULT_FLAG_RATE}
  -b, --behaviour B     compliant (honours Retry-After, backs off), naive (keeps sending after 429) or both
                        (one key each); default compliant
  -d, --duration D      how long to send, in the target's real time: 90s, 3m, 1m30s; default ${DEFAULT_FLAG_DURATION}
  -c, --concurrency N   cap on requests in flight; default ${DEFAULT_CONCURRENCY}
      --mix WEIGHTS     operations by weight, e.g. list=70,create=20,get=10
      --time-scale N    the target's time scale (the bundled server runs at it; with --base-url it only
                        turns 1.1x into requests per second); also PETSTORE_TIME_SCALE
      --output DIR      where summary.json and index.html go; default ${DEFAULT_OUT_DIR}
      --summary FILE    also append the printed summary, in Markdown, to FILE (in a GitHub Actions job:
                        --summary "$GITHUB_STEP_SUMMARY")
      --label WORDS     what a certificate calls this run when its summary.json is evidence ("nightly
                        load"; same as PETSTORE_RUN_LABEL)
      --seed N          fixes the operation mix and backoff jitter
  -e, --engine E        builtin (one process, the default) or locust (Locust's master and workers: the same
                        scenario from several generators, counted over all of them)
      --workers N       Locust workers started on this machine, or expected by --export; default ${DEFAULT_WORKERS}
      --export DIR      with --engine locust: write the Locust test and a README on running it on many
                        machines to DIR, and run nothing
      --verdicts-from F judge a Locust result (the master's petstore-result.json, in its export folder): same
                        verdicts, report and exit code as a run
  -h, --help            this text
${notTakenHelp('load')}

${exitCodeHelp(LOAD_EXIT_CODES)}
Examples:
  petstore-conformance load
  petstore-conformance load --plan free --rate 2 --duration 3m
  petstore-conformance load --plan free,pro --rate 1.5x --behaviour both
  petstore-conformance load --scenario free-whole-day
  petstore-conformance load --engine locust --workers 4
  petstore-conformance load --engine locust --export locust-test`;
}

export function parseCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): CliOptions {
  let values;
  try {
    ({ values } = parseCommandFlags(LOAD_FLAGS, argv));
  } catch (error) {
    if (error instanceof FlagError) throw new InputError(error.message);
    throw error;
  }
  const behaviourFlag = values.behaviour;
  const engine = (values.engine ?? 'builtin') as Engine;
  if (!ENGINES.includes(engine)) throw new InputError(`--engine "${values.engine}" is not one of ${ENGINES.join(', ')}`);
  if (values.export !== undefined && engine !== 'locust') throw new InputError('--export writes an engine\'s test: give --engine locust with it');
  if (values['verdicts-from'] !== undefined && values.export !== undefined) throw new InputError('give either --export (write a test) or --verdicts-from (judge its result), not both');
  // A result without even its run plan beside it is a mistyped path; a plan without a result is said by the engine.
  const verdictsFrom = values['verdicts-from'];
  if (verdictsFrom !== undefined && !existsSync(verdictsFrom) && !existsSync(join(dirname(verdictsFrom), RUN_PLAN_FILE))) throw new InputError(`--verdicts-from ${values['verdicts-from']}: no such file; give ${FLAGS['verdicts-from'].forms}`);
  const base = {
    help: values.help === true,
    outDir: values.output ?? DEFAULT_OUT_DIR,
    baseUrl: values['base-url'],
    summaryFile: values.summary,
    timeScale: optionalPositive(values['time-scale'], '--time-scale'),
    seed: optionalWhole(values.seed, '--seed', 0),
    engine,
    workers: optionalWhole(values.workers, '--workers', 1) ?? DEFAULT_WORKERS,
    exportDir: values.export,
    verdictsFrom: values['verdicts-from'],
    label: values.label?.trim() || undefined,
    keys: keysFileVariables(values['keys-file'], env),
  };
  if (base.help) return { ...base, scenario: loadScenario(DEFAULT_SCENARIO) };

  let scenario: Scenario;
  if (values.plan !== undefined) {
    if (values.scenario !== undefined) throw new InputError('give either --scenario or --plan, not both');
    scenario = scenarioFromFlags(values.plan, values.rate ?? DEFAULT_FLAG_RATE, behaviourFlag ?? 'compliant', values.mix, values.duration ?? DEFAULT_FLAG_DURATION);
  } else {
    for (const [flag, value] of [['--rate', values.rate], ['--behaviour', behaviourFlag], ['--mix', values.mix]] as const) {
      if (value !== undefined) throw new InputError(`${flag} goes with --plan; a scenario file sets it per key`);
    }
    scenario = loadScenario(values.scenario ?? DEFAULT_SCENARIO);
    if (values.duration !== undefined) scenario = { ...scenario, durationMs: parseDuration(values.duration, '--duration') };
  }
  if (values.concurrency !== undefined) scenario = { ...scenario, concurrency: optionalWhole(values.concurrency, '--concurrency', 1) ?? scenario.concurrency };
  return { ...base, scenario };
}

function scenarioFromFlags(planText: string, rateText: string, behaviourText: string, mixText: string | undefined, durationText: string): Scenario {
  const planIds: PlanId[] = planText.split(',').map((text) => {
    try {
      return parsePlanId(text);
    } catch (error) {
      throw new InputError(`--plan: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  const rate = parseRate(rateText, '--rate');
  const behaviours: Behaviour[] = behaviourText === 'both' ? ['compliant', 'naive'] : behaviourText === 'compliant' || behaviourText === 'naive' ? [behaviourText] : [];
  if (behaviours.length === 0) throw new InputError(`--behaviour "${behaviourText}" is not one of compliant, naive, both`);
  const mix = mixText === undefined ? { ...DEFAULT_MIX } : parseMix(mixText, '--mix', (where, problem) => { throw new InputError(`${where}: ${problem}`); });
  const keys: ScenarioKey[] = [...new Set(planIds)].flatMap((plan) =>
    behaviours.map((behaviour, index) => ({ label: `${plan} #${index + 1} ${behaviour}`, plan, keyNumber: index + 1, rate, behaviour, mix })),
  );
  return {
    name: `${[...new Set(planIds)].join(', ')} at ${rateText}`,
    description: '',
    source: 'command-line flags',
    durationMs: parseDuration(durationText, '--duration'),
    concurrency: DEFAULT_CONCURRENCY,
    timeScale: undefined,
    keys,
  };
}

function optionalPositive(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InputError(`${flag} must be a number above 0, got "${text}"`);
  return value;
}

function optionalWhole(text: string | undefined, flag: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) throw new InputError(`${flag} must be a whole number of ${min} or more, got "${text}"`);
  return value;
}

function keysFileVariables(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  try {
    return keysFileEnv(flag, env);
  } catch (error) {
    if (error instanceof KeysFileError) throw new InputError(error.message);
    throw error;
  }
}
