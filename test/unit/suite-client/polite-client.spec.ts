/**
 * The suite's own client is a client of the service, so the client rules bind it: ERR-3 (wait at least
 * Retry-After after a 429) and ERR-4 (exponential backoff, no repeats while refused). Tested on
 * lib/backoff.ts and on the validating client with a scripted transport and a recorded clock.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { backoffDelayMs, DEFAULT_BACKOFF, sleep } from '../../../lib/backoff.ts';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import { targetClock, type TargetClock } from '../../../lib/target-clock.ts';
import { PetStoreClient, type ClientOptions, type Politeness } from '../../../specs/support/client.ts';
import { KeyLeases } from '../../../specs/support/leases.ts';
import { NoAnswer } from '../../../specs/support/no-answer.ts';
import type { ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';

const cites = (rule: string) => ({ annotation: { type: 'rule', description: rule } });

const limits = { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 30) };
const ok: ReceivedResponse = { status: 200, headers: { ...limits, 'x-ratelimit-remaining': '10' }, body: '[]' };
const refused = (retryAfter: string): ReceivedResponse => ({
  status: 429,
  headers: { ...limits, 'x-ratelimit-remaining': '0', 'retry-after': retryAfter },
  body: '{"code":"rate_limited","message":"slow down","status":429}',
});

/** A transport that answers from a script and a log of what happened, in order: sends and waits. */
function scripted(answers: ReceivedResponse[]) {
  const events: string[] = [];
  const transport: Transport = {
    async send() {
      events.push('send');
      const next = answers.shift();
      if (!next) throw new Error('the script ran out of answers');
      return next;
    },
  };
  const waits: number[] = [];
  const wait = async (ms: number): Promise<void> => {
    events.push(`wait ${ms}`);
    waits.push(ms);
  };
  return { transport, events, waits, wait };
}

function clientOver(script: ReturnType<typeof scripted>, politeness: Politeness = 'wait', random = () => 0.5, clock?: TargetClock): PetStoreClient {
  return new PetStoreClient(optionsOf(script, politeness, random, clock));
}

function optionsOf(script: ReturnType<typeof scripted>, politeness: Politeness = 'wait', random = () => 0.5, clock?: TargetClock): ClientOptions {
  return {
    transport: script.transport,
    baseUrl: 'http://127.0.0.1:9/v1',
    authorization: 'Bearer demo-free-1',
    plan: undefined,
    judge: new RuleJudge(test.info(), test.info().annotations.find((a) => a.type === 'rule')?.description ?? 'ERR-3', new Redactor(DEMO_KEYS)),
    politeness,
    timeLeftMs: () => Number.POSITIVE_INFINITY,
    random,
    wait: script.wait,
    ...(clock ? { clock } : {}),
  };
}

test('ERR-3 SHOULD client waits at least Retry-After, whatever the jitter and the attempt', cites('ERR-3'), () => {
  for (const attempt of [1, 2, 5, 8, 20]) {
    for (const random of [0, 0.25, 0.999999]) expect(backoffDelayMs(attempt, 3_000, DEFAULT_BACKOFF, () => random)).toBeGreaterThanOrEqual(3_000);
  }
});

test('ERR-3 SHOULD client waits out a 429 for its Retry-After before sending the request again', cites('ERR-3'), async () => {
  const script = scripted([refused('2'), ok]);
  const answer = await clientOver(script).listPets();
  expect(answer.response.status).toBe(200);
  expect(script.events).toEqual(['send', expect.stringMatching(/^wait \d+$/), 'send']);
  expect(script.waits[0]).toBeGreaterThanOrEqual(2_000);
  expect(test.info().annotations.filter((a) => a.type === 'throttled')).toHaveLength(1);
});

test('ERR-3 SHOULD client reads a fast target clock: exchanges carry its time, and a Retry-After of its seconds is waited in real time', cites('ERR-3'), async () => {
  const clock = targetClock(100, Date.now());
  const script = scripted([refused('20'), ok]);
  const before = clock.now();
  const answer = await clientOver(script, 'wait', () => 0, clock).listPets();
  // 20 seconds of a clock running 100 times faster are 200 real milliseconds; no jitter with random() = 0.
  expect(script.waits).toEqual([200]);
  expect(answer.sentAt).toBeGreaterThanOrEqual(before);
  expect(answer.receivedAt).toBeLessThanOrEqual(clock.now());
});

test('ERR-3 SHOULD client honours a Retry-After given as an HTTP-date', cites('ERR-3'), async () => {
  const date = new Date(Math.ceil(Date.now() / 1000) * 1000 + 5_000).toUTCString();
  const script = scripted([refused(date), ok]);
  await clientOver(script).listPets();
  expect(script.waits[0]).toBeGreaterThanOrEqual(4_000);
});

test('ERR-4 SHOULD client backs off exponentially with full jitter, up to a cap', cites('ERR-4'), () => {
  const ceilings = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempt) => backoffDelayMs(attempt, undefined, DEFAULT_BACKOFF, () => 0.999999));
  expect(ceilings.slice(0, 5)).toEqual([250, 500, 1_000, 2_000, 4_000]);
  expect(Math.max(...ceilings)).toBeLessThanOrEqual(DEFAULT_BACKOFF.capMs);
  expect(backoffDelayMs(4, undefined, DEFAULT_BACKOFF, () => 0)).toBe(0);
  expect(backoffDelayMs(4, 1_000, DEFAULT_BACKOFF, () => 0.5)).toBe(2_000);
});

test('ERR-4 SHOULD client never repeats a request while refused: every retry follows a longer wait', cites('ERR-4'), async () => {
  const script = scripted([refused('0'), refused('0'), refused('0'), ok]);
  const answer = await clientOver(script, 'wait', () => 0.999).listPets();
  expect(answer.response.status).toBe(200);
  expect(script.events.filter((event) => event === 'send')).toHaveLength(4);
  expect(script.events.every((event, index) => index === 0 || event !== 'send' || script.events[index - 1] !== 'send')).toBe(true);
  expect(script.waits[1]).toBeGreaterThan(script.waits[0]!);
  expect(script.waits[2]).toBeGreaterThan(script.waits[1]!);
});

test('ERR-4 SHOULD client gives up after its attempts: no answer to judge by, never evidence against the rule under test', cites('ERR-4'), async () => {
  const script = scripted(Array.from({ length: DEFAULT_BACKOFF.maxAttempts }, () => refused('1')));
  const giveUp = clientOver(script).collecting().listPets();
  await expect(giveUp).rejects.toThrow(NoAnswer);
  await expect(giveUp).rejects.toThrow(/^GET \/pets was still refused with 429 after 8 attempts/);
  expect(script.waits).toHaveLength(DEFAULT_BACKOFF.maxAttempts - 1);
});

test('ERR-3 SHOULD a request that gave up leaves its key resting: the next request on the key, in another test or worker, waits for the last 429 first', cites('ERR-3'), async () => {
  const rest = new KeyLeases(mkdtempSync(path.join(tmpdir(), 'petstore-rest-'))).rest('demo-free-1');
  const gaveUp = scripted(Array.from({ length: DEFAULT_BACKOFF.maxAttempts }, () => refused('5')));
  await expect(new PetStoreClient({ ...optionsOf(gaveUp, 'wait', () => 0), rest }).collecting().listPets()).rejects.toThrow(NoAnswer);
  // Another test's client, on the same key (the rest is read from the run's lease folder, as another worker reads it).
  const next = scripted([ok]);
  await new PetStoreClient({ ...optionsOf(next, 'wait', () => 0), rest }).listPets();
  expect(next.events).toEqual([expect.stringMatching(/^wait \d+$/), 'send']);
  expect(next.waits[0]).toBeGreaterThan(4_900);
  expect(next.waits[0]).toBeLessThanOrEqual(5_000);
});

test('ERR-4 SHOULD the backoff grows with the key\'s refusals in a row, from one test to the next, and starts again once the key is answered', cites('ERR-4'), async () => {
  const rest = new KeyLeases(mkdtempSync(path.join(tmpdir(), 'petstore-rest-'))).rest('demo-free-1');
  // Real waits, short: a key's rest is kept in real time, for every worker alike.
  const backoff = { baseMs: 100, capMs: 10_000, maxAttempts: 8 };
  const politeOver = (script: ReturnType<typeof scripted>, attempts = backoff.maxAttempts): PetStoreClient =>
    new PetStoreClient({ ...optionsOf(script, 'wait', () => 0.999), rest, backoff: { ...backoff, maxAttempts: attempts }, wait: async (ms) => (script.waits.push(ms), sleep(ms)) });
  const first = scripted([refused('0'), refused('0'), ok]);
  await politeOver(first).listPets();
  const second = scripted([refused('0'), ok]);
  await politeOver(second).listPets();
  // 100 and 200 ms in the first test; its answer ended the run, so the second test starts again at 100.
  expectNear(first.waits, [100, 200]);
  expectNear(second.waits, [100]);
  const third = scripted([refused('0'), refused('0'), ok]);
  await expect(politeOver(third, 2).collecting().listPets()).rejects.toThrow(NoAnswer);
  const fourth = scripted([refused('0'), ok]);
  await politeOver(fourth).listPets();
  // The third test gave up after two refusals in a row; the fourth rests for the second, and its own 429 is the third.
  expectNear(fourth.waits, [200, 400]);
});

/** Real waits of about these: no longer, and short by no more than a timer's few milliseconds. */
function expectNear(waits: readonly number[], expected: readonly number[]): void {
  expect(waits).toHaveLength(expected.length);
  waits.forEach((waited, index) => expect(waited, `wait ${index + 1} of ${waits.join(', ')} ms`).toBeGreaterThan((expected[index] as number) - 40));
  waits.forEach((waited, index) => expect(waited).toBeLessThanOrEqual(expected[index] as number));
}

test('a request whose connection fails, or whose 429 asks for longer than the test may take, is no answer: the collecting client says so', async () => {
  const closed = clientOver(scripted([])).collecting().listPets();
  await expect(closed).rejects.toThrow(NoAnswer);
  await expect(closed).rejects.toThrow(/^no answer: the script ran out of answers/);
  const script = scripted([refused('86400')]);
  const spent = new PetStoreClient({ ...optionsOf(script), timeLeftMs: () => 60_000 }).collecting().listPets();
  await expect(spent).rejects.toThrow(/asked to wait 8640\d s \(Retry-After: 86400\), longer than this test may take/);
  expect(script.waits, 'a wait longer than the test may take is not begun').toEqual([]);
});

test('a measuring client hands a 429 back at once, to be judged and waited out by the measurement', async () => {
  const script = scripted([refused('1')]);
  const answer = await clientOver(script, 'measure').listPets();
  expect(answer.response.status).toBe(429);
  expect(script.events).toEqual(['send']);
});

test('in a test of the suite, a request that failed otherwise than unanswered (RESP-3, unanswered.spec.ts) ends the test skipped with the cause: no rule is failed for it', async () => {
  const skips: string[] = [];
  const annotations: Array<{ type: string; description?: string }> = [];
  const testInfo = {
    annotations,
    attachments: [],
    skip: (condition: boolean, reason: string) => {
      if (condition) skips.push(reason);
      throw new Error('skipped');
    },
  } as unknown as TestInfo;
  const judge = new RuleJudge(testInfo, 'LIST-1', new Redactor(DEMO_KEYS));
  await expect(new PetStoreClient({ ...optionsOf(scripted([])), judge }).listPets()).rejects.toThrow('skipped');
  expect(skips).toEqual(['could not complete, so not judged: no answer: the script ran out of answers']);
  expect(annotations.filter((annotation) => annotation.type !== 'skip'), 'nothing judged, nothing failed').toEqual([]);
});
