/**
 * Captures as the field has them: logs of a fleet merged or concatenated, a slow HAR entry, gateways whose clocks
 * differ by a few milliseconds, exchanges without their duration, a capture clock off the target's, times without
 * a zone, and a Remaining that promises more than the window admits. The judge puts answers back in order within
 * its buffer (window-accountant.ts) and refuses, naming the entry, input that goes back further.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import { captureTimeMs } from '../../lib/capture-time.ts';
import { remainingStepProblem } from '../../lib/rate-limiter/steps.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { ROOT } from '../replay/support.ts';
import { failures, tempDir } from './support.ts';

const KEY = 'a-free-key-of-the-fleet';
const ENV = { PETSTORE_API_KEY_FREE: KEY };
/** A Reset on a whole minute, as clock-aligned windows name it. */
const RESET = 4_000_000_020;
const RESET_MS = RESET * 1000;

interface Said {
  at: number;
  status?: number;
  remaining: number;
  reset?: number;
  /** null: the line has no duration. */
  durationMs?: number | null;
  retryAfter?: string;
}

/** A line of the NDJSON exchange format, as a gateway's log writes it. */
function line({ at, status = 200, remaining, reset = RESET, durationMs = 2, retryAfter }: Said): Record<string, unknown> {
  return {
    time: (at / 1000).toFixed(3),
    ...(durationMs === null ? {} : { duration: (durationMs / 1000).toFixed(3) }),
    method: 'GET',
    url: '/v1/pets?limit=5',
    status: String(status),
    requestHeaders: { authorization: `Bearer ${KEY}` },
    responseHeaders: {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(reset),
      'content-type': 'application/json',
      ...(retryAfter ? { 'retry-after': retryAfter } : {}),
    },
  };
}

function log(name: string, lines: ReadonlyArray<Record<string, unknown>>): string {
  const file = join(tempDir('order'), name);
  writeFileSync(file, `${lines.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
  return file;
}

async function judgedFile(file: string, clockSkewMs = 1_000): Promise<ConformanceReport> {
  const { report } = await judgeCapture(file, { env: ENV, clockSkewMs, run: { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' } });
  expect(JSON.stringify(report)).not.toMatch(/to fall from 0 to -1/);
  return report;
}

/** The lines a gateway counting on its own writes: the whole quota of one window, then a first answer of the next. */
function gatewayAlone(offsetMs: number, fromMs: number): Array<Record<string, unknown>> {
  const window = Array.from({ length: 60 }, (_, i) => line({ at: fromMs + offsetMs + i * 80, remaining: 59 - i }));
  return [...window, line({ at: RESET_MS + 2_500 + offsetMs, remaining: 59, reset: RESET + 60 })];
}

test('two gateways each counting alone: their logs merged and concatenated get the same verdict, PLAN-FREE failed for twice the quota in one window', async () => {
  const from = RESET_MS - 8_000;
  const [a, b] = [gatewayAlone(0, from), gatewayAlone(40, from)];
  const byTime = [...a, ...b].sort((x, y) => Number(x.time) - Number(y.time));
  const merged = await judgedFile(log('merged.log', byTime));
  const concatenated = await judgedFile(log('concatenated.log', [...a, ...b]));
  expect(failures(merged)['PLAN-FREE']).toMatch(/61 admitted under one Reset \(4000000020\) whose limit is 60/);
  // The same verdicts, the same messages; only the exchanges' numbers differ, as their places in the files do.
  const verdicts = (report: ConformanceReport): Array<[string, string, string[]]> => report.rules.map((row) => [row.id, row.verdict, row.failures.map((note) => note.text.replace(/exchanges [\d, ]+/, 'exchanges …'))]);
  expect(verdicts(concatenated)).toEqual(verdicts(merged));
});

test('a capture that goes back in time further than the buffer is refused in one line naming the entry and the buffer', async () => {
  const from = RESET_MS - 50_000;
  const a = gatewayAlone(0, from);
  const file = log('long.log', [...a, ...gatewayAlone(40, from)]);
  await expect(judgedFile(file)).rejects.toThrow(/^long\.log: entry 62 goes back in time 52\.5 s before answers already read, more than the 11 s within which answers are put back in order: merge captures by time first/);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'judge', file, '--output', tempDir('refused')], { cwd: ROOT, env: { ...process.env, ...ENV }, encoding: 'utf8' });
  expect(run.status).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain('long.log: entry 62 goes back in time');
});

test('one slow entry of a HAR does not split a window: 61 admissions under one Reset still fail PLAN-FREE', async () => {
  const from = RESET_MS - 10_000;
  const entries = Array.from({ length: 62 }, (_, i) => ({
    startedDateTime: new Date(from + i * 50).toISOString(),
    // The 30th waited 15 s for its answer: answered well after the window's Reset.
    time: i === 30 ? 15_000 : 3,
    request: { method: 'GET', url: 'https://api.example/v1/pets?limit=5', headers: [{ name: 'Authorization', value: `Bearer ${KEY}` }] },
    response: {
      status: 200,
      headers: [
        { name: 'X-RateLimit-Limit', value: '60' },
        { name: 'X-RateLimit-Remaining', value: String(Math.max(0, 59 - i)) },
        { name: 'X-RateLimit-Reset', value: String(RESET) },
      ],
    },
  }));
  const file = join(tempDir('slow'), 'browser.har');
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }));
  expect(failures(await judgedFile(file))['PLAN-FREE']).toMatch(/61 admitted under one Reset \(4000000020\) whose limit is 60/);
});

test('two gateways sharing one count, their clocks 10 ms apart at a window boundary: no Reset moved back', async () => {
  // Gateway A's clock runs 10 ms late: the first answer of the new window it logs 8 ms before the boundary, before
  // gateway B's last answer of the old window, decided 5 ms before it.
  const before = Array.from({ length: 5 }, (_, i) => line({ at: RESET_MS - 3_000 + i * 200, remaining: 8 - i }));
  const boundary = [line({ at: RESET_MS - 8, remaining: 59, reset: RESET + 60, durationMs: 1 }), line({ at: RESET_MS - 3, remaining: 3 })];
  const after = Array.from({ length: 5 }, (_, i) => line({ at: RESET_MS + 300 + i * 200, remaining: 58 - i, reset: RESET + 60 }));
  const report = await judgedFile(log('fleet.log', [...before, ...boundary, ...after]));
  expect(failures(report)).toEqual({});
});

test('exchanges without their duration: a slow answer logged after a faster one of the next window is no Reset moved back', async () => {
  // Decided before the boundary, answered 1.5 s after it; the other, decided after the boundary, answered first.
  const lines = [
    line({ at: RESET_MS - 2_000, remaining: 10, durationMs: null }),
    line({ at: RESET_MS + 200, remaining: 59, reset: RESET + 60, durationMs: null }),
    line({ at: RESET_MS + 1_500, remaining: 9, durationMs: null }),
    line({ at: RESET_MS + 2_000, remaining: 58, reset: RESET + 60, durationMs: null }),
  ];
  expect(failures(await judgedFile(log('no-duration.log', lines)))).toEqual({});
});

test('--clock-skew is honoured by the per-answer Reset check: a capture clock 20 s ahead fails nothing with --clock-skew 20', async () => {
  const ahead = 20_000;
  const lines = Array.from({ length: 10 }, (_, i) => line({ at: RESET_MS - 5_000 + i * 400 + ahead, remaining: 59 - i }));
  const file = log('ahead.log', lines);
  expect(failures(await judgedFile(file, 20_000))).toEqual({});
  expect(Object.keys(failures(await judgedFile(file, 1_000)))).toEqual(['RL-7']);
});

test('an ISO time without an offset is read as UTC, whatever the judging machine\'s zone', async () => {
  const zone = process.env.TZ;
  process.env.TZ = 'America/New_York';
  try {
    expect(captureTimeMs('2096-10-02T07:46:40.250')).toBe(Date.parse('2096-10-02T07:46:40.250Z'));
    expect(captureTimeMs('2096-10-02 07:46:40')).toBe(Date.parse('2096-10-02T07:46:40Z'));
    expect(captureTimeMs('2096-10-02T07:46:40+02:00')).toBe(Date.parse('2096-10-02T05:46:40Z'));
    const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 23);
    const lines = Array.from({ length: 5 }, (_, i) => ({ ...line({ at: RESET_MS - 10_000 + i * 300, remaining: 59 - i }), time: iso(RESET_MS - 10_000 + i * 300) }));
    expect(failures(await judgedFile(log('zoneless.log', lines)))).toEqual({});
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
});

test("times as loggers write ISO 8601 (a comma before the fraction, as Python's logging does; an offset of +hhmm or +hh) are read as the instant they name; a time in another form is refused naming the entry, never read in the judging machine's zone", async () => {
  const zone = process.env.TZ;
  process.env.TZ = 'America/New_York';
  try {
    const at = (i: number): number => RESET_MS - 10_000 + i * 300;
    /** The instant `ms` as "2096-10-02 09:46:40,250+0200": written two hours ahead, with the offset saying so. */
    const written = (ms: number, offset: string, hours: number): string => new Date(ms + hours * 3_600_000).toISOString().slice(0, 23).replace('T', ' ').replace('.', ',') + offset;
    for (const [offset, hours] of [['+0200', 2], ['+02', 2], ['-05:00', -5], ['', 0]] as const) {
      const lines = Array.from({ length: 5 }, (_, i) => ({ ...line({ at: at(i), remaining: 59 - i }), time: written(at(i), offset, hours) }));
      expect(failures(await judgedFile(log('iso-forms.log', lines))), `offset "${offset}"`).toEqual({});
    }
    // Read in New York's zone, these put every answer five hours after its Reset: RL-7 failed for the log's form.
    for (const time of ['2096/10/02 07:46:40', 'Oct 2 2096 07:46:40']) {
      await expect(judgedFile(log('other-form.log', [{ ...line({ at: at(0), remaining: 59 }), time }]))).rejects.toThrow(/other-form\.log: entry 1 has a "time" that is neither Unix seconds nor an ISO 8601 date/);
    }
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
});

test('a 429 saying requests are left fails RL-6 with the exchanges that prove it; so does a 429 saying none are left after a Remaining of 5 in a window the capture holds whole (issue 38: its Remaining promised more than it admitted), but not a ban that shows the limiter\'s figures', async () => {
  const spent = Array.from({ length: 55 }, (_, i) => line({ at: RESET_MS - 20_000 + i * 100, remaining: 59 - i }));
  const overstated = await judgedFile(log('overstated.log', [...spent, line({ at: RESET_MS - 14_000, status: 429, remaining: 5, retryAfter: '14' })]));
  expect(Object.keys(failures(overstated))).toEqual(['RL-6']);
  expect(failures(overstated)['RL-6']).toMatch(/Limit 60: a 429 under Reset 4000000020, after an admission under it said 5 were left, said X-RateLimit-Remaining 5: .*\(key free-1; exchanges 55, 56\)/);
  const promised = await judgedFile(log('others.log', [...spent, line({ at: RESET_MS - 14_000, status: 429, remaining: 0, retryAfter: '14' })]));
  expect(Object.keys(failures(promised))).toEqual(['RL-6']);
  expect(failures(promised)['RL-6']).toMatch(/admitted 55, each request the capture holds, its Remaining counting down to 5; then a request decided after the last of them was refused/);
  // A ban (ERR-GAP-3) in front of the limiter may show the limiter's figures: a wait longer than a window is no such promise.
  const banned = await judgedFile(log('banned.log', [...spent, line({ at: RESET_MS - 14_000, status: 429, remaining: 5, retryAfter: '600' })]));
  expect(failures(banned)).toEqual({});
  // As the load harness reads it (lib/rate-limiter/refusal-wait.ts, longestAskedMs): a ban may show its end in Reset alone.
  const bannedByReset = await judgedFile(log('banned-by-reset.log', [...spent, line({ at: RESET_MS - 14_000, status: 429, remaining: 5, reset: RESET + 600, retryAfter: '14' })]));
  expect(failures(bannedByReset)).toEqual({});
});

test('an admission after one that said none were left is described without a Remaining of -1', () => {
  const at = RESET_MS - 10_000;
  const reading = (remaining: number, sentAt: number) => ({ status: 200, limit: 60, remaining, reset: RESET, sentAt, receivedAt: sentAt + 2 });
  const problem = remainingStepProblem(reading(0, at), reading(0, at + 100), 60_000, false);
  expect(problem).toBe('X-RateLimit-Remaining said 0 were left, yet a request decided after it was admitted in the same window, saying 0');
});
