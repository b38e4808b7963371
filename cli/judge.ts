/**
 * `petstore-conformance judge <capture>`: the conformance report of a
 * capture's traffic, without sending a request. See harness/judge/ for what is judged and how.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CaptureInputError } from '../lib/capture/read.ts';
import { judgeCapture } from '../harness/judge/judge-capture.ts';
import { judgeFormat } from '../harness/judge/judge-format.ts';
import { exitCodeHelp } from '../lib/docs/exit-codes.ts';
import { PACKAGE_ROOT } from '../lib/processes/child.ts';
import { rulesHash } from '../lib/rules.ts';
import { SUITE_EXIT_CODES } from '../specs/reporter/exit-code.ts';
import { keysFileFlag, parseFlags } from './flags.ts';
import { asTrafficEvidence, writeJudgeReports } from './judge-reports.ts';
import { UsageError } from './usage-error.ts';
import { notTakenHelp } from '../lib/cli/vocabulary.ts';
import { JUDGE_FLAGS } from './judge-flags.ts';
import { clockSkewMs } from '../lib/cli/clock-skew.ts';
import { normaliseBaseUrl } from '../lib/target.ts';
import { parseShard, type Shard } from '../harness/judge/shard.ts';


export const JUDGE_HELP = `usage: petstore-conformance judge <capture> [--base-url URL] [--output DIR] [--summary FILE] [--format har|ndjson] [--clock-skew S] [--label WORDS] [--shard I/N]

Judges recorded traffic against the rules one exchange, and each key's windows, can show, without sending
a request, and writes the conformance report the suite writes. A rule the traffic cannot show (no 429 in
it, a key's traffic only partly captured) is reported as not judged or partly checked, never as passed.
  <capture>          a HAR 1.2 file (the recorder's, a browser's, any HAR tool's), or one exchange per line:
                     .ndjson, .jsonl or .log, each line a HAR entry or the exchange format
                     (schemas/exchange.schema.json; a gateway's access log, docs/how-to/judge-traffic.md)
  --base-url URL     the service the traffic went to, /v1 included: the report's target (default: the
                     capture's name), so its evidence counts in a certificate of that target (certify's
                     evidence). Only this flag sets it: PETSTORE_BASE_URL is not read, since a job
                     that certifies staging often judges production's log
  --keys-file F      the keys, PETSTORE_API_KEY_<PLAN>=key,key a line, instead of the environment
  --format F         har or ndjson, when the file's name does not say
  --output DIR       where the reports go (default ./reports/judge): index.html, conformance.json, junit.xml
  --summary FILE     also append the verdict and a table of failing rules, in Markdown, to FILE
                     (in a GitHub Actions job: --summary "$GITHUB_STEP_SUMMARY")
  --clock-skew S     how many seconds the capture's clock may be off the target's (default 1); answers this
                     close to the Reset they name are not compared within their window
  --label WORDS      what a certificate calls this report ("production traffic"; same as PETSTORE_RUN_LABEL;
                     default "judged traffic")
  --shard I/N        judge only the keys whose pseudonym hashes to shard I of N (exchanges with no key: shard
                     1), as one of N processes over the same capture; a certificate counts the N reports as one
  -h, --help         this text
Keys: PETSTORE_API_KEY_FREE, _PRO, _BUSINESS, _ENTERPRISE name each key's plan (comma-separated per plan);
the report names keys only by pseudonyms (free-1, pro-2, unknown-1). An agreed Enterprise quota:
PETSTORE_ENTERPRISE_PER_MINUTE and PETSTORE_ENTERPRISE_PER_DAY.
${notTakenHelp('judge')}
${exitCodeHelp(SUITE_EXIT_CODES)}`;

export interface JudgeArgs {
  help: boolean;
  capture: string;
  format: 'har' | 'ndjson';
  outputDir: string;
  summaryFile: string | undefined;
  clockSkewMs: number;
  /** The service the capture's traffic went to, named by --base-url; undefined: the capture names the target. */
  baseUrl: string | undefined;
  /** The name this report is cited by as evidence. */
  label: string;
  /** The key variables of --keys-file (or PETSTORE_KEYS_FILE), over the environment's. */
  keys: Record<string, string>;
  /** The share of the keys this process judges (--shard); undefined: all. */
  shard?: Shard;
}

export function parseJudgeArgs(args: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>> = {}): JudgeArgs {
  const { values, positionals } = parseFlags(JUDGE_FLAGS, args);
  if (values.help) return { help: true, capture: '', format: 'har', outputDir: cwd, summaryFile: undefined, clockSkewMs: 0, baseUrl: undefined, label: '', keys: {} };
  if (positionals.length !== 1) throw new UsageError(`judge: expected one capture file (a .har, .ndjson or .log), got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`);
  if (values.format !== undefined && values.format !== 'har' && values.format !== 'ndjson') throw new UsageError(`judge: --format must be har or ndjson, not "${values.format}"`);
  let skewMs: number;
  try {
    skewMs = clockSkewMs(values['clock-skew']);
  } catch (error) {
    throw new UsageError(`judge: ${(error as Error).message}`);
  }
  let shard: Shard | undefined;
  try {
    shard = values.shard === undefined ? undefined : parseShard(values.shard);
  } catch (error) {
    throw new UsageError(`judge: ${(error as Error).message}`);
  }
  if (values.output !== undefined && values.output.trim() === '') throw new UsageError('judge: --output needs a folder, e.g. --output reports/judge');
  const capture = path.resolve(cwd, positionals[0] as string);
  const kind = existsSync(capture) ? (statSync(capture).isFile() ? 'file' : 'folder') : 'none';
  if (kind !== 'file') throw new UsageError(`judge: ${positionals[0]}: ${kind === 'none' ? 'no such file' : 'a folder, not a file'}; give a capture: a .har, .ndjson, .jsonl or .log file`);
  return {
    label: values.label?.trim() || env.PETSTORE_RUN_LABEL?.trim() || 'judged traffic',
    keys: keysFileFlag('judge', values['keys-file'], env),
    help: false,
    capture,
    format: (values.format as 'har' | 'ndjson' | undefined) ?? judgeFormat(capture),
    outputDir: path.resolve(cwd, values.output ?? path.join('reports', 'judge')),
    summaryFile: values.summary === undefined ? undefined : path.resolve(cwd, values.summary),
    clockSkewMs: skewMs,
    baseUrl: values['base-url'] === undefined ? undefined : baseUrlFlag(values['base-url']),
    ...(shard ? { shard } : {}),
  };
}

export async function judge(args: readonly string[]): Promise<number> {
  const options = parseJudgeArgs(args, process.cwd(), process.env);
  if (options.help) {
    process.stdout.write(`${JUDGE_HELP}\n`);
    return 0;
  }
  try {
    const env = { ...process.env, ...options.keys };
    const { report, period } = await judgeCapture(options.capture, { env, clockSkewMs: options.clockSkewMs, format: options.format, ...(options.shard ? { shard: options.shard } : {}), run: runFacts() });
    return writeJudgeReports(asTrafficEvidence(report, options.baseUrl, options.label, options.shard, period), options, env);
  } catch (error) {
    if (error instanceof CaptureInputError) throw new UsageError(`judge: ${error.message}`);
    if (error instanceof Error && /PETSTORE_/.test(error.message)) throw new UsageError(`judge: ${error.message}`);
    throw error;
  }
}

function baseUrlFlag(text: string): string {
  try {
    return normaliseBaseUrl(text, '--base-url');
  } catch (error) {
    throw new UsageError(`judge: ${(error as Error).message}`);
  }
}

/** The facts every report carries: the package's version, the commit, the rules' fingerprint. */
export function runFacts(): { suiteVersion: string; rulesHash: string; gitCommit: string } {
  let gitCommit = 'unknown';
  try {
    gitCommit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Installed from the registry: no repository to ask.
  }
  return { suiteVersion: (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version, rulesHash: rulesHash(), gitCommit };
}
