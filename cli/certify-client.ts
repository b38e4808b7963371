/**
 * `petstore-conformance certify-client -- <command ...>`: runs the user's own client against a bundled server
 * that refuses it on purpose (harness/client-rules/), records everything it sends, and judges the spec's client
 * rules, ERR-3 and ERR-4. Reports as the suite's and the judge's: index.html, conformance.json, junit.xml.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clientCertificate } from '../harness/client-rules/client-certificate.ts';
import { BAN_AFTER, BAN_SECONDS, CONSECUTIVE, CONSECUTIVE_STRETCHES, LONG_SECONDS } from '../harness/client-rules/refusal-plan.ts';
import type { RecordedExchange } from '../harness/client-rules/refusing-server.ts';
import { CLIENT_ENV_NAMES, ClientStartError, runClient } from '../harness/client-rules/run-client.ts';
import { exitCodeHelp, type ExitCode } from '../lib/docs/exit-codes.ts';
import { commandFlags, notTakenHelp } from '../lib/cli/vocabulary.ts';
import { parseFlags } from './flags.ts';
import { runFacts } from './judge.ts';
import { writeJudgeReports } from './judge-reports.ts';
import { UsageError } from './usage-error.ts';

/** certify-client's flags (the vocabulary: lib/cli/vocabulary.ts). */
export const CERTIFY_CLIENT_FLAGS = commandFlags('certify-client', ['output', 'summary', 'fail-on', 'timeout', 'seed', 'clock-rate', 'help']);

/** Enough for a client that backs off from 1 s to go through the whole plan at --clock-rate 1. */
const DEFAULT_TIMEOUT_S = 900;
const MAX_CLOCK_RATE = 1_000;

export const CLIENT_EXIT_CODES: readonly ExitCode[] = [
  { code: 0, when: 'the client rules held, or broke only at SHOULD level without --fail-on should (the report warns)' },
  { code: 1, when: 'with --fail-on should: the client broke ERR-3 or ERR-4' },
  { code: 2, when: 'bad input: a malformed flag, no command, a command that cannot be started; one line on stderr' },
  { code: 3, when: 'Not certified: the client sent nothing the rules could be judged on (no request, or no refusal met)' },
];

export const CERTIFY_CLIENT_HELP = `usage: petstore-conformance certify-client [options] -- <command ...>

Runs your client (a script, your SDK's test suite, a CLI) against a bundled Pet Store server that refuses it
on purpose, records every request it sends, and judges the spec's client rules: ERR-3 (wait for Retry-After
after a 429) and ERR-4 (back off exponentially, do not repeat requests while refused). Per key, the server
answers a seeded plan: ordinary traffic, then a 429 with Retry-After in seconds, one with an HTTP-date, one
with Retry-After: 0, ${CONSECUTIVE_STRETCHES} times ${CONSECUTIVE} refusals in a row (the waits must grow), one of ${LONG_SECONDS} s (give up or
wait it out);
${BAN_AFTER} requests sent while refused get the key banned for ${BAN_SECONDS} s. The client gets, in its environment:
  ${CLIENT_ENV_NAMES.baseUrl.join(', ')}   the server's base URL (…/v1)
  ${CLIENT_ENV_NAMES.keys.join(', ')}   a key per plan
  ${CLIENT_ENV_NAMES.oneKey.join(', ')}   the Free key, for a client configured with one key
Options:
  --output DIR       where the reports go (default ./reports/certify-client): index.html, conformance.json,
                     junit.xml, and capture.ndjson (what the client sent, for petstore-conformance judge)
  --fail-on LEVEL    the lowest level of rule whose breach fails the run (exit 1). ERR-3 and ERR-4 are SHOULD
                     rules: with must (the default) a breach of them is a warning and the exit code 0;
                     with should it fails the run
  --timeout S        stop the client after S seconds (default ${DEFAULT_TIMEOUT_S}; same as PETSTORE_RUN_TIMEOUT_SECONDS: a client that backs off from 1 s
                     needs some 8 minutes at --clock-rate 1); it is judged on what it sent until then
  --seed N           the plan's seed (default 1): the same seed gives the same plan
  --clock-rate N     run the server's clock N times faster: N from 1 (the default) to ${MAX_CLOCK_RATE}; 20 is what the client
                     matrix runs at, the plan then takes about 30 s. A Node client's clock runs as fast
                     (Date, timers and performance.now, through an import in NODE_OPTIONS; a TypeScript
                     client keeps it when node itself imports tsx, as the how-to shows), so the plan's
                     waits pass N times sooner.
                     For Node clients only: a request from a process off that clock leaves the client not
                     certified (exit 3); any other client keeps the default
  --summary FILE     also append the verdict in Markdown to FILE (--summary "$GITHUB_STEP_SUMMARY")
  -h, --help         this text
${notTakenHelp('certify-client')}
${exitCodeHelp(CLIENT_EXIT_CODES)}`;

export interface CertifyClientArgs {
  help: boolean;
  command: string[];
  outputDir: string;
  summaryFile: string | undefined;
  failOnShould: boolean;
  timeoutMs: number;
  seed: number;
  clockRate: number;
}

export function parseCertifyClientArgs(args: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>> = {}): CertifyClientArgs {
  const { values, positionals } = parseFlags(CERTIFY_CLIENT_FLAGS, args);
  const failOn = values['fail-on'] ?? 'must';
  if (failOn !== 'should' && failOn !== 'must') throw new UsageError(`certify-client: --fail-on must be should or must, not "${failOn}"`);
  const timeout = numberFlag('--timeout', values.timeout ?? (env.PETSTORE_RUN_TIMEOUT_SECONDS?.trim() || String(DEFAULT_TIMEOUT_S)), 1, 86_400);
  const seed = numberFlag('--seed', values.seed ?? '1', 0, 2 ** 32 - 1);
  const clockRate = numberFlag('--clock-rate', values['clock-rate'] ?? (env.PETSTORE_CLOCK_RATE?.trim() || '1'), 1, MAX_CLOCK_RATE);
  if (values.output !== undefined && values.output.trim() === '') throw new UsageError('certify-client: --output needs a folder, e.g. --output reports/certify-client');
  const base = { outputDir: path.resolve(cwd, values.output ?? path.join('reports', 'certify-client')), summaryFile: values.summary === undefined ? undefined : path.resolve(cwd, values.summary), failOnShould: failOn === 'should', timeoutMs: timeout * 1000, seed: Math.floor(seed), clockRate };
  if (values.help) return { help: true, command: [], ...base };
  if (positionals.length === 0) throw new UsageError('certify-client: expected the command that runs your client after --, e.g. certify-client -- npm test');
  return { help: false, command: positionals, ...base };
}

function numberFlag(flag: string, text: string, least: number, most: number): number {
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) < least || Number(text) > most) throw new UsageError(`certify-client: ${flag} must be a number from ${least} to ${most}, not "${text}"`);
  return Number(text);
}

export async function certifyClient(args: readonly string[]): Promise<number> {
  const options = parseCertifyClientArgs(args, process.cwd(), process.env);
  if (options.help) {
    process.stdout.write(`${CERTIFY_CLIENT_HELP}\n`);
    return 0;
  }
  let run;
  try {
    run = await runClient({ command: options.command, seed: options.seed, clockRate: options.clockRate, timeoutMs: options.timeoutMs, env: process.env, cwd: process.cwd() });
  } catch (error) {
    if (error instanceof ClientStartError) throw new UsageError(`certify-client: ${error.message}`);
    throw error;
  }
  const report = clientCertificate(run, { command: options.command.join(' '), seed: options.seed, failOnShould: options.failOnShould, timeoutMs: options.timeoutMs, facts: runFacts() });
  mkdirSync(options.outputDir, { recursive: true });
  writeFileSync(path.join(options.outputDir, 'capture.ndjson'), run.exchanges.map((exchange) => `${JSON.stringify(exchangeLine(exchange))}\n`).join(''));
  for (const row of report.rules) process.stdout.write(`  ${row.id} ${row.verdict}${row.warnings[0] ? `: ${row.warnings[0].text}` : row.reason ? `: ${row.reason}` : ''}\n`);
  return writeJudgeReports(report, options, process.env);
}

/** A recorded exchange as a line of the exchange format (schemas/exchange.schema.json): the key by its plan's name. */
function exchangeLine(exchange: RecordedExchange): Record<string, unknown> {
  return {
    time: (exchange.answeredAt / 1000).toFixed(3),
    duration: ((exchange.answeredAt - (exchange.sentAt ?? exchange.answeredAt)) / 1000).toFixed(3),
    method: exchange.method,
    url: `/v1${exchange.path}`,
    status: exchange.status,
    key: exchange.key,
    plan: exchange.key,
    responseHeaders: exchange.responseHeaders,
  };
}
