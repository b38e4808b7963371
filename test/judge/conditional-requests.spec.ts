/**
 * Browsers, HTTP caches and many clients revalidate a GET they hold a copy of (If-None-Match, If-Modified-Since),
 * and servers whose framework sets an ETag (express, among others) answer 304 Not Modified, with no body. HTTP
 * documents that answer for every GET (RFC 9110 section 15.4.5); the spec's operations do not list it, and a
 * capture of a correct server revalidating was Not conforming on RESP-1. A 304 to a request that was not
 * conditional still fails RESP-1; where a log does not write the conditional headers, whether it was is not
 * known, and RESP-1 is partly checked for those answers, never failed or passed on them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { HarEntry } from '../../lib/capture/types.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { failures, judged, tempDir, verdictOf } from './support.ts';

const CAPTURES = join(import.meta.dirname, 'invariance', 'captures');
const ETAG = 'W/"7a-WdVHiR8UPJ3CQ4tXrI1cdA1oYEM"';

const verdicts = (report: ConformanceReport): Record<string, string> => Object.fromEntries(report.rules.map((rule) => [rule.id, rule.verdict]));

function written(name: string, lines: readonly unknown[]): string {
  const file = join(tempDir('conditional'), name);
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n'));
  return file;
}

/** Every 10th GET answered 200 of the recorder's HAR of a correct load run, asked again with its ETag and answered 304 without a body. */
function revalidatedHar(conditional: boolean): string {
  const entries = readFileSync(join(CAPTURES, 'load-run.har.ndjson'), 'utf8').trim().split('\n').map((text) => JSON.parse(text) as HarEntry);
  let revalidated = 0;
  const lines = entries.map((entry, index) => {
    if (index % 10 !== 5 || entry.request.method !== 'GET' || entry.response.status !== 200) return entry;
    revalidated++;
    return {
      ...entry,
      request: { ...entry.request, headers: [...entry.request.headers, ...(conditional ? [{ name: 'If-None-Match', value: ETAG }] : [])] },
      response: {
        ...entry.response,
        status: 304,
        statusText: 'Not Modified',
        headers: [...entry.response.headers.filter((header) => header.name.toLowerCase() !== 'content-type'), { name: 'ETag', value: ETAG }],
        content: { size: 0, mimeType: 'x-unknown' },
        bodySize: 0,
      },
    };
  });
  expect(revalidated).toBeGreaterThan(10);
  return written(conditional ? 'revalidated.har.ndjson' : 'unasked.har.ndjson', lines);
}

test('a HAR of a correct run whose client revalidated its copies (If-None-Match, answered 304) gets the verdict of the run itself; 304s to requests that asked nothing conditional fail RESP-1', async () => {
  const run = await judged(join(CAPTURES, 'load-run.har.ndjson'));
  const revalidated = await judged(revalidatedHar(true));
  expect(failures(revalidated)).toEqual({});
  expect(verdicts(revalidated)).toEqual(verdicts(run));

  expect(Object.keys(failures(await judged(revalidatedHar(false))))).toEqual(['RESP-1']);
});

/** The gateway's log of a correct run with every 8th admitted answer a 304, the line writing If-None-Match as `logged` says. */
function revalidatedLog(logged: 'value' | 'empty' | 'not-written'): string {
  const lines = readFileSync(join(CAPTURES, 'nginx-two-windows.log'), 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Record<string, unknown>);
  return written(`${logged}.log`, lines.map((line, index) => {
    const requestHeaders = line.requestHeaders as Record<string, string>;
    const revalidating = index % 8 === 3 && line.status === '200';
    const ifNoneMatch = logged === 'not-written' ? {} : { 'if-none-match': revalidating && logged === 'value' ? ETAG : '' };
    return { ...line, ...(revalidating ? { status: '304' } : {}), requestHeaders: { ...requestHeaders, ...ifNoneMatch } };
  }));
}

test("a gateway's log with 304s: passes RESP-1 where the line writes the request's If-None-Match, leaves it partly checked, saying why, where the log writes no such header, and fails it where the header was logged empty", async () => {
  expect(failures(await judged(revalidatedLog('value')))).toEqual({});

  const unknown = await judged(revalidatedLog('not-written'));
  expect(failures(unknown)).toEqual({});
  expect(verdictOf(unknown, 'RESP-1')).toBe('partly-checked');
  expect(JSON.stringify(unknown.rules.find((rule) => rule.id === 'RESP-1')?.unchecked)).toContain('writes neither If-None-Match nor If-Modified-Since');

  expect(Object.keys(failures(await judged(revalidatedLog('empty'))))).toEqual(['RESP-1']);
});
