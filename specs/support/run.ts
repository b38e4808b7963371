/**
 * Facts of one run that the runner decides once and its workers must share: the bundled server's port, the
 * folder where workers lease keys, and the settings the config parsed from the environment. Playwright evaluates playwright.config.ts again in every worker, so
 * the runner hands them down in a variable named after its own process id; a worker finds it under its
 * parent's id. A nested run (the suite started from inside another Playwright run) thus never inherits
 * its parent run's port or leases.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../lib/free-port.ts';
import { anchorAtDayStart } from '../../lib/target-clock.ts';
import { BUNDLED_CLOCK_RATE, type SuiteSettings } from './settings.ts';

export interface SuiteRun {
  /** The port the bundled reference server listens on (chosen even when a target is given; then unused). */
  port: number;
  /** Run-scoped folder for key leases; created on first use. */
  leaseDir: string;
  /**
   * Where the bundled server's fast clock equals the wall clock: the runner and the server agree on it. The clock
   * reads the start of a UTC day as the run starts, so its midnight (6 minutes on) never falls in a daily test of a
   * bundled run, whatever the hour: a midnight there would leave that rule partly checked and the run not certified.
   */
  clockAnchorMs: number;
  /** The seed of the run's generated requests when PETSTORE_GENERATED_SEED does not give one: every worker uses it. */
  generatedSeed: number;
  /** What the environment asks of the run, parsed once by the config in the runner; workers never parse it again. */
  settings?: SuiteSettings;
}

const variable = (pid: number): string => `PETSTORE_SUITE_RUN_${pid}`;

/** In the runner: decides the run's facts (once per process). In a worker: the runner's facts. */
export async function establishRun(): Promise<SuiteRun> {
  const inherited = inheritedRun();
  if (inherited) return inherited;
  const run: SuiteRun = {
    port: await freePort(),
    leaseDir: path.join(tmpdir(), `petstore-suite-${process.pid}-${Date.now().toString(36)}`),
    clockAnchorMs: anchorAtDayStart(BUNDLED_CLOCK_RATE, Date.now()),
    generatedSeed: Math.floor(Math.random() * 2 ** 31),
  };
  process.env[variable(process.pid)] = JSON.stringify(run);
  return run;
}

/** In the runner: hands the settings the config parsed to the workers it will start, with the rest of the run. */
export function shareSettings(run: SuiteRun, settings: SuiteSettings): void {
  run.settings = settings;
  process.env[variable(process.pid)] = JSON.stringify(run);
}

/** The run's settings, as the config parsed them in the runner. */
export function runSettings(): SuiteSettings {
  const { settings } = currentRun();
  if (!settings) throw new Error('the conformance suite runs through playwright.config.ts at the repository root: npm run conformance');
  return settings;
}

/** The run this process belongs to; throws when the suite was not started through its config. */
export function currentRun(): SuiteRun {
  const run = inheritedRun();
  if (!run) throw new Error('the conformance suite runs through playwright.config.ts at the repository root: npm run conformance');
  return run;
}

function inheritedRun(): SuiteRun | undefined {
  const raw = process.env[variable(process.ppid)] ?? process.env[variable(process.pid)];
  return raw ? (JSON.parse(raw) as SuiteRun) : undefined;
}
