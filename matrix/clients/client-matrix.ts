/**
 * The client matrix: popular JavaScript HTTP clients, in their default and their documented retry
 * configurations, and the project's own clients, each certified as certify-client certifies any client
 * (harness/client-rules/), side by side. What a library does is recorded as found in expectations.yaml; a run
 * that finds otherwise says which client and rule changed, and never the other way round: the file is written
 * from a run (--update), never edited to make one pass.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { clientCertificate } from '../../harness/client-rules/client-certificate.ts';
import { CLIENT_RULES, type ClientRule } from '../../harness/judge/client-exchange.ts';
import { refusalWaits } from '../../harness/client-rules/refusal-waits.ts';
import { exchangesByKey } from '../../harness/client-rules/refusing-server.ts';
import { runClient } from '../../harness/client-rules/run-client.ts';
import { HEY_API, OPENAPI_TYPESCRIPT } from './generate-sdks.ts';
import type { RefusalWait, RuleVerdict } from '../../lib/verdicts/model.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const EXPECTATIONS_FILE = path.join(ROOT, 'matrix', 'clients', 'expectations.yaml');
/** The plan's waits pass this many times sooner, in the server and in each (Node) client alike. */
export const MATRIX_CLOCK_RATE = 20;
const TIMEOUT_MS = 120_000;
const SEED = 1;

export interface MatrixClient {
  name: string;
  /** What it is and how it is configured, as the table shows it. */
  description: string;
  /** npm packages whose installed versions the table names; none: Node's own, or this repository's. */
  packages: string[];
  builtIn?: boolean;
  command(scratch: string): string[];
}

const driver = (file: string) => (): string[] => [process.execPath, path.join(ROOT, 'matrix', 'clients', 'drivers', file)];
const tsx = (...args: string[]): string[] => [process.execPath, '--import', 'tsx', ...args];
// The functional specs on one worker: the rate-limit specs spend windows on purpose, and the suite's own reports stay where they are.
const suite = (scratch: string): string[] =>
  [process.execPath, path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', 'playwright.config.ts', 'specs/functional', '--workers', '1', '--reporter', 'dot', '--output', path.join(scratch, 'suite')];
const load = (behaviour: 'compliant' | 'naive') => (scratch: string): string[] =>
  tsx('harness/load/main.ts', '--plan', 'free', '--rate', '2', '--behaviour', behaviour, '--duration', '600s', '--seed', '7', '--out', path.join(scratch, 'load'));

export const MATRIX_CLIENTS: readonly MatrixClient[] = [
  { name: 'fetch', description: "Node's fetch, no retry (the baseline)", packages: [], builtIn: true, command: driver('fetch.mjs') },
  { name: 'got', description: 'got, default retry (limit 2)', packages: ['got'], command: driver('got-default.mjs') },
  { name: 'got retry.limit 10', description: 'got, retry: { limit: 10 }', packages: ['got'], command: driver('got-retry.mjs') },
  { name: 'ky', description: 'ky, default retry (limit 2)', packages: ['ky'], command: driver('ky-default.mjs') },
  { name: 'ky retry.limit 10', description: 'ky, retry: { limit: 10 }', packages: ['ky'], command: driver('ky-retry.mjs') },
  { name: 'axios', description: 'axios, no retry', packages: ['axios'], command: driver('axios-default.mjs') },
  { name: 'axios-retry', description: 'axios with axios-retry: 10 retries, exponentialDelay, isRetryableError', packages: ['axios', 'axios-retry'], command: driver('axios-retry.mjs') },
  { name: 'p-retry + fetch', description: 'p-retry around fetch, 10 retries, a failed response thrown', packages: ['p-retry'], command: driver('p-retry-fetch.mjs') },
  { name: 'p-retry + fetch, calls at once', description: "p-retry around fetch as its README shows it (retries: 5), in a program that calls again at once when it gives up", packages: ['p-retry'], command: driver('p-retry-at-once.mjs') },
  { name: 'axios-retry, calls at once', description: "axios with axios-retry as its README configures it (retries: 3, exponentialDelay), in a program that calls again at once when it gives up", packages: ['axios', 'axios-retry'], command: driver('axios-retry-at-once.mjs') },
  { name: 'openapi-fetch SDK', description: `an SDK generated from fixtures/openapi.yaml by ${OPENAPI_TYPESCRIPT}, used through openapi-fetch as its docs create it (no retry), TypeScript run with node --import tsx, calls at once`, packages: ['openapi-fetch'], command: () => tsx('matrix/clients/sdks/openapi-fetch.ts', 'as-generated') },
  { name: 'openapi-fetch SDK + p-retry', description: "the same SDK with the retry openapi-fetch's maintainers point to: a custom fetch, p-retry (retries: 3) throwing on a 429", packages: ['openapi-fetch', 'p-retry'], command: () => tsx('matrix/clients/sdks/openapi-fetch.ts', 'retry') },
  { name: 'hey-api SDK', description: `an SDK generated from fixtures/openapi.yaml by ${HEY_API} on its Axios client, configured as its docs do it (setConfig: baseURL, auth; no retry), TypeScript run with node --import tsx, calls at once`, packages: ['axios'], command: () => tsx('matrix/clients/sdks/hey-api.ts', 'as-generated') },
  { name: 'hey-api SDK + axios-retry', description: "the same SDK with the retry its docs point to: Axios's own interceptors on client.instance, axios-retry as its README configures it (retries: 3, exponentialDelay)", packages: ['axios', 'axios-retry'], command: () => tsx('matrix/clients/sdks/hey-api.ts', 'retry') },
  { name: 'p-retry for a rate limit, calls at once', description: "p-retry around fetch as its README configures it for a rate limit (a 429 thrown as a RateLimitError that shouldConsumeRetry does not count, retries: 2, maxRetryTime: 60 s), in a program that calls again at once when it gives up", packages: ['p-retry'], command: driver('p-retry-rate-limit.mjs') },
  { name: 'undici RetryAgent', description: "undici's RetryAgent with its defaults (5 retries)", packages: ['undici'], command: driver('undici-retry-agent.mjs') },
  { name: 'undici RetryAgent maxRetries 10', description: "undici's RetryAgent, maxRetries: 10", packages: ['undici'], command: driver('undici-retry-agent-10.mjs') },
  { name: 'suite', description: "this project's conformance suite: its functional specs, one worker", packages: [], command: suite },
  { name: 'load compliant', description: "this project's load client, compliant (harness/load/client-behaviour.ts)", packages: [], command: load('compliant') },
  { name: 'load naive', description: "this project's load client, naive: keeps sending after a 429", packages: [], command: load('naive') },
  { name: 'replay', description: "this project's replay of fixtures/traffic/sample.har, as fast as it may", packages: [], command: (scratch) => tsx('harness/replay/main.ts', 'fixtures/traffic/sample.har', '--speed', '0', '--report-dir', path.join(scratch, 'replay')) },
];

/** A cell of the matrix: the verdict of a rule on a client, or why it was not judged. */
export type Cell = Extract<RuleVerdict, 'pass' | 'warn' | 'partly-checked' | 'skipped' | 'not-run'>;

export interface ClientResult {
  name: string;
  description: string;
  versions: string;
  verdicts: Record<ClientRule, Cell>;
  /** The first warning of each broken rule, as evidence beside the cell. */
  evidence: Partial<Record<ClientRule, string>>;
  requests: number;
  durationMs: number;
  /** What it waited after each 429, on the key it used most (the page's chart). */
  waits: RefusalWait[];
}

export async function runMatrix(clients: readonly MatrixClient[] = MATRIX_CLIENTS, atOnce = 2, onResult: (result: ClientResult) => void = () => undefined): Promise<ClientResult[]> {
  const results: ClientResult[] = new Array(clients.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < clients.length; index = next++) {
      const result = await certifyOne(clients[index] as MatrixClient);
      results[index] = result;
      onResult(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, clients.length) }, worker));
  return results;
}

async function certifyOne(client: MatrixClient): Promise<ClientResult> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'petstore-client-matrix-'));
  const command = client.command(scratch);
  const run = await runClient({ command, seed: SEED, clockRate: MATRIX_CLOCK_RATE, timeoutMs: TIMEOUT_MS, env: process.env, cwd: ROOT, stdio: 'ignore' });
  const report = clientCertificate(run, { command: client.name, seed: SEED, failOnShould: false, timeoutMs: TIMEOUT_MS, facts: { suiteVersion: 'matrix', rulesHash: 'matrix', gitCommit: 'matrix' } });
  const verdicts = {} as Record<ClientRule, Cell>;
  const evidence: Partial<Record<ClientRule, string>> = {};
  for (const rule of CLIENT_RULES) {
    const row = report.rules.find((candidate) => candidate.id === rule);
    verdicts[rule] = (row?.verdict ?? 'not-run') as Cell;
    const warning = row?.warnings[0]?.text;
    if (warning) evidence[rule] = warning.replace(/^\[ERR-\d\] /, '');
  }
  return { name: client.name, description: client.description, versions: versionsOf(client), verdicts, evidence, requests: run.exchanges.length, durationMs: run.durationMs, waits: refusalWaits(exchangesByKey(run.exchanges))[0]?.waits ?? [] };
}

function versionsOf(client: MatrixClient): string {
  if (client.packages.length === 0) return client.builtIn ? "Node's own" : 'this repository';
  return client.packages.map((name) => `${name} ${(JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`).join(', ');
}

export type Expectations = Record<string, Record<ClientRule, Cell>>;

export function readClientExpectations(file = EXPECTATIONS_FILE): Expectations {
  const document = parse(readFileSync(file, 'utf8')) as { clients?: Expectations } | null;
  return document?.clients ?? {};
}

export function writeClientExpectations(results: readonly ClientResult[], file = EXPECTATIONS_FILE): void {
  const header = [
    '# What the client matrix found (npm run matrix:clients), per client and client rule: written from a run with',
    '# --update, never edited by hand to make a run pass. A run that finds otherwise fails and names what changed.',
    '# pass: the rule held through the refusal plan; warn: the client broke it (SHOULD); partly-checked: held',
    '# where the client went, but it stopped before part of the plan.',
  ].join('\n');
  // A run of some rows (--client) records theirs and keeps the others', in the matrix's order.
  const found = new Map([...Object.entries(existsSync(file) ? readClientExpectations(file) : {}), ...results.map((result): [string, Record<ClientRule, Cell>] => [result.name, result.verdicts])]);
  const clients = Object.fromEntries(MATRIX_CLIENTS.flatMap((client) => (found.has(client.name) ? [[client.name, found.get(client.name)]] : [])));
  writeFileSync(file, `${header}\n${stringify({ clients })}`);
}

/** Each difference between a run and the expectations, as a line a reviewer reads. */
export function differences(results: readonly ClientResult[], expected: Expectations): string[] {
  const lines: string[] = [];
  for (const result of results) {
    const want = expected[result.name];
    if (!want) {
      lines.push(`${result.name}: not in ${path.relative(ROOT, EXPECTATIONS_FILE)} (run npm run matrix:clients -- --update)`);
      continue;
    }
    for (const rule of CLIENT_RULES) {
      if (want[rule] !== result.verdicts[rule]) lines.push(`${result.name} ${rule}: expected ${want[rule]}, got ${result.verdicts[rule]}${result.evidence[rule] ? ` (${result.evidence[rule]})` : ''}`);
    }
  }
  return lines;
}

/**
 * Each cell whose verdict was not the same in every run, as a line a reviewer reads ("got ERR-4: warn, pass,
 * warn"): a verdict that flaps is not a finding, and is never recorded.
 */
export function unstableCells(runs: readonly (readonly ClientResult[])[]): string[] {
  const first = runs[0] ?? [];
  const lines: string[] = [];
  for (const [index, result] of first.entries()) {
    for (const rule of CLIENT_RULES) {
      const seen = runs.map((run) => run[index]?.verdicts[rule] ?? 'not-run');
      if (seen.some((verdict) => verdict !== seen[0])) lines.push(`${result.name} ${rule}: ${seen.join(', ')}`);
    }
  }
  return lines;
}

/** The recorded matrix (expectations.yaml) as the docs show it: every client, its configuration and version. */
export function recordedMatrixTable(expected: Expectations = readClientExpectations()): string {
  const unknown = Object.fromEntries(CLIENT_RULES.map((rule) => [rule, 'not-run'])) as Record<ClientRule, 'not-run'>;
  return matrixTable(MATRIX_CLIENTS.map((client) => ({ name: client.name, description: client.description, versions: versionsOf(client), verdicts: expected[client.name] ?? unknown, evidence: {}, requests: 0, durationMs: 0, waits: [] })));
}

/** The matrix as a Markdown table: the docs show it, and the script prints it. */
export function matrixTable(results: readonly ClientResult[]): string {
  const rows = results.map((result) => `| ${result.name} | ${result.description} | ${result.versions} | ${CLIENT_RULES.map((rule) => result.verdicts[rule]).join(' | ')} |`);
  return ['| client | configuration | version | ERR-3 | ERR-4 |', '|---|---|---|---|---|', ...rows].join('\n');
}
