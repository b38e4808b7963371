/**
 * RESP-3 from captures: a request the capture holds without an answer, while other requests to its operation
 * were answered, fails it with that exchange as evidence; nginx's 444 (closed without an answer) and a 499 after a
 * long wait, a HAR entry of status 0 with a connection's cause. A 499 after a short wait or a status 0 without a
 * cause (the client may have ended it) leaves RESP-3 partly checked; so does a request to an operation the capture
 * never saw answered (a target down). No other rule is judged on such an entry.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { HarEntry } from '../../lib/capture/types.ts';
import { harEntries, SAMPLE_HAR } from '../replay/support.ts';
import { failures, judged, tempDir, verdictOf } from './support.ts';

const T0 = 1_795_000_000;

function line(seconds: number, url: string, status: number, duration = 0.004): string {
  const body = status === 200 ? '[]' : '';
  return JSON.stringify({ time: T0 + seconds, duration, method: 'GET', url, status, responseHeaders: status === 200 ? { 'content-type': 'application/json' } : {}, responseBody: body });
}

async function judgeLines(lines: string[]) {
  const file = join(tempDir('unanswered'), 'gateway.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return judged(file);
}

const answeredLists = [line(0, '/v1/pets', 200), line(1, '/v1/pets?limit=5', 200), line(2, '/v1/pets', 200)];

test("nginx's 444 to a list request, while others were answered, fails RESP-3 with that exchange; nothing else is judged on it", async () => {
  const report = await judgeLines([...answeredLists, line(3, '/v1/pets?status=sold', 444, 0.01)]);
  expect(verdictOf(report, 'RESP-3')).toBe('fail');
  expect(failures(report)['RESP-3']).toMatch(/got none to GET \/pets\?status=sold: the server closed the connection without an answer \(444\) after 10 ms, while other requests to listPets were answered \(exchange 4\)/);
  const row = report.rules.find((each) => each.id === 'RESP-3');
  expect((row?.evidence[0]?.response as { status: number }).status).toBe(444);
  expect(verdictOf(report, 'RESP-1'), 'a 444 is no response, so no undocumented status').not.toBe('fail');
});

test('a 499 after a long wait fails RESP-3; after a short one, or without its duration, RESP-3 is partly checked', async () => {
  expect(verdictOf(await judgeLines([...answeredLists, line(30, '/v1/pets', 499, 20)]), 'RESP-3')).toBe('fail');
  const withoutDuration = JSON.stringify({ ...JSON.parse(line(3, '/v1/pets', 499)), duration: undefined });
  expect(verdictOf(await judgeLines([...answeredLists, withoutDuration]), 'RESP-3')).toBe('partly-checked');
  const report = await judgeLines([...answeredLists, line(3, '/v1/pets', 499, 0.2)]);
  expect(verdictOf(report, 'RESP-3')).toBe('partly-checked');
  expect(report.rules.find((row) => row.id === 'RESP-3')?.unchecked.map((note) => note.text).join(' ')).toContain('the client may have ended itself');
});

test('a request without an answer to an operation never answered in the capture leaves RESP-3 partly checked: a target down is not a dropped request', async () => {
  const report = await judgeLines([...answeredLists, line(3, '/v1/store/orders', 444)]);
  expect(verdictOf(report, 'RESP-3')).toBe('partly-checked');
});

test("a HAR entry of status 0 with a connection's cause fails RESP-3; without a cause after a short wait it is not counted either way", async () => {
  const sample = harEntries(SAMPLE_HAR);
  const index = sample.findIndex((entry) => entry.request.method === 'GET' && new URL(entry.request.url).pathname.endsWith('/pets') && entry.response.status === 200);
  const dropped = (extra: Record<string, unknown>): HarEntry[] => sample.map((entry, at) => (at === index ? { ...entry, time: 3, response: { ...entry.response, status: 0, headers: [], content: { size: 0, mimeType: '' }, ...extra } } : entry));
  const write = (entries: HarEntry[]): string => {
    const file = join(tempDir('unanswered-har'), 'dropped.har.ndjson');
    writeFileSync(file, `${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
    return file;
  };
  const reset = await judged(write(dropped({ _error: 'net::ERR_CONNECTION_RESET' })));
  expect(failures(reset)).toEqual({ 'RESP-3': expect.stringContaining('no response: net::ERR_CONNECTION_RESET after 3 ms') });
  const cancelled = await judged(write(dropped({})));
  expect(failures(cancelled)).toEqual({});
  expect(verdictOf(cancelled, 'RESP-3')).toBe('partly-checked');
});
