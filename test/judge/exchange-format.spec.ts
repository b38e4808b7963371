/**
 * The NDJSON exchange format (schemas/exchange.schema.json), as a gateway's log writes it: lines the schema
 * accepts are judged, what a line leaves out is not judged, contradictions in a key's windows fail their
 * rule whatever else the key sent, keys never reach the report, and bad input is one line with exit code 2.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { assertMatchesSchema } from '../support/report-schemas.ts';
import { ROOT } from '../replay/support.ts';
import { dashed } from './invariance/transformations.ts';
import { failures, judged, tempDir, verdictOf } from './support.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const validLine = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'exchange.schema.json'), 'utf8')) as object);

const KEY = 'a-pro-key-that-must-never-be-written';
const ENV = { PETSTORE_API_KEY_PRO: KEY };
const RESET = 4_000_000_000;

/** A line as nginx writes it: every variable a string, "" where the message had none. */
function line(at: number, status: number, remaining: number | '', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    time: (at / 1000).toFixed(3),
    duration: '0.002',
    method: 'GET',
    url: '/v1/pets?limit=5',
    status: String(status),
    requestHeaders: { authorization: `Bearer ${KEY}`, 'content-type': '' },
    requestBody: '',
    responseHeaders: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(RESET), 'retry-after': '', 'content-type': 'application/json' },
    ...extra,
  };
}

function capture(lines: Array<Record<string, unknown>>): string {
  for (const entry of lines) expect(validLine(entry), JSON.stringify(validLine.errors)).toBe(true);
  const file = join(tempDir('lines'), 'access.log');
  writeFileSync(file, lines.map((entry) => JSON.stringify(entry)).join('\n'));
  return file;
}

const START = RESET * 1000 - 50_000;

test('a log without bodies is judged on its headers; the rules of bodies are not judged, never passed', async () => {
  // Every other answer of the key: Remaining skips values, as when another proxy saw the rest.
  const report = await judged(capture([299, 297, 295, 293].map((remaining, i) => line(START + i * 100, 200, remaining))), ENV);
  expect(failures(report)).toEqual({});
  expect(verdictOf(report, 'RL-4')).toBe('pass');
  expect(verdictOf(report, 'RESP-2')).toBe('skipped');
  expect(report.rules.find((row) => row.id === 'LIST-3')?.reason).toContain('not judged');
  expect(verdictOf(report, 'RL-6')).toBe('partly-checked');
  expect(JSON.stringify(report)).not.toContain(KEY);
  expect(JSON.stringify(report)).toContain('pro-1');
});

test('a Remaining rising under one Reset is what a sliding counter does: its kind is observed, RL-6 partly checked, never failed', async () => {
  // 1.5 s apart, more than the clock skew: decided one after the other whatever the clocks.
  const report = await judged(capture([line(START, 200, 250), line(START + 1_500, 200, 251), line(START + 3_000, 200, 251), line(START + 4_500, 429, 0)]), ENV);
  expect(Object.keys(failures(report))).toEqual(['RL-1']);
  expect(verdictOf(report, 'RL-6')).toBe('partly-checked');
  expect(report.rules.find((row) => row.id === 'RL-6')?.unchecked.map((note) => note.text).join(' ')).toContain('the countdown of a sliding counter: it may keep Remaining still or raise it before Reset');
  expect(report.rules.find((row) => row.id === 'RL-GAP-2')?.observations.map((note) => note.text).join(' ')).toMatch(/key pro-1, Limit 300, as far as this traffic shows: sliding-counter .*Remaining 250 → 251, Reset 4000000000 → 4000000000: Remaining rose before Reset/);
});

/** An admitted answer of a Pro key naming its own Reset, as a limiter with windows or a bucket says it. */
function said(at: number, remaining: number, reset: number): Record<string, unknown> {
  return line(at, 200, remaining, { responseHeaders: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset), 'content-type': 'application/json' } });
}

test('where a whole quota came back at Reset (a fixed window), a Remaining said twice under one Reset fails RL-6 with the two exchanges; whole windows that count down pass', async () => {
  const before = RESET - 60;
  const lastWindow = [299, 298, 297].map((remaining, i) => said(before * 1000 - 10_000 + i * 100, remaining, before));
  const repeated = [299, 298, 298, 297].map((remaining, i) => said(START + i * 100, remaining, RESET));
  const report = await judged(capture([...lastWindow, ...repeated]), ENV);
  expect(Object.keys(failures(report))).toEqual(['RL-6']);
  expect(failures(report)['RL-6']).toMatch(/Limit 300: expected X-RateLimit-Remaining to fall from 298 to 297, got 298 .*the limiter is fixed-first-use: Remaining 297 → 299.* \(key pro-1; exchanges 5, 6\)/);
  expect(report.rules.find((row) => row.id === 'RL-GAP-2')?.observations.map((note) => note.text).join(' ')).toContain('key pro-1, Limit 300, as far as this traffic shows: fixed-first-use');
  // The same traffic without the repeat passes: every window whole, its countdown judged whole.
  const counted = await judged(capture([...lastWindow, ...repeated.filter((_, i) => i !== 2)]), ENV);
  expect(failures(counted)).toEqual({});
  expect(verdictOf(counted, 'RL-6')).toBe('pass');
});

test('a token bucket (Reset moving on as tokens are spent) whose Remaining rises faster than tokens come back fails RL-6; one that rises as they come back passes', async () => {
  // 300 a minute: a token every 200 ms; Reset is when the bucket is full again.
  const bucket = (at: number, remaining: number, reset = Math.ceil((at + (300 - remaining) * 200) / 1000)): Record<string, unknown> => said(at, remaining, reset);
  const spending = [200, 199, 198, 197, 196].map((remaining, i) => bucket(START + i * 300, remaining));
  const lastReset = Math.ceil((START + 1_200 + 104 * 200) / 1000);
  // More than the clock skew (1 s) after the last: two clocks cannot have swapped them.
  const report = await judged(capture([...spending, bucket(START + 2_600, 246, lastReset)]), ENV);
  expect(Object.keys(failures(report))).toEqual(['RL-6']);
  expect(failures(report)['RL-6']).toMatch(/Limit 300: expected X-RateLimit-Remaining to fall from 196 to 195 \(or up to 203, .*got 246; the limiter is a token bucket: .*\(key pro-1; exchanges 5, 6\)/);
  expect(failures(await judged(capture([...spending, bucket(START + 2_600, 202)]), ENV))).toEqual({});
});

test('more admissions under one Reset than its limit fail the plan, whatever order they were logged in; a Reset moving back, or forward as no bucket would, fails RL-7', async () => {
  const over = Array.from({ length: 301 }, (_, i) => line(START + (300 - i) * 10, 200, Math.max(0, 299 - i)));
  expect(failures(await judged(capture(over), ENV))['PLAN-PRO']).toMatch(/301 admitted under one Reset \(4000000000\) whose limit is 300.*key pro-1; exchanges/);
  const back = [line(START, 200, 100), line(START + 100, 200, 99, { responseHeaders: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': String(RESET - 2), 'content-type': 'application/json' } })];
  expect(failures(await judged(capture(back), ENV))['RL-7']).toContain(`expected X-RateLimit-Reset to stay at ${RESET} within the window (it had not ended), got ${RESET - 2}: it moved back`);
  // Forward, well before it came, to where no bucket of the Limit would be full again: judged once the capture ended.
  const forward = [said(START, 299, RESET), said(START + 100, 298, RESET), said(START + 200, 297, RESET + 30)];
  const moved = await judged(capture(forward), ENV);
  expect(Object.keys(failures(moved))).toEqual(['RL-7']);
  expect(failures(moved)['RL-7']).toContain(`got ${RESET + 30}: it moved forward, and is not when a bucket with 297 of 300 left would be full again, more than 2.0 s before the Reset it replaced (key pro-1; exchanges 2, 3)`);
});

test('answers near the Reset they name are not counted in their window: it may have ended, or several shared a second', async () => {
  const nearReset = RESET * 1000 - 1_500;
  const many = Array.from({ length: 301 }, (_, i) => line(nearReset + i, 200, Math.max(0, 299 - i)));
  expect(failures(await judged(capture(many), ENV))).toEqual({});
});

test('the command writes the reports and exits 3 for a capture that cannot certify; bad input is one line and exit 2', () => {
  const file = capture([line(START, 200, 299), line(START + 100, 200, 298)]);
  const output = tempDir('reports');
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'judge', file, '--output', output], { cwd: ROOT, env: { ...process.env, ...ENV }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(3);
  expect(run.stdout).toContain('Judged: Not certified');
  assertMatchesSchema('conformance-report', JSON.parse(readFileSync(join(output, 'conformance.json'), 'utf8')));
  expect(readFileSync(join(output, 'index.html'), 'utf8')).toContain('judged from traffic');
  expect(readFileSync(join(output, 'junit.xml'), 'utf8')).toContain('<testcase');
  for (const name of ['conformance.json', 'index.html', 'junit.xml']) expect(readFileSync(join(output, name), 'utf8')).not.toContain(KEY);

  const bad = join(tempDir('bad'), 'bad.log');
  writeFileSync(bad, `${JSON.stringify(line(START, 200, 299))}\n${JSON.stringify({ ...line(START, 200, 298), status: 'ok' })}\n`);
  const refused = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'judge', bad], { cwd: ROOT, encoding: 'utf8' });
  expect(refused.status).toBe(2);
  expect(refused.stderr.trim().split('\n')).toEqual(['petstore-conformance judge: bad.log: entry 2 has a "status" that is not an HTTP status from 100 to 599: "ok"']);
});

test('a window the capture holds whole whose Remaining promised more than it admitted (297 admitted of 300, counting down as if 300, then a 429 saying 0) fails RL-6; a capture that may have lost only its last admission does not', async () => {
  const admitted = Array.from({ length: 297 }, (_, i) => line(START + i * 20, 200, 299 - i));
  const refusal = line(START + 297 * 20 + 100, 429, 0, { responseHeaders: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(RESET), 'retry-after': '40', 'content-type': 'application/json' } });
  const report = await judged(capture([...admitted, refusal]), ENV);
  expect(failures(report)['RL-6']).toMatch(/admitted 297, each request the capture holds, its Remaining counting down to 3; then a request decided after the last of them was refused \(429\): X-RateLimit-Remaining promised 3 more than the window admitted/);
  // Counting down to 1: the admission saying 0 may be one the capture lost (a sampled log).
  const lostLast = Array.from({ length: 299 }, (_, i) => line(START + i * 20, 200, 299 - i));
  expect(failures(await judged(capture([...lostLast, { ...refusal, time: ((START + 299 * 20 + 100) / 1000).toFixed(3) }]), ENV))['RL-6']).toBeUndefined();
});

test("two gateways' answers 10 ms apart mid-window, the one saying more left logged later, are no sliding counter: within the clock skew either was decided first (RL-GAP-2 tells no kind from them)", async () => {
  const lines = [line(START, 200, 252), line(START + 1_500, 200, 250), line(START + 1_510, 200, 251), line(START + 3_000, 200, 249)];
  const report = await judged(capture(lines), ENV);
  expect(failures(report)).toEqual({});
  expect(report.rules.find((row) => row.id === 'RL-GAP-2')?.observations.map((note) => note.text).join(' ')).not.toContain('sliding-counter');
});

test("a log whose time counts milliseconds (as Kong's started_at does) is refused, exit 2, naming the entry and the unit, rather than failing the target's Resets as thousands of years past; the same lines in seconds fail nothing", async () => {
  const seconds = [line(START, 200, 299), line(START + 100, 200, 298)];
  const inMilliseconds = seconds.map((entry) => ({ ...entry, time: String(Math.round(Number(entry.time) * 1000)) }));
  const file = join(tempDir('ms'), 'kong.log');
  writeFileSync(file, inMilliseconds.map((entry) => JSON.stringify(entry)).join('\n'));
  for (const entry of inMilliseconds) expect(validLine(entry), 'the schema refuses a time in milliseconds too').toBe(false);
  await expect(judged(file, ENV)).rejects.toThrow(/kong\.log: entry 1 has a "time" of "\d{13}", after the year 5000 if read as Unix seconds: milliseconds or finer\?/);
  expect(failures(await judged(capture(seconds), ENV))).toEqual({});
});

/** A gateway's log of a correct run (test/judge/invariance/captures), as the how-to's recipe writes it. */
const TWO_WINDOWS = join(ROOT, 'test', 'judge', 'invariance', 'captures', 'nginx-two-windows.log');

test("a log whose format lacks escape=json, nginx's \"-\" for every variable without a value, gets the verdict of the same log written with \"\": no Deprecation or Sunset on listPets, a request without Authorization is one without a key; a listPets answer that carries Deprecation still fails VER-3", async () => {
  const lines = readFileSync(TWO_WINDOWS, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Record<string, unknown>);
  const first = lines[0] as { time: string; responseHeaders: Record<string, string> };
  const withoutKey = { ...first, key: '', plan: '', status: '401', requestHeaders: { authorization: '', 'content-type': '' }, responseHeaders: { ...first.responseHeaders, 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599' } };
  const run = [withoutKey, ...lines];
  const written = (name: string, entries: readonly unknown[]): string => {
    const file = join(tempDir('dashes'), name);
    writeFileSync(file, entries.map((entry) => JSON.stringify(entry)).join('\n'));
    return file;
  };
  const ruleVerdicts = (report: Awaited<ReturnType<typeof judged>>): Record<string, string> => Object.fromEntries(report.rules.map((rule) => [rule.id, rule.verdict]));
  const asJson = await judged(written('escape-json.log', run));
  const withDashes = await judged(written('escape-default.log', run.map(dashed)));
  expect(failures(withDashes)).toEqual({});
  expect(verdictOf(withDashes, 'AUTH-1')).toBe('pass');
  expect(ruleVerdicts(withDashes)).toEqual(ruleVerdicts(asJson));

  const deprecated = run.map((line, index) => (index === 10 ? { ...line, responseHeaders: { ...(line.responseHeaders as Record<string, string>), deprecation: '@1700000000' } } : line));
  expect(Object.keys(failures(await judged(written('deprecated.log', deprecated.map(dashed)))))).toEqual(['VER-3']);
});
