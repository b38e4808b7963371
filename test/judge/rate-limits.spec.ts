/**
 * Traffic recorded through the proxy while the load client drives the reference server is judged with no
 * rule failed, whole or cut in half; the same traffic from a broken limiter fails the rule it breaks, and
 * from a legitimate sliding window fails nothing. The clock runs 10 times faster (a 6 s minute), so that
 * windows outlast Reset's whole seconds and can be compared. A recording at that clock is a few dozen requests
 * a second waiting on windows, so the file makes them several at a time, in the first test to need one, and its
 * tests run in one worker, in order, to share them.
 */
import { expect, test } from '@playwright/test';
import pLimit from 'p-limit';
import { overLimit } from '../load/support/run.ts';
import { MovingResetLimiter, NoRetryAfterLimiter, OverAdmittingLimiter } from '../load/support/limiters.ts';
import type { LimiterKind } from '../../lib/rate-limiter/kinds.ts';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { ClockWindowLimiter } from '../support/clock-window-limiter.ts';
import { GcraLimiter } from '../support/gcra-limiter.ts';
import { MinuteAndDayLimiters } from '../support/minute-and-day-limiters.ts';
import { SlidingCounterLimiter } from '../support/sliding-counter-limiter.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { RepeatingRemainingLimiter } from './repeating-remaining.ts';
import { everyOtherOfEachKey, failures, judged, recordLoad, verdictOf, type RecordOptions } from './support.ts';

const SCALE = 10;
const DURATION_MS = 8_000;
const TRAFFIC = [
  { plan: 'free' as const, keyNumber: 1, behaviour: 'compliant' as const, rate: overLimit(1.2) },
  { plan: 'pro' as const, keyNumber: 1, behaviour: 'naive' as const, rate: overLimit(1.1) },
];
const FAST_FREE = [{ plan: 'free' as const, keyNumber: 1, behaviour: 'compliant' as const, rate: overLimit(2) }];
/**
 * A legitimate limiter's recording: a window and then about seven of its one-second Resets. The naive Pro client
 * sends every few milliseconds, so its answers one after the other across a Reset are all within the judge's
 * clock skew, and where Remaining rose across it (what a sliding log gives back) the two may have been decided in
 * the other order and tell nothing; only a Reset across which Remaining did not rise shows the kind, about half of
 * them. Eight seconds held one or two such Resets, and on a loaded machine, where answers come late and overlap,
 * often none: the kind was then rightly unknown, and the test failed for want of evidence.
 */
const VARIANT_DURATION_MS = 14_000;

/**
 * The legitimate limiters of the model's work, each with the kind its traffic shows (RL-GAP-2), required of every
 * key's observation; `missed` when the judge names another kind today (the test is then fixme, with why). The
 * stacked minute and day show only the day's headers, whose window never ends in a recording of seconds: the
 * judge must say the kind is unknown and why, not guess one.
 */
interface Variant {
  name: string;
  limiter: () => RateLimiter;
  kind: LimiterKind;
  /** What an unknown kind must give as its reason. */
  because?: RegExp;
  missed?: string;
}
const VARIANTS: readonly Variant[] = [
  { name: 'a sliding log', limiter: () => new SlidingWindowLimiter(SCALE), kind: 'sliding-log' },
  { name: 'a token bucket', limiter: () => new TokenBucketLimiter(SCALE), kind: 'bucket' },
  { name: 'GCRA', limiter: () => new GcraLimiter(SCALE), kind: 'bucket' },
  { name: 'a sliding counter', limiter: () => new SlidingCounterLimiter(SCALE), kind: 'sliding-counter', missed: 'the judge reads it as a sliding log ("only part of the quota came back once Reset had come")' },
  {
    name: 'fixed windows on the clock',
    limiter: () => new ClockWindowLimiter(SCALE),
    kind: 'fixed-clock',
    missed: 'the judge reads it as fixed-first-use, "its windows are not aligned to the clock": windows of the 6-s minute this clock runs at, aligned to it',
  },
  { name: 'a minute and a day limiter stacked', limiter: () => new MinuteAndDayLimiters(), kind: 'unknown', because: /no window ended, and no token came back, while the run watched/ },
];

const RECORDINGS: Record<string, () => RecordOptions> = {
  correct: () => ({ timeScale: SCALE, keys: TRAFFIC, durationMs: DURATION_MS }),
  // A 15 s minute: its 61st admission comes well before the Reset, where it can be told from a new window.
  'limit+1': () => ({ limiter: new OverAdmittingLimiter(4), timeScale: 4, keys: FAST_FREE, durationMs: 9_000 }),
  'no Retry-After': () => ({ limiter: new NoRetryAfterLimiter(SCALE), timeScale: SCALE, keys: FAST_FREE, durationMs: 5_000 }),
  'moving Reset': () => ({ limiter: new MovingResetLimiter(SCALE), timeScale: SCALE, keys: FAST_FREE, durationMs: 4_000 }),
  // RL-6 is judged by the kind, which only a pair across a Reset shows: as long as the legitimate limiters' recordings.
  'repeated Remaining': () => ({ limiter: new RepeatingRemainingLimiter(SCALE), timeScale: SCALE, keys: FAST_FREE, durationMs: VARIANT_DURATION_MS }),
  ...Object.fromEntries(VARIANTS.map(({ name, limiter }) => [name, () => ({ limiter: limiter(), timeScale: SCALE, keys: TRAFFIC, durationMs: VARIANT_DURATION_MS })])),
};

/**
 * Recordings made at once: together a few hundred requests a second, light for a worker, where all eleven at once
 * would leave a starved worker sending too few requests to meet a single 429.
 */
const AT_ONCE = 4;
let captures: Promise<Map<string, string>> | undefined;
/** The capture of one of RECORDINGS; the first call makes them all. */
async function recorded(name: string): Promise<string> {
  captures ??= recordAll();
  const capture = (await captures).get(name);
  if (capture === undefined) throw new Error(`no recording named ${name}`);
  return capture;
}

function recordAll(): Promise<Map<string, string>> {
  const limit = pLimit(AT_ONCE);
  return Promise.all(Object.entries(RECORDINGS).map(([name, options]) => limit(async () => [name, await recordLoad(options())] as const))).then((all) => new Map(all));
}

test.describe.configure({ mode: 'default' });

test('load through the proxy from the correct server is judged with no rule failed, and cut in half still fails nothing', async () => {
  const capture = await recorded('correct');
  const whole = await judged(capture);
  expect(failures(whole)).toEqual({});
  const windows = whole.rules.find((row) => row.id === 'RL-6')?.observations.map((note) => note.text).join(' ');
  expect(windows, 'windows were compared, not merely left unjudged').toMatch(/\d+ windows? of 2 keys/);
  expect(verdictOf(whole, 'RL-1')).toBe('pass');
  // Traffic never shows a plan's daily quota: partly checked, never passed.
  expect(verdictOf(whole, 'PLAN-FREE')).toBe('partly-checked');

  const half = await judged(everyOtherOfEachKey(capture));
  expect(failures(half)).toEqual({});
  expect(half.rules.find((row) => row.id === 'PLAN-FREE')?.unchecked.map((note) => note.text).join(' ')).toContain('only partly in the capture');
  expect(verdictOf(half, 'RL-7')).toBe('partly-checked');
});

test('at the bundled clock (240: a 250 ms minute) windows cannot be compared: no rule fails, and the window rules say why', async () => {
  // Four times the requests of the others a second: alone, so that the recordings made at once stay light.
  const capture = await recordLoad({ timeScale: 240, keys: TRAFFIC, durationMs: 3_000 });
  const report = await judged(capture);
  expect(failures(report)).toEqual({});
  expect(report.rules.find((row) => row.id === 'PLAN-FREE')?.reason).toMatch(/not judged|no window/);
});

test('a limiter admitting limit+1 per window fails PLAN-FREE, with the exchanges that prove it', async () => {
  const capture = await recorded('limit+1');
  const report = await judged(capture);
  expect(Object.keys(failures(report))).toEqual(['PLAN-FREE']);
  expect(failures(report)['PLAN-FREE']).toMatch(/61 admitted under one Reset \(\d+\) whose limit is 60, .*key free-1; exchanges \d+/);
});

test('429s without Retry-After fail RL-1 and nothing else', async () => {
  const capture = await recorded('no Retry-After');
  const report = await judged(capture);
  expect(Object.keys(failures(report))).toEqual(['RL-1']);
  expect(failures(report)['RL-1']).toContain('429 without a Retry-After header');
});

test('a Reset that moves within a window fails RL-7', async () => {
  const capture = await recorded('moving Reset');
  const report = await judged(capture);
  expect(Object.keys(failures(report))).toContain('RL-7');
  expect(failures(report)['RL-7']).toMatch(/expected X-RateLimit-Reset to stay at \d+ within the window \(it had not ended\), got \d+: it moved (back|forward)/);
});

test('a fixed window that says a Remaining twice fails RL-6, with the kind its traffic showed and the two exchanges', async () => {
  const capture = await recorded('repeated Remaining');
  const report = await judged(capture);
  expect(Object.keys(failures(report))).toEqual(['RL-6']);
  expect(failures(report)['RL-6']).toMatch(/Limit 60: expected X-RateLimit-Remaining to fall from (\d+) to \d+, got \1 .*the limiter is fixed-first-use: .*\(key free-1; exchanges \d+, \d+\)/);
});

for (const { name, kind, because, missed } of VARIANTS) {
  test(`${name}, a legitimate limiter, fails nothing, whole or cut in half`, async () => {
    const capture = await recorded(name);
    expect(failures(await judged(capture))).toEqual({});
    expect(failures(await judged(everyOtherOfEachKey(capture)))).toEqual({});
  });

  (missed ? test.fixme : test)(`${name}: every key's observation names its kind, ${kind}${missed ? ` (missed: ${missed})` : ''}`, async () => {
    const report = await judged(await recorded(name));
    const byKey = (report.rules.find((row) => row.id === 'RL-GAP-2')?.observations ?? []).map((note) => note.text).filter((text) => text.startsWith('key '));
    expect(byKey, 'one observation per key of the recording').toHaveLength(TRAFFIC.length);
    for (const text of byKey) {
      expect(text).toContain(`as far as this traffic shows: ${kind} (`);
      if (because) expect(text).toMatch(because);
    }
  });
}
