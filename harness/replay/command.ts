/**
 * The replay command: replays a capture against PETSTORE_BASE_URL (or the bundled reference server), checks
 * every response against the contract and the recording, and writes reports/replay/index.html and
 * summary.json. Returns the exit code; throws InputError (exit 2) for bad input.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { formatNumber } from '../../lib/charts.ts';
import { exitCodeHelp, type ExitCode } from '../../lib/docs/exit-codes.ts';
import { HttpClient } from '../../lib/http/client.ts';
import { Redactor } from '../../lib/redact.ts';
import { basePath } from '../../lib/capture/base.ts';
import { commandFlags, errorLine, notTakenHelp } from '../../lib/cli/vocabulary.ts';
import { appendTextSummary } from '../../lib/cli/job-summary.ts';
import { InputError, parseOptions, safeUrl, wholeNumberOption, withKeysFile } from '../../lib/cli/command-line.ts';
import { CredentialResolver } from './credentials.ts';
import { IdMap } from './id-map.ts';
import { DEFAULT_IGNORE_FILE, IgnoreSet } from './ignore.ts';
import { replayCapture, type ReplayOutcome } from './replayer.ts';
import { replayReportHtml } from './report-html.ts';
import { ReplayResults } from './results.ts';
import { watchLiveHeap } from './memory.ts';
import { StatusLine } from '../../lib/cli/status-line.ts';
import { replaySummary, type ReplayRun } from './summary.ts';
import { surveyCapture } from './survey.ts';
import { startTarget, targetSettings } from './target.ts';
import { ThrottleGates } from './throttle.ts';

export const REPLAY_EXIT_CODES: readonly ExitCode[] = [
  { code: 0, when: 'no conformance violation (and, with --strict, no difference from the recording)' },
  { code: 1, when: 'a conformance violation; an exchange that got no answer or stayed refused (429) after the last retry; with --strict, a difference' },
  { code: 2, when: 'bad input, said in one line: an option, the capture, a missing key, an unreachable target' },
  { code: 4, when: 'an unexpected failure of the tool, said in one line' },
  { code: 130, when: 'interrupted (Ctrl-C): the report covers what was replayed' },
];

export const REPLAY_FLAGS = commandFlags('replay', ['base-url', 'keys-file', 'speed', 'concurrency', 'ignore', 'strict', 'output', 'summary', 'help'], { 'report-dir': 'output' });

export const REPLAY_USAGE = `usage: petstore-conformance replay <capture.har | capture.har.ndjson> [--base-url URL] [options]
  --base-url URL    the target, /v1 included (same as PETSTORE_BASE_URL); without either, the bundled
                    reference server is started for the replay alone, with the demo keys
  --speed N         1 = the recorded pacing (default), 10 = ten times faster, 0 = as fast as possible
  --concurrency N   exchanges in flight at once (default 1); causality is kept either way
  --ignore FILE     more to leave out of the comparison (YAML: headers, body pointers, per operation);
                    may be repeated; fixtures/traffic/replay-ignore.yaml always applies
  --strict          fail on differences from the recording too, not only on conformance violations
  --output DIR      where index.html and summary.json go (default reports/replay)
  --summary FILE    also append the printed verdict, in Markdown, to FILE (in a GitHub Actions job:
                    --summary "$GITHUB_STEP_SUMMARY")
  --keys-file F     the keys, PETSTORE_API_KEY_<PLAN>=key,key a line, instead of the environment
  -h, --help        this text
Keys: PETSTORE_API_KEY_<PLAN> (comma-separated per plan) replace the capture's placeholders.
${notTakenHelp('replay')}
${exitCodeHelp(REPLAY_EXIT_CODES)}`;

/** A target that has not answered by then is not going to. */
const REQUEST_TIMEOUT_MS = 30_000;

export async function replayCommand(args: string[], given: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseOptions(REPLAY_FLAGS, args, true);
  if (values.help) {
    process.stdout.write(`${REPLAY_USAGE}\n`);
    return 0;
  }
  const env = withKeysFile(values['keys-file'], given);
  if (positionals.length !== 1) throw new InputError(positionals.length === 0 ? 'name the capture to replay, e.g. petstore-conformance replay fixtures/traffic/sample.har' : `expected one capture, got ${positionals.length}`);
  const capture = positionals[0] as string;
  const speed = speedOption(values.speed);
  const concurrency = wholeNumberOption(values.concurrency, 'concurrency', 1, 1, 256);
  const strict = values.strict === true;
  const reportDir = values.output ?? 'reports/replay';
  const ignore = IgnoreSet.load([DEFAULT_IGNORE_FILE, ...(values.ignore ?? [])]);

  const survey = await surveyCapture(capture);
  const settings = targetSettings(values['base-url'] === undefined ? env : { ...env, PETSTORE_BASE_URL: values['base-url'] });
  const credentials = new CredentialResolver(settings.keys);
  const warnings = credentials.prepare(survey.credentials, capture);
  for (const warning of warnings) process.stderr.write(`${errorLine('replay', `warning: ${warning}`)}\n`);

  const target = await startTarget(settings.baseUrl, env);
  const skipped = [...survey.otherHosts.values()].reduce((a, b) => a + b, 0) + survey.unanswered;
  process.stdout.write(
    `Replaying ${formatNumber(survey.exchanges)} exchange(s) of ${capture} (recorded at ${survey.base.url}${skipped ? `; ${skipped} entries skipped` : ''}) against ${safeUrl(target.baseUrl)}${target.bundled ? ' (bundled reference server)' : ''}\n`,
  );

  const heap = watchLiveHeap();
  const startedAt = new Date();
  const started = performance.now();
  const redactor = new Redactor(credentials.knownKeys());
  const results = new ReplayResults(startedAt.getTime(), redactor);
  const client = new HttpClient(new URL(target.baseUrl), { maxConnections: concurrency, timeoutMs: REQUEST_TIMEOUT_MS, batchWrites: true });
  const status = new StatusLine();
  const progress = (): string => {
    const elapsed = (performance.now() - started) / 1000;
    return `replay ${formatNumber(results.exchanges)}/${formatNumber(survey.exchanges)} · ${formatNumber(results.exchanges / Math.max(elapsed, 0.001))}/s · ${results.verdicts.violation} with violations · ${results.withDifferences} different · ${results.throttling.exchanges} throttled`;
  };
  // Ctrl-C stops sending; what was replayed is still reported, and the bundled server is stopped.
  const stop = new AbortController();
  const interrupt = (signal: NodeJS.Signals): void => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort(signal);
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  let outcome: ReplayOutcome;
  try {
    outcome = await replayCapture(
      capture,
      { base: survey.base, target: target.baseUrl, targetPath: basePath(target.baseUrl), client, credentials, ids: new IdMap(), ignore, gates: new ThrottleGates() },
      results,
      { speed, concurrency, onProgress: () => status.update(progress), signal: stop.signal },
    );
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    status.clear();
    client.close();
    await target.stop();
  }

  const run: ReplayRun = {
    capture: relative(process.cwd(), capture) || capture,
    target: safeUrl(target.baseUrl),
    bundled: target.bundled,
    speed,
    concurrency,
    strict,
    startedAt,
    durationMs: performance.now() - started,
    warnings,
    aborted: outcome.aborted,
    peakLiveHeapMb: heap.peakLiveMb(),
  };
  heap.stop();
  const summary = replaySummary(run, survey, results);
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(reportDir, 'index.html'), replayReportHtml(run, summary, results));

  const printed = [
    `${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}: ${summary.exchanges} exchange(s) in ${(summary.durationMs / 1000).toFixed(1)} s (${formatNumber(summary.throughput.exchangesPerSecond)}/s)`,
    `  conformance violations: ${summary.violations.exchanges} exchange(s)${summary.violations.total ? ` (${Object.entries(summary.violations.byRule).map(([rule, n]) => `${rule} ${n}`).join(', ')})` : ''}`,
    `  differences from the recording: ${summary.differences.exchanges} exchange(s)${strict ? '' : ' (reported; --strict fails on them)'}`,
    `  throttled: ${summary.throttled.exchanges} exchange(s) waited out a 429; recorded 429s: ${summary.throttled.recorded429} (${summary.throttled.recorded429NotReproduced} not reproduced)`,
    `  skipped: ${summary.skipped.otherHosts} for other hosts, ${summary.skipped.unanswered} unanswered`,
    ...findingLines(summary),
    `Report: ${join(reportDir, 'index.html')} (and summary.json)`,
  ].join('\n');
  process.stdout.write(`${printed}\n`);
  if (values.summary !== undefined) appendTextSummary(values.summary, `Pet Store replay: ${run.capture} against ${run.target}`, printed);
  if (stop.signal.aborted) {
    process.stderr.write(`${errorLine('replay', `${outcome.aborted ?? 'interrupted'}; the report covers what was replayed`)}\n`);
    return 130;
  }
  if (outcome.aborted) throw new InputError(outcome.aborted);
  return summary.exitCode;
}

/** The first findings, one line each, so a failing CI log names the exchanges without opening the report. */
function findingLines(summary: ReturnType<typeof replaySummary>): string[] {
  return summary.findings
    .filter((finding) => finding.verdict !== 'identical')
    .slice(0, 10)
    .map((finding) => `  #${finding.sequence} (entry ${finding.entry}) ${finding.method} ${finding.path}: ${finding.verdict}: ${finding.first}`);
}

function speedOption(value: string | undefined): number {
  if (value === undefined) return 1;
  const speed = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(speed) || speed < 0 || speed > 1_000_000) throw new InputError(`--speed must be a number from 0 (as fast as possible) upwards, e.g. 1 or 10; got "${value}"`);
  return speed;
}
