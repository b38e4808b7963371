/**
 * The suite is itself a client of a rate-limited service, bound by the spec's client rules: after a 429 it
 * waits at least Retry-After (ERR-3), backs off exponentially with jitter and does not hammer (ERR-4). Checked
 * on the suite's own client with a scripted transport (exact waits), and end to end on a whole run against a
 * target that refuses some requests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { DEFAULT_BACKOFF } from '../../lib/backoff.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import { Redactor } from '../../lib/redact.ts';
import { PetStoreClient } from '../../specs/support/client.ts';
import type { ReceivedResponse, SentRequest, Transport } from '../../specs/support/exchange.ts';
import { RuleJudge } from '../../specs/support/judge.ts';
import type { ProxyResponse } from '../support/fault-proxy.ts';
import { ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const KEY = DEMO_KEYS.free[0]!;

function contractHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 30), ...extra };
}

const refused = (retryAfter: string): ReceivedResponse => ({
  status: 429,
  headers: contractHeaders({ 'retry-after': retryAfter }),
  body: '{"code":"rate_limited","message":"slow down","status":429}',
});
const admitted: ReceivedResponse = { status: 200, headers: contractHeaders({ 'x-ratelimit-remaining': '59' }), body: '[]' };

/** A transport that answers from a script and records what was sent. */
function scripted(answers: Array<() => ReceivedResponse>): Transport & { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  return {
    sent,
    async send(request) {
      sent.push(request);
      return (answers[Math.min(sent.length - 1, answers.length - 1)] ?? (() => admitted))();
    },
  };
}

function suiteClient(transport: Transport, testInfo: TestInfo, rule: string, random: () => number, waits: number[]): PetStoreClient {
  return new PetStoreClient({
    transport,
    baseUrl: 'http://127.0.0.1:9/v1',
    authorization: `Bearer ${KEY}`,
    plan: 'free',
    judge: new RuleJudge(testInfo, rule, new Redactor(DEMO_KEYS)),
    politeness: 'wait',
    timeLeftMs: () => Number.POSITIVE_INFINITY,
    random,
    wait: async (ms) => {
      waits.push(ms);
    },
  });
}

test("ERR-3 SHOULD the suite's client waits at least Retry-After before retrying, in seconds or as an HTTP-date", { annotation: [{ type: 'rule', description: 'ERR-3' }] }, async ({}, testInfo) => {
  const inThreeSeconds = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3000).toUTCString();
  const transport = scripted([() => refused('2'), () => refused(inThreeSeconds), () => admitted]);
  const waits: number[] = [];
  const exchange = await suiteClient(transport, testInfo, 'ERR-3', () => 0, waits).listPets();
  expect(exchange.response.status).toBe(200);
  expect(transport.sent).toHaveLength(3);
  expect(waits[0], 'after Retry-After: 2').toBeGreaterThanOrEqual(2000);
  expect(waits[1], `after Retry-After: ${inThreeSeconds}`).toBeGreaterThanOrEqual(retryAfterMs(inThreeSeconds, Date.now())! - 50);
  expect(waits[1]).toBeGreaterThan(1000);
  expect(testInfo.annotations.filter((a) => a.type === 'throttled'), 'each wait is noted for the report').toHaveLength(2);
});

test("ERR-4 SHOULD the suite's client backs off exponentially with jitter and stops retrying after its attempts", { annotation: [{ type: 'rule', description: 'ERR-4' }] }, async ({}, testInfo) => {
  // Refused for good, with Retry-After: 0, so the waits are the backoff alone: at the top of the jitter they double.
  const always = scripted([() => refused('0')]);
  const highest: number[] = [];
  // Collecting, the client hands the give-up to its caller; in a test of the suite it ends the test "could not complete".
  await expect(suiteClient(always, testInfo, 'ERR-4', () => 1, highest).collecting().listPets(), 'the client gives up with a clear message rather than trying forever').rejects.toThrow(
    `after ${DEFAULT_BACKOFF.maxAttempts} attempts`,
  );
  expect(always.sent).toHaveLength(DEFAULT_BACKOFF.maxAttempts);
  const expected = highest.map((_, attempt) => Math.min(DEFAULT_BACKOFF.capMs, DEFAULT_BACKOFF.baseMs * 2 ** attempt));
  expect(highest, 'the ceiling of each wait doubles up to the cap').toEqual(expected);

  // Full jitter: a wait is drawn below that ceiling, so clients refused together do not return together.
  const jittered: number[] = [];
  let draw = 0;
  await suiteClient(scripted([() => refused('1'), () => refused('1'), () => admitted]), testInfo, 'ERR-4', () => [0.1, 0.9][draw++ % 2]!, jittered).listPets();
  expect(jittered).toEqual([Math.ceil(1000 + 0.1 * DEFAULT_BACKOFF.baseMs), Math.ceil(1000 + 0.9 * DEFAULT_BACKOFF.baseMs * 2)]);
});

test('ERR-3 SHOULD a whole suite run against a target that refuses some requests waits each 429 out, passes, and the report counts it', { annotation: [{ type: 'rule', description: 'ERR-3' }, { type: 'rule', description: 'ERR-4' }] }, async () => {
  test.setTimeout(180_000);
  const RETRY_AFTER_S = 1;
  const refusals: Array<{ key: string; at: number; retriedAt?: number }> = [];
  let gets = 0;
  const identity = (method: string, requestPath: string, authorization = ''): string => `${method} ${requestPath} ${authorization}`;
  const target = await startVariant({
    transforms: [
      () => ({
        request(request) {
          const key = identity(request.method, request.path, request.headers.authorization);
          for (const refusal of refusals) if (refusal.key === key && refusal.retriedAt === undefined) refusal.retriedAt = Date.now();
          // Every eighth GET with a key is refused once, like a busy server would.
          if (request.method !== 'GET' || !request.headers.authorization || ++gets % 8 !== 0) return request;
          refusals.push({ key, at: Date.now() });
          const answer: ProxyResponse = {
            status: 429,
            headers: contractHeaders({ 'retry-after': String(RETRY_AFTER_S), 'x-ratelimit-limit': '1000000' }),
            body: '{"code":"rate_limited","message":"busy","status":429}',
          };
          return answer;
        },
      }),
    ],
  });
  let run;
  try {
    // One worker: then the next identical request is the retry, not another test's request.
    run = await runSuite({
      label: 'suite-as-client',
      baseUrl: target.baseUrl,
      titles: ['LIST-1', 'LIST-2', 'LIST-3', 'LIST-6', 'GET-1', 'DEP-2'].map((rule) => ruleTitle(rule)),
      workers: 1,
      allReporters: true,
    });
  } finally {
    await target.close();
  }
  expect(refusals.length, 'the target refused some requests').toBeGreaterThan(1);
  const early = refusals.filter((refusal) => refusal.retriedAt !== undefined && refusal.retriedAt - refusal.at < RETRY_AFTER_S * 1000 - 30);
  expect(early.map((refusal) => `${refusal.key.split(' ').slice(0, 2).join(' ')} retried after ${refusal.retriedAt! - refusal.at} ms`), 'retries sent before Retry-After had passed').toEqual([]);
  expect(refusals.filter((refusal) => refusal.retriedAt === undefined).length, 'every refused request was sent again').toBe(0);
  expect(run.tests.filter((t) => t.status !== 'passed').map((t) => `${t.title}: ${t.status} ${t.errors[0]?.split('\n')[0] ?? ''}`), 'a 429 waited out is no failure').toEqual([]);

  const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, 'suite-as-client', 'reports', 'conformance.json'), 'utf8')) as { counts: { throttledTests: number }; throttling: unknown[] };
  expect(report.counts.throttledTests, 'the conformance report counts the throttled tests').toBeGreaterThan(0);
  expect(report.throttling.length).toBeGreaterThanOrEqual(refusals.length);
});
