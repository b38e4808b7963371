/**
 * The record command: starts the recording proxy on 127.0.0.1 and records until Ctrl-C (SIGINT) or SIGTERM,
 * then closes the capture so that it is a complete document. Returns the exit code; throws InputError
 * (exit 2) for bad input.
 */
import { EXIT, exitCodeHelp, type ExitCode } from '../../lib/docs/exit-codes.ts';
import { normaliseBaseUrl } from '../../lib/target.ts';
import { CaptureWriter } from '../../lib/capture/write.ts';
import { commandFlags, errorLine, notTakenHelp, POSITIONAL } from '../../lib/cli/vocabulary.ts';
import { clockSkewMs } from '../../lib/cli/clock-skew.ts';
import { assertReachable, InputError, parseOptions, safeUrl, wholeNumberOption, withKeysFile } from '../../lib/cli/command-line.ts';
import { StatusLine } from '../../lib/cli/status-line.ts';
import { knownKeys } from './credentials.ts';
import { enterpriseText, spanText } from '../judge/judge-capture.ts';
import { LiveJudge } from '../judge/live-judge.ts';
import type { JudgeRun } from '../judge/report.ts';
import type { TrafficJudge } from '../judge/traffic-judge.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { startRecordingProxy } from './proxy.ts';
import { RECORDER } from './recorder-info.ts';

export const RECORD_EXIT_CODES: readonly ExitCode[] = [
  { code: EXIT.ok, when: 'stopped by Ctrl-C or SIGTERM, the capture closed and complete (with --judge: Conforming)' },
  { code: EXIT.broken, when: 'with --judge: Not conforming, as the suite gives it' },
  { code: EXIT.badInput, when: 'bad input, said in one line: an option, an unreachable target, a port in use, a file that cannot be written' },
  { code: EXIT.notCertified, when: 'with --judge: Not certified, as the suite gives it' },
  { code: EXIT.fault, when: 'an unexpected failure of the tool, said in one line' },
  { code: EXIT.interrupted, when: 'Ctrl-C twice: stopped without waiting; the capture may be incomplete' },
];

/**
 * Writes the judge's report (HTML, JSON, JUnit) under `outputDir` (and the job summary to `summaryFile`) and returns the exit code its verdict calls
 * for. The CLI supplies it: the HTML report is the suite's, a layer above the harness.
 */
export type JudgeReportWriter = (report: ConformanceReport, places: { outputDir: string; summaryFile: string | undefined }) => number;

/**
 * Serves the live page and /metrics of the judge on 127.0.0.1:`port` while the proxy runs (the page is the
 * suite's, a layer above: the CLI supplies it); `report` is the verdict so far. Rejects as listen() does.
 */
export type LiveServing = (live: LiveJudge, report: () => ConformanceReport, port: number) => Promise<{ origin: string; close(): Promise<void> }>;

/** The facts a judged recording's report carries (the package's version, the commit, the rules' fingerprint). */
export interface JudgeReporting {
  write: JudgeReportWriter;
  serveLive: LiveServing;
  facts: Pick<JudgeRun, 'suiteVersion' | 'rulesHash' | 'gitCommit'>;
}

/** Keys named one by one in the live metrics, as watch's default --max-keys; later ones are counted as key="other". */
const LIVE_MAX_KEYS = 100;

export const RECORD_FLAGS = commandFlags('record', ['base-url', 'keys-file', 'port', 'judge', 'live-port', 'output', 'summary', 'clock-skew', 'help'], { upstream: 'base-url', out: POSITIONAL, 'report-dir': 'output' });

export const RECORD_USAGE = `usage: petstore-conformance record <file.har | file.har.ndjson> [--base-url URL] [--port N] [--judge [--live-port N] [--output DIR] [--summary FILE] [--clock-skew S]]
  <file>           the capture to write: .har (one HAR 1.2 document) or .har.ndjson (one entry per line)
  --base-url URL   the server to record, e.g. http://127.0.0.1:8080/v1 (same as PETSTORE_BASE_URL)
  --port N         where the proxy listens on 127.0.0.1 (default 8081; 0 picks a free port)
  --judge          judge the traffic as it passes, as \`judge\` judges a capture: a live summary, and the
                   conformance report when stopped (exit code: its verdict)
  --live-port N    with --judge, also serve on 127.0.0.1:N what watch serves: the verdict so far (/), the
                   report so far (/conformance.json) and metrics for Prometheus (/metrics, the same series
                   and alerting rules as watch; the first 100 keys by pseudonym, later ones as key="other")
  --output DIR     where --judge writes the report (default ./reports/judge)
  --summary FILE   with --judge, also append the verdict and a table of failing rules, in Markdown, to FILE
  --clock-skew S   with --judge, how many seconds this machine's clock may be off the target's (default 1),
                   as judge's --clock-skew
  --keys-file F    the keys, PETSTORE_API_KEY_<PLAN>=key,key a line, instead of the environment
  -h, --help       this text
Keys are never written: Authorization becomes a placeholder naming the key's plan, e.g. Bearer $PETSTORE_API_KEY_FREE.
${notTakenHelp('record')}
${exitCodeHelp(RECORD_EXIT_CODES)}`;

export async function recordCommand(args: string[], given: NodeJS.ProcessEnv = process.env, reporting?: JudgeReporting): Promise<number> {
  const { values, positionals } = parseOptions(RECORD_FLAGS, args, true);
  if (values.help) {
    process.stdout.write(`${RECORD_USAGE}\n`);
    return 0;
  }
  const env = withKeysFile(values['keys-file'], given);
  const upstreamText = values['base-url'] ?? env.PETSTORE_BASE_URL;
  if (!upstreamText) throw new InputError('--base-url is required (the base URL to record, e.g. http://127.0.0.1:8080/v1), or PETSTORE_BASE_URL');
  if (positionals.length !== 1) throw new InputError(positionals.length === 0 ? 'name the capture to write, e.g. petstore-conformance record session.har' : `expected one capture to write, got ${positionals.join(' ')}`);
  const capture = positionals[0]!;
  let upstream: string;
  try {
    upstream = normaliseBaseUrl(upstreamText, values['base-url'] === undefined ? 'PETSTORE_BASE_URL' : '--base-url');
  } catch (error) {
    throw new InputError((error as Error).message);
  }
  const port = wholeNumberOption(values.port, 'port', 8081, 0, 65_535);
  const livePort = values['live-port'] === undefined ? undefined : wholeNumberOption(values['live-port'], 'live-port', 0, 0, 65_535);
  for (const flag of ['output', 'summary', 'clock-skew', 'live-port'] as const) if (values[flag] !== undefined && !values.judge) throw new InputError(`--${flag} goes with --judge`);
  let skewMs: number;
  try {
    skewMs = clockSkewMs(values['clock-skew']);
  } catch (error) {
    throw new InputError((error as Error).message);
  }
  if (values.judge && !reporting) throw new InputError('--judge needs the reports of the CLI: run petstore-conformance record --judge');
  const judging = values.judge && reporting ? { live: new LiveJudge({ env, clockSkewMs: skewMs, maxKeys: LIVE_MAX_KEYS }), startedAt: new Date(), reporting } : undefined;
  await assertReachable(upstream, 'the upstream');

  let writer: CaptureWriter;
  try {
    writer = await CaptureWriter.open(capture, RECORDER);
  } catch (error) {
    throw new InputError(`cannot write ${capture}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }

  const byClass = new Map<string, number>();
  const status = new StatusLine();
  const counts = (): string =>
    `recorded ${writer.count} exchange${writer.count === 1 ? '' : 's'}` +
    (byClass.size ? ` (${[...byClass].sort().map(([name, n]) => `${name} ${n}`).join(', ')})` : '');

  let proxy;
  try {
    proxy = await startRecordingProxy({
      upstream,
      port,
      writer,
      keys: knownKeys(env),
      onExchange: ({ status: code, entry }) => {
        const name = `${Math.floor(code / 100)}xx`;
        byClass.set(name, (byClass.get(name) ?? 0) + 1);
        if (judging) {
          judging.live.add(writer.count, entry, 'proxy');
          // Judged as it passes, never behind its source; the metrics and charts only matter where they are served.
          if (livePort !== undefined) judging.live.refresh(0);
        }
        status.update(judging ? () => `${counts()}; ${liveSummary(judging.live.judge)}` : counts);
      },
      onWarning: (message) => {
        status.clear();
        process.stderr.write(`${errorLine('record', `warning: ${message}`)}\n`);
      },
    });
  } catch (error) {
    await writer.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new InputError(`port ${port} is in use; pass --port with another port, or --port 0 for a free one`);
    throw error;
  }
  const running = proxy;
  // Before the proxy is announced: a --live-port in use stops the recording before any client is pointed at it.
  const served = judging && livePort !== undefined ? await serveLive(judging, livePort, () => recordedRun(judging, writer, upstream, capture), () => running.close().then(() => writer.close())) : undefined;
  process.stdout.write(`Recording proxy listening on ${proxy.baseUrl} -> ${safeUrl(upstream)}, writing ${capture}\n`);
  process.stdout.write(`Point clients at ${proxy.baseUrl}; stop with Ctrl-C.\n`);
  if (served) process.stdout.write(`The verdict so far on ${served.origin}/ and metrics on ${served.origin}/metrics\n`);

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) {
        process.stderr.write(`${errorLine('record', 'stopping without waiting; the capture may be incomplete')}\n`);
        process.exit(130);
      }
      stopping = true;
      void Promise.all([running.close(), served?.close()])
        .then(() => writer.close())
        .then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  status.clear();
  process.stdout.write(`${counts()} to ${capture}\n`);
  if (!judging) return 0;
  process.stdout.write(`${liveSummary(judging.live.judge)}\n`);
  const report = judging.live.finish(recordedRun(judging, writer, upstream, capture));
  return judging.reporting.write(report, { outputDir: values.output ?? 'reports/judge', summaryFile: values.summary });
}

interface Judging {
  live: LiveJudge;
  startedAt: Date;
  reporting: JudgeReporting;
}

/** What the report of the recorded traffic says of its run, so far or at the end. */
function recordedRun(judging: Judging, writer: CaptureWriter, upstream: string, capture: string): JudgeRun {
  const { judge } = judging.live;
  return {
    ...judging.reporting.facts,
    target: `traffic through the recording proxy to ${safeUrl(upstream)}, ${writer.count.toLocaleString('en-US')} exchanges${spanText(judge.span)}`,
    file: capture,
    startedAt: judging.startedAt,
    durationMs: Date.now() - judging.startedAt.getTime(),
    enterpriseQuota: enterpriseText(judge),
  };
}

/** The live page and metrics beside the proxy; a port in use is bad input, said after the proxy and capture are closed. */
async function serveLive(judging: Judging, port: number, runSoFar: () => JudgeRun, closeRecording: () => Promise<void>): Promise<{ origin: string; close(): Promise<void> }> {
  try {
    return await judging.reporting.serveLive(judging.live, () => judging.live.report(runSoFar()), port);
  } catch (error) {
    await closeRecording();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new InputError(`--live-port ${port} is in use; pass another port, or 0 for a free one`);
    throw error;
  }
}

/** One line of what the judge has seen so far: how much, and which rules have failed. */
function liveSummary(judge: TrafficJudge): string {
  const { exchanges, keys, failing } = judge.progress;
  return `judged ${exchanges.toLocaleString('en-US')} exchange${exchanges === 1 ? '' : 's'} of ${keys} key${keys === 1 ? '' : 's'}: ${failing.length === 0 ? 'no rule failed so far' : `failing ${failing.join(', ')}`}`;
}
