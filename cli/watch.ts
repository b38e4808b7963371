/**
 * `petstore-conformance watch <access.log>`: the judge on a live log (harness/watch/). It judges the log's
 * lines as they come, serves what it found on /metrics (OpenMetrics), and at exit (SIGTERM, Ctrl-C) writes the
 * judged period as the judge's report, whose exit code it returns.
 */
import path from 'node:path';
import { exitCodeHelp } from '../lib/docs/exit-codes.ts';
import { commandFlags, notTakenHelp } from '../lib/cli/vocabulary.ts';
import { clockSkewMs } from '../lib/cli/clock-skew.ts';
import { normaliseBaseUrl } from '../lib/target.ts';
import { SUITE_EXIT_CODES } from '../specs/reporter/exit-code.ts';
import { SyslogSource } from '../harness/watch/syslog-source.ts';
import { Watcher } from '../harness/watch/watcher.ts';
import { parseShard, type Shard } from '../harness/judge/shard.ts';
import { keysFileFlag, parseFlags } from './flags.ts';
import { runFacts } from './judge.ts';
import { asTrafficEvidence, writeJudgeReports } from './judge-reports.ts';
import { UsageError } from './usage-error.ts';
import { serveLive, type LiveServer } from './live-server.ts';

export const WATCH_FLAGS = commandFlags('watch', ['base-url', 'keys-file', 'output', 'summary', 'port', 'host', 'state', 'max-keys', 'syslog', 'clock-skew', 'label', 'shard', 'help']);

const PREFIX = 'petstore-conformance watch:';
const POLL_MS = 250;
const TOOL_FAULT = 4;

export const WATCH_HELP = `usage: petstore-conformance watch <access.log> | --syslog HOST:PORT [--port N] [--host HOST] [--state FILE] [--max-keys N] [--base-url URL] [--keys-file FILE] [--output DIR] [--summary FILE] [--clock-skew S] [--label WORDS] [--shard I/N]

Judges a gateway's access log as it grows (the format of docs/how-to/judge-traffic.md), with the judge's own
rules, following logrotate's create and copytruncate, and serves what it finds on /metrics for Prometheus
(docs/how-to/watch-production.md; alerting rules: fixtures/alerts/petstore-watch.rules.yml). At exit
(SIGTERM, Ctrl-C) it writes the judged period as the judge's report. Its page (/) shows the verdict so far
and charts of the last hours; /conformance.json is the period so far as a report that certify counts as evidence.
  <access.log>       the log to follow; read from its start, or from --state's position
  --syslog HOST:PORT receive the lines over syslog instead (nginx: access_log syslog:server=HOST:PORT), from
                     several gateways merged by time; lines lost on the way are counted, never judged
  --port N           where / (the page) and /metrics are served (default 9464; 0 picks a free one)
  --host HOST        the address it listens on (default 127.0.0.1)
  --state FILE       keeps the position in the log here, so a restart judges every line once (default: none)
  --max-keys N       keys named one by one in the metrics (default 100); later keys are counted as key="other"
  --base-url URL     the service the log's traffic went to, /v1 included: the report's target
  --keys-file FILE   the keys, PETSTORE_API_KEY_<PLAN>=key,key a line, instead of the environment
  --output DIR       where the report goes at exit (default ./reports/watch)
  --summary FILE     also append the verdict, in Markdown, to FILE
  --clock-skew S     how many seconds the log's clock may be off the target's (default 1)
  --label WORDS      what a certificate calls this report (default "watched traffic")
  --shard I/N        judge only the keys whose pseudonym hashes to shard I of N (lines with no key: shard 1),
                     as one of N watchers over the same log; a certificate counts their N reports as one
  -h, --help         this text
Keys: PETSTORE_API_KEY_<PLAN> name each key's plan, as for judge; metrics and reports name keys only by
pseudonyms (free-1, pro-2).
${notTakenHelp('watch')}
${exitCodeHelp([...SUITE_EXIT_CODES, { code: TOOL_FAULT, when: 'tool fault: the metrics port could not be opened, or the log could not be read' }])}`;

interface WatchArgs {
  /** The log followed, or "syslog HOST:PORT". */
  log: string;
  syslog: { host: string; port: number } | undefined;
  port: number;
  host: string;
  state: string | undefined;
  maxKeys: number;
  baseUrl: string | undefined;
  outputDir: string;
  summaryFile: string | undefined;
  clockSkewMs: number;
  label: string;
  keys: Record<string, string>;
  shard: Shard | undefined;
}

export function parseWatchArgs(args: readonly string[], cwd: string): WatchArgs | undefined {
  const { values, positionals } = parseFlags(WATCH_FLAGS, args);
  if (values.help) return undefined;
  const syslog = values.syslog === undefined ? undefined : syslogAddress(values.syslog);
  if (syslog && positionals.length > 0) throw new UsageError(`--syslog receives the lines: no access log to follow as well (got ${positionals.join(' ')})`);
  if (syslog && values.state !== undefined) throw new UsageError('--state keeps a position in a log file; a syslog stream has none: leave --state out with --syslog');
  if (!syslog && positionals.length !== 1) throw new UsageError(`expected one access log to follow (or --syslog HOST:PORT), got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`);
  const whole = (text: string | undefined, flag: string, fallback: number, least: number): number => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < least) throw new UsageError(`${flag} must be a whole number of at least ${least}, not "${text}"`);
    return value;
  };
  let skewMs: number;
  let baseUrl: string | undefined;
  let shard: Shard | undefined;
  try {
    shard = values.shard === undefined ? undefined : parseShard(values.shard);
    skewMs = clockSkewMs(values['clock-skew']);
    baseUrl = values['base-url'] === undefined ? undefined : normaliseBaseUrl(values['base-url'], '--base-url');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return {
    log: syslog ? `syslog ${syslog.host}:${syslog.port}` : path.resolve(cwd, positionals[0] as string),
    syslog,
    port: whole(values.port, '--port', 9464, 0),
    host: values.host ?? '127.0.0.1',
    state: values.state === undefined ? undefined : path.resolve(cwd, values.state),
    maxKeys: whole(values['max-keys'], '--max-keys', 100, 1),
    baseUrl,
    outputDir: path.resolve(cwd, values.output ?? path.join('reports', 'watch')),
    summaryFile: values.summary === undefined ? undefined : path.resolve(cwd, values.summary),
    clockSkewMs: skewMs,
    label: values.label?.trim() || 'watched traffic',
    keys: keysFileFlag('watch', values['keys-file'], process.env),
    shard,
  };
}

function syslogAddress(text: string): { host: string; port: number } {
  const parts = /^(.+):(\d+)$/.exec(text);
  const port = Number(parts?.[2]);
  if (!parts || !(port >= 0 && port <= 65_535)) throw new UsageError(`--syslog must be HOST:PORT (127.0.0.1:5514), not "${text}"`);
  return { host: parts[1] as string, port };
}

export async function watch(args: readonly string[]): Promise<number> {
  let options: WatchArgs | undefined;
  try {
    options = parseWatchArgs(args, process.cwd());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${PREFIX} ${error.message}\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(`${WATCH_HELP}\n`);
    return 0;
  }
  const { baseUrl, label } = options;
  let source: SyslogSource | undefined;
  try {
    source = options.syslog ? await SyslogSource.listen(options.syslog.host, options.syslog.port) : undefined;
  } catch (error) {
    process.stderr.write(`${PREFIX} cannot receive syslog on ${options.log.slice('syslog '.length)}: ${(error as Error).message}\n`);
    return TOOL_FAULT;
  }
  const watcher = new Watcher({ log: options.log, ...(source ? { source } : {}), stateFile: options.state, env: { ...process.env, ...options.keys }, clockSkewMs: options.clockSkewMs, maxKeys: options.maxKeys, warn: (line) => void process.stderr.write(`${line}\n`), ...(options.shard ? { shard: options.shard } : {}) });
  const env = { ...process.env, ...options.keys };
  const run = runFacts();
  let server: LiveServer;
  try {
    server = await serveLive({ live: watcher.live, report: () => asTrafficEvidence(watcher.liveReport(run), baseUrl, label, options.shard, watcher.live.read.period), wording: { title: 'Pet Store conformance, watched live', judgedAs: 'the log grows' }, env }, options.host, options.port);
  } catch (error) {
    process.stderr.write(`${PREFIX} cannot serve metrics on ${options.host}:${options.port}: ${(error as Error).message}\n`);
    return TOOL_FAULT;
  }
  const origin = server.origin;
  const watching = source ? `syslog on ${source.address.host}:${source.address.port}` : options.log;
  process.stdout.write(`watching ${watching}; the verdict so far on ${origin}/ and metrics on ${origin}/metrics\n`);
  const stopped = new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  let failed: Error | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    try {
      watcher.poll();
      // Behind a fast log, the next read starts at once: a pause per bounded read would cap the rate it can keep up with.
      timer = setTimeout(tick, watcher.behind ? 0 : POLL_MS);
    } catch (error) {
      failed = error as Error;
      process.kill(process.pid, 'SIGTERM');
    }
  };
  tick();
  await stopped;
  clearTimeout(timer);
  await server.close();
  if (failed) {
    process.stderr.write(`${PREFIX} cannot read ${options.log}: ${failed.message}\n`);
    return TOOL_FAULT;
  }
  watcher.poll(Date.now(), true);
  const { lines, exchanges } = watcher.counts;
  process.stdout.write(`watched ${lines.toLocaleString('en-US')} lines of ${source ? 'syslog' : path.basename(options.log)}, ${exchanges.toLocaleString('en-US')} exchanges judged\n`);
  const report = watcher.finish(run);
  return writeJudgeReports(asTrafficEvidence(report, baseUrl, label, options.shard, watcher.live.read.period), options, env);
}
