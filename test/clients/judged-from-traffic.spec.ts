/**
 * The client rules ERR-3 and ERR-4 judged from a capture, per key: lines of the exchange format (as a
 * gateway's log writes them) and a HAR, run through the judge as the CLI runs it. A client that waits out each
 * 429 and backs off is not named; one that does not is, with the exchanges that prove it. What the capture
 * leaves out (requests, send times) never makes a breach, and the clock skew the judge is given is honoured
 * where a Retry-After is a date.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import { tempDir } from '../judge/support.ts';

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);

interface Line {
  key: string;
  /** When the answer came, ms after T0. */
  at: number;
  status?: number;
  retryAfter?: string;
  date?: string;
  /** Seconds the exchange took; '' when the log does not say. */
  duration?: string;
  url?: string;
}

function entry(line: Line): Record<string, unknown> {
  return {
    time: ((T0 + line.at) / 1000).toFixed(3),
    duration: line.duration ?? '0.005',
    method: 'GET',
    url: line.url ?? '/v1/pets',
    status: String(line.status ?? 200),
    key: line.key,
    plan: 'free',
    responseHeaders: {
      'content-type': 'application/json',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': line.status === 429 ? '0' : '10',
      'x-ratelimit-reset': String(Math.ceil((T0 + 60_000) / 1000)),
      'retry-after': line.retryAfter ?? '',
      date: line.date ?? '',
    },
  };
}

function log(lines: Line[]): string {
  const file = join(tempDir('clients'), 'access.log');
  writeFileSync(file, `${lines.sort((a, b) => a.at - b.at).map((line) => JSON.stringify(entry(line))).join('\n')}\n`);
  return file;
}

async function judge(file: string, clockSkewMs = 1_000): Promise<ConformanceReport> {
  return (await judgeCapture(file, { env: {}, clockSkewMs, run: { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' } })).report;
}

function row(report: ConformanceReport, rule: string) {
  const found = report.rules.find((candidate) => candidate.id === rule);
  if (!found) throw new Error(`${rule} is not in the report`);
  return found;
}

/** A client that waits Retry-After plus a growing backoff, on key `key`, starting at `from`. */
function patient(key: string, from: number): Line[] {
  return [
    { key, at: from },
    { key, at: from + 100, status: 429, retryAfter: '2' },
    { key, at: from + 2_400 },
    { key, at: from + 2_500, status: 429, retryAfter: '1' },
    { key, at: from + 3_900 },
  ];
}

/** A client that resends every 150 ms, whatever the 429 said. */
function hammering(key: string, from: number): Line[] {
  return [
    { key, at: from },
    { key, at: from + 100, status: 429, retryAfter: '2' },
    { key, at: from + 250, status: 429, retryAfter: '2' },
    { key, at: from + 400, status: 429, retryAfter: '2' },
    { key, at: from + 550, status: 429, retryAfter: '2' },
  ];
}

test('ERR-3 and ERR-4 judged from a log: the client that resends at once is named with its exchanges, the patient one is not', async () => {
  const report = await judge(log([...patient('partner-a', 0), ...hammering('partner-b', 0)]));
  const err3 = row(report, 'ERR-3');
  const err4 = row(report, 'ERR-4');
  expect(err3.verdict).toBe('warn');
  expect(err4.verdict).toBe('warn');
  expect(err3.warnings[0]?.text).toMatch(/key partner-b: 1 request sent before the Retry-After 2 s of its last 429 had passed \(exchange \d+, GET \/pets\); the first \(exchange \d+, the same request again\) 1\.\d\d s early/);
  expect(err4.warnings.map((note) => note.text).join('\n')).not.toContain('partner-a');
  expect(err3.warnings.map((note) => note.text).join('\n')).not.toContain('partner-a');
  expect(err3.evidence[0]).toMatchObject({ request: { method: 'GET', url: '/pets' }, response: { status: 429, headers: { 'retry-after': '2' } } });
  const part = err3.observations.map((note) => note.text);
  expect(part[1]).toMatch(/^client of key partner-b broke ERR-3: 3 429s not waited out \(3 requests sent before Retry-After passed\), of 5 requests and 4 429s; worst: key partner-b/);
  expect(part[2]).toBe('the other 1 key: 5 requests, 2 429s, no breach of ERR-3');
  // A log gives neither connections nor the client's clock: the judge says the allowance alone read each crossing.
  expect(part[3]).toMatch(/^\d+ requests sent within a 429's wait, each read as left after the 429 reached its client or not by the allowance \(0\.10 s after the 429's answer, where nothing else told\) for \d+: the capture gives neither the connection a request came on nor the client's own clock, so only the allowance could tell$/);
  // The service's verdict is the service's: a client's breach is a SHOULD of the client, never a MUST failure.
  expect(report.verdict.failedMust).toEqual([]);
});

test('ERR-4 a burst sent into the wait of one 429 is a repeat while refused', async () => {
  const report = await judge(log([
    { key: 'burst', at: 0, status: 429, retryAfter: '3' },
    { key: 'burst', at: 500 },
    { key: 'burst', at: 600 },
    { key: 'burst', at: 700, url: '/v1/pets?status=sold' },
  ]));
  expect(row(report, 'ERR-4').warnings[0]?.text).toMatch(/^\[ERR-[34]\] key burst: 3 requests sent while refused, within 3.00 s of the 429 of exchange 1 \(Retry-After 3\): requests repeated while refused/);
  expect(row(report, 'ERR-3').warnings[0]?.text).toContain('3 requests sent before the Retry-After 3 s');
});

test('ERR-4 retries after consecutive refusals whose waits do not grow are named; a jittered growing backoff is not', async () => {
  const flat: Line[] = [];
  const growing: Line[] = [];
  const jitter = [0.6, 0.1, 0.9, 0.3, 0.7, 0.2, 0.5, 0.4];
  let flatAt = 0;
  let growingAt = 0;
  for (let i = 0; i < 8; i++) {
    flat.push({ key: 'fixed-interval', at: flatAt, status: 429, retryAfter: '1' });
    flatAt += 1_200;
    growing.push({ key: 'backoff', at: growingAt, status: 429, retryAfter: '1' });
    // Retry-After, then full jitter below a ceiling that doubles: a wait may be shorter than the one before.
    growingAt += 1_000 + Math.round((jitter[i] as number) * 250 * 2 ** i) + 5;
  }
  flat.push({ key: 'fixed-interval', at: flatAt });
  growing.push({ key: 'backoff', at: growingAt });
  const report = await judge(log([...flat, ...growing]));
  const err4 = row(report, 'ERR-4');
  expect(err4.warnings.map((note) => note.text)).toEqual([expect.stringMatching(/^\[ERR-4\] key fixed-interval: 8 retries refused in a row \(429s of exchanges \d+ to \d+\) waited (1\.20 s, ){7}1\.20 s; beyond Retry-After, the last 4 waited 0\.78 s in all and the first 4 0\.78 s: the waits do not grow, no backoff$/)]);
  expect(row(report, 'ERR-3').verdict).toBe('pass');
});

test('ERR-3 a Retry-After given as an HTTP-date is read as a date, against the answer\'s Date header or, without one, within the clock skew', async () => {
  const date = new Date(T0 + 100).toUTCString();
  const until = new Date(T0 + 3_100).toUTCString();
  const early = await judge(log([{ key: 'dated', at: 100, status: 429, retryAfter: until, date }, { key: 'dated', at: 1_500 }]));
  expect(row(early, 'ERR-3').warnings[0]?.text).toMatch(/Retry-After .* GMT, 3\.00 s of its last 429/);
  const patientOne = await judge(log([{ key: 'dated', at: 100, status: 429, retryAfter: until, date }, { key: 'dated', at: 3_200 }]));
  expect(row(patientOne, 'ERR-3').verdict).toBe('pass');
  // No Date header: the date is the target's clock, the log's time the capture's. Two seconds early is a breach
  // with a second of skew allowed, and not with ten.
  const undated = log([{ key: 'dated', at: 100, status: 429, retryAfter: new Date(T0 + 6_000).toUTCString() }, { key: 'dated', at: 3_000 }]);
  expect(row(await judge(undated, 1_000), 'ERR-3').verdict).toBe('warn');
  expect(row(await judge(undated, 10_000), 'ERR-3').verdict).toBe('pass');
});

test('ERR-3 partial traffic never invents a breach: requests left out, or sent at a time the capture does not give', async () => {
  const whole = [...patient('partner-a', 0), ...patient('partner-a', 10_000)];
  for (let skip = 0; skip < whole.length; skip++) {
    const report = await judge(log(whole.filter((_, i) => i !== skip)));
    expect(row(report, 'ERR-3').warnings, `without line ${skip}`).toEqual([]);
    expect(row(report, 'ERR-4').warnings, `without line ${skip}`).toEqual([]);
  }
  // A log without durations: the request answered 20 ms after the 429 may have left before it came back.
  const undated = await judge(log(hammering('partner-b', 0).map((line) => ({ ...line, duration: '' }))));
  expect(row(undated, 'ERR-3').warnings).toEqual([]);
  expect(row(undated, 'ERR-3').verdict).toBe('partly-checked');
  expect(row(undated, 'ERR-3').reason).toContain('whose send time the capture does not give');
});

test('ERR-3 a request already on its way when the 429 came back is not early, and the key\'s last 429 is the one that counts', async () => {
  const report = await judge(log([
    // Sent at 50 ms (answered at 250), before the 429 of 100 ms reached its client.
    { key: 'concurrent', at: 100, status: 429, retryAfter: '5' },
    { key: 'concurrent', at: 250, duration: '0.200' },
    // 50 ms after the 429 was answered: it may have crossed the 429 on the wire.
    { key: 'concurrent', at: 160, duration: '0.010' },
    // A later 429 of the same key asks for no wait: a request after it is on time.
    { key: 'concurrent', at: 400, duration: '0.300', status: 429, retryAfter: '0' },
    { key: 'concurrent', at: 600 },
  ]));
  expect(row(report, 'ERR-3').verdict).toBe('pass');
});

test('ERR-3 a browser HAR is judged too: the same request resent 150 ms after its 429', async () => {
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: [0, 250].map((offset, i) => ({
        startedDateTime: new Date(T0 + offset).toISOString(),
        time: 100,
        request: { method: 'GET', url: 'https://api.example/v1/pets', headers: [{ name: 'Authorization', value: 'Bearer some-partner-key' }], httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: 0 },
        response: { status: i === 0 ? 429 : 200, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], content: { size: 0, mimeType: 'application/json' }, redirectURL: '', headersSize: -1, bodySize: 0, headers: i === 0 ? [{ name: 'Retry-After', value: '2' }] : [] },
        cache: {},
        timings: { send: 0, wait: 100, receive: 0 },
      })),
    },
  };
  const file = join(tempDir('clients-har'), 'browser.har');
  writeFileSync(file, JSON.stringify(har));
  const report = await judge(file);
  expect(row(report, 'ERR-3').warnings[0]?.text).toMatch(/^\[ERR-[34]\] key unknown-1: 1 request sent before the Retry-After 2 s .* the same request again\) 1\.85 s early/);
  expect(JSON.stringify(report)).not.toContain('some-partner-key');
});

test('ERR-4 a key refused all day is judged in runs of at most a thousand retries, so the judge keeps no more of it', async () => {
  const lines: Line[] = Array.from({ length: 2_001 }, (_, i) => ({ key: 'all-day', at: i * 1_200, status: 429, retryAfter: '1' }));
  const warnings = row(await judge(log(lines)), 'ERR-4').warnings.map((note) => note.text);
  expect(warnings).toEqual([expect.stringContaining('key all-day: 1000 retries refused in a row'), expect.stringContaining('key all-day: 1000 retries refused in a row')]);
});

test('ERR-4 a capture without a run of eight refused retries leaves whether backoff grows unchecked, never passed', async () => {
  const report = await judge(log(patient('partner-a', 0)));
  expect(row(report, 'ERR-3').verdict).toBe('pass');
  expect(row(report, 'ERR-4').verdict).toBe('partly-checked');
  expect(row(report, 'ERR-4').reason).toContain('whether backoff grows: no key had a run of 8 retries refused in a row');
});
