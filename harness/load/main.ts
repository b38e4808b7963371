/**
 * `petstore-conformance load`: drives traffic at a target, judges each plan's quota from the target's headers, writes
 * reports/load/summary.json and index.html, prints a one-screen summary. Exit code 0 when every documented
 * quota and rate-limit rule held, 1 when one broke, 2 for bad input or an unreachable target. The traffic
 * comes from the built-in client or from Locust's master and workers (--engine locust); both are judged alike.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { DEMO_KEYS, keysFromEnv } from '../../lib/keys.ts';
import { Redactor } from '../../lib/redact.ts';
import { appendTextSummary } from '../../lib/cli/job-summary.ts';
import { errorLine } from '../../lib/cli/vocabulary.ts';
import { EXIT } from '../../lib/docs/exit-codes.ts';
import { plans } from '../../lib/plans.ts';
import { helpText, parseCli, type CliOptions } from './cli.ts';
import { describeDuration } from './duration.ts';
import { keyCount } from './engine/run-plan.ts';
import { exportReadme, readRunPlan, resultFromFile, runPlanOf, runWithLocust, scenarioFromPlan, writeLocustTest } from './engine/locust-engine.ts';
import { InputError } from './input-error.ts';
import { progressSink } from './progress.ts';
import { reportHtml } from './report-html.ts';
import { runKeysOf } from './run-keys.ts';
import { runLoad, type RunResult } from './runner.ts';
import type { Scenario } from './scenario.ts';
import { summarise } from './summary.ts';
import { resolveTarget, targetSettingsFromEnv, type ResolvedTarget } from './target.ts';
import type { JudgedTarget } from './summary.ts';
import { textSummary } from './text-summary.ts';
import { shortWindowsNotice } from './verdicts/short-windows.ts';

async function main(argv: readonly string[]): Promise<number> {
  const options = parseCli(argv);
  // The summary's evidence reads its label where a nightly job's environment sets it.
  if (options.label !== undefined) process.env.PETSTORE_RUN_LABEL = options.label;
  // Every part of a run reads the keys where the environment holds them; the file's go there first.
  Object.assign(process.env, options.keys);
  const env: NodeJS.ProcessEnv = options.baseUrl === undefined ? process.env : { ...process.env, PETSTORE_BASE_URL: options.baseUrl };
  if (options.help) {
    process.stdout.write(`${helpText()}\n`);
    return 0;
  }
  if (options.verdictsFrom !== undefined) return judgeEngineResult(options, options.verdictsFrom);
  if (options.exportDir !== undefined) return exportEngineTest(options, options.exportDir, env);
  const { scenario } = options;
  let target: ResolvedTarget | undefined;
  try {
    target = await resolveTarget({ scenario, timeScale: options.timeScale, env, ...(options.baseUrl === undefined ? {} : { baseUrlSource: '--base-url' }) });
    const redactor = new Redactor(target.keys);
    const say = (line: string): void => void process.stdout.write(`${redactor.text(line)}\n`);
    const scale = target.timeScale;
    const keys = runKeysOf(scenario, (spec) => target?.keys[spec.plan][spec.keyNumber - 1] ?? '', scale);

    say(`Target: ${target.description}`);
    if (!target.bundled && scenario.timeScale !== undefined && scenario.timeScale !== scale) {
      say(`Note: ${scenario.source} was written for time scale ${scenario.timeScale}; at ${scale} (${target.timeScaleSource}) its ${describeDuration(scenario.durationMs)} cover ${(scenario.durationMs / (60_000 / scale)).toFixed(1)} of the target's minutes. Pass --duration to run longer.`);
    }
    say(`Scenario: ${scenario.name} (${scenario.source}), ${describeDuration(scenario.durationMs)}, at most ${scenario.concurrency} requests in flight`);
    for (const key of keys) {
      const documented = plans[key.spec.plan].documented;
      const limitPerSecond = documented ? (documented.perMinute * scale) / 60 : undefined;
      const relation = key.perSecond !== undefined && limitPerSecond ? ` = ${(key.perSecond / limitPerSecond).toFixed(2)}x the limit of ${documented?.perMinute}/min` : '';
      say(`  ${key.spec.label}: ${key.perSecond === undefined ? 'as fast as it can' : `${round(key.perSecond)} req/s`}${relation}`);
    }

    const controller = new AbortController();
    const interrupt = (): void => {
      if (controller.signal.aborted) process.exit(EXIT.interrupted);
      process.stderr.write('\nStopping: finishing the requests in flight and writing the report (Ctrl-C again to quit at once)\n');
      controller.abort();
    };
    process.on('SIGINT', interrupt);
    let run: RunResult;
    if (options.engine === 'locust') {
      const plan = runPlanOf(scenario, keys, target.baseUrl, scale, options.seed, options.workers);
      const durationS = scenario.durationMs / 1000;
      run = await runWithLocust({
        plan,
        dir: join(options.outDir, 'locust'),
        workers: options.workers,
        keys: target.keys,
        scenario,
        say,
        beforeTraffic: () => noteShortWindows(scale),
        onTick: (elapsedS) => void process.stderr.write(`\r  Locust: ${Math.min(elapsedS, durationS).toFixed(0)} of ${durationS.toFixed(0)} s${elapsedS > durationS ? ', collecting the workers\' counts' : ''}   `),
        signal: controller.signal,
      }).finally(() => {
        process.stderr.write('\n');
        process.off('SIGINT', interrupt);
      });
    } else {
      noteShortWindows(scale);
      const progress = progressSink(process.stderr, scenario.durationMs, (text) => redactor.text(text));
      run = await runLoad({
        baseUrl: target.baseUrl,
        keys,
        durationMs: scenario.durationMs,
        concurrency: scenario.concurrency,
        seed: options.seed,
        onProgress: (snapshot) => progress.update(snapshot),
        progressIntervalMs: progress.intervalMs,
        signal: controller.signal,
      }).finally(() => {
        progress.done();
        process.off('SIGINT', interrupt);
      });
    }
    return writeReports(options, scenario, target, run, redactor, say);
  } finally {
    await target?.stop();
  }
}

function writeReports(options: CliOptions, scenario: Scenario, target: JudgedTarget, run: RunResult, redactor: Redactor, say: (line: string) => void): number {
  const summary = summarise(scenario, target, run);
  mkdirSync(options.outDir, { recursive: true });
  const jsonPath = join(options.outDir, 'summary.json');
  const htmlPath = join(options.outDir, 'index.html');
  writeFileSync(jsonPath, redactor.text(`${JSON.stringify(summary, null, 2)}\n`));
  writeFileSync(htmlPath, redactor.text(reportHtml(summary)));
  const text = textSummary(summary, relative(process.cwd(), htmlPath) || htmlPath);
  say(text);
  if (options.summaryFile !== undefined) appendTextSummary(options.summaryFile, redactor.text(`Pet Store quota load: ${target.baseUrl}`), redactor.text(text));
  return summary.status === 'fail' ? 1 : 0;
}

/** `--engine locust --export DIR`: the test and its README; no target is started or reached. */
function exportEngineTest(options: CliOptions, dir: string, env: NodeJS.ProcessEnv): number {
  const { scenario } = options;
  const settings = targetSettingsFromEnv(env);
  const baseUrl = settings.baseUrl ?? 'http://127.0.0.1:8080/v1';
  const scale = options.timeScale ?? settings.timeScale ?? 1;
  const plan = runPlanOf(scenario, runKeysOf(scenario, () => '', scale), baseUrl, scale, options.seed, options.workers);
  noteShortWindows(scale);
  writeLocustTest(dir, plan);
  writeFileSync(join(dir, 'README.md'), exportReadme(plan, options.workers));
  process.stdout.write(`Wrote the Locust test of ${scenario.name} (${scenario.source}) for ${options.workers} workers and time scale ${scale} to ${dir}: see ${join(dir, 'README.md')}\n`);
  return 0;
}

/** `--verdicts-from FILE`: an engine's aggregated result, judged as a run of this machine would be. */
function judgeEngineResult(options: CliOptions, file: string): number {
  const plan = readRunPlan(resolve(file));
  const scenario = scenarioFromPlan(plan, file);
  const run = resultFromFile(resolve(file), scenario, plan);
  const redactor = new Redactor(keysFromEnv(process.env, DEMO_KEYS));
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  const target = { baseUrl: plan.baseUrl, bundled: false, timeScale: plan.timeScale, timeScaleSource: 'the exported run plan', description: `${plan.baseUrl}, as Locust's master counted it over all its workers (${file})` };
  say(`Verdicts from ${file}: ${plan.scenario}, ${keyCount(plan)} key${keyCount(plan) === 1 ? '' : 's'}`);
  return writeReports(options, scenario, target, run, redactor, say);
}

/**
 * Before traffic starts, once every input was found good (a bad one is one line alone), on stderr: at a time scale of
 * windows too short to judge some checks whole, which and why.
 */
function noteShortWindows(timeScale: number): void {
  const notice = shortWindowsNotice(timeScale);
  if (notice !== undefined) process.stderr.write(`${notice}\n`);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof InputError) {
      process.stderr.write(`${errorLine('load', error.message)}\n`);
      process.exit(EXIT.badInput);
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${errorLine('load', `the run failed: ${message}`)}\n`);
    process.exit(EXIT.fault);
  },
);
