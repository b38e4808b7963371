/**
 * `npm run load`: drives traffic at a target, judges each plan's quota from the target's headers, writes
 * reports/load/summary.json and index.html, prints a one-screen summary. Exit code 0 when every documented
 * quota and rate-limit rule held, 1 when one broke, 2 for bad input or an unreachable target.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Redactor } from '../../lib/redact.ts';
import { plans } from '../../lib/plans.ts';
import { helpText, parseCli } from './cli.ts';
import { describeDuration } from './duration.ts';
import { InputError } from './input-error.ts';
import { progressSink } from './progress.ts';
import { perSecond } from './rate.ts';
import { reportHtml } from './report-html.ts';
import { runLoad, type RunKey } from './runner.ts';
import { summarise } from './summary.ts';
import { resolveTarget, type ResolvedTarget } from './target.ts';
import { textSummary } from './text-summary.ts';

async function main(argv: readonly string[]): Promise<number> {
  const options = parseCli(argv);
  if (options.help) {
    process.stdout.write(`${helpText()}\n`);
    return 0;
  }
  const { scenario } = options;
  let target: ResolvedTarget | undefined;
  try {
    target = await resolveTarget({ scenario, timeScale: options.timeScale });
    const redactor = new Redactor(target.keys);
    const say = (line: string): void => void process.stdout.write(`${redactor.text(line)}\n`);
    const scale = target.timeScale;
    const keys: RunKey[] = scenario.keys.map((spec, index) => ({
      spec,
      key: target?.keys[spec.plan][spec.keyNumber - 1] ?? '',
      perSecond: perSecond(spec.rate, spec.plan, scale, scenario.source === 'command-line flags' ? '--rate' : `${scenario.source}: keys[${index}].rate`),
    }));

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
      if (controller.signal.aborted) process.exit(130);
      process.stderr.write('\nStopping: finishing the requests in flight and writing the report (Ctrl-C again to quit at once)\n');
      controller.abort();
    };
    process.on('SIGINT', interrupt);
    const progress = progressSink(process.stderr, scenario.durationMs, (text) => redactor.text(text));
    const run = await runLoad({
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

    const summary = summarise(scenario, target, run);
    mkdirSync(options.outDir, { recursive: true });
    const jsonPath = join(options.outDir, 'summary.json');
    const htmlPath = join(options.outDir, 'index.html');
    writeFileSync(jsonPath, redactor.text(`${JSON.stringify(summary, null, 2)}\n`));
    writeFileSync(htmlPath, redactor.text(reportHtml(summary)));
    say(textSummary(summary, relative(process.cwd(), htmlPath) || htmlPath));
    return summary.status === 'fail' ? 1 : 0;
  } finally {
    await target?.stop();
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof InputError) {
      process.stderr.write(`load: ${error.message}\n`);
      process.exit(2);
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`load: the run failed: ${message.split('\n')[0]}\n`);
    process.exit(3);
  },
);
