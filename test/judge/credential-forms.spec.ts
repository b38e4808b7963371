/**
 * What the judge takes for a key: only `Authorization: Bearer <key>` (the scheme in any case, one space or
 * more) carries one. A configured key in another form (another scheme, bare, after a space, Basic, in the
 * query) is a request without a valid key, and its 401 is right (AUTH-3), never an AUTH-5 failure.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { failures, judged, tempDir, verdictOf } from './support.ts';

const KEY = 'a-business-key-sent-in-every-form';
const ENV = { PETSTORE_API_KEY_BUSINESS: KEY };
const START = 4_000_000_000_000 - 50_000;

function line(index: number, authorization: string, status: number, url = '/v1/pets?limit=5'): string {
  return JSON.stringify({
    time: ((START + index * 10) / 1000).toFixed(3),
    duration: '0.002',
    method: 'GET',
    url,
    status: String(status),
    requestHeaders: { authorization },
    responseHeaders: { 'content-type': 'application/json', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': String(999 - index), 'x-ratelimit-reset': String(Math.floor(START / 1000) + 50) },
  });
}

function capture(lines: string[]): string {
  const file = join(tempDir('forms'), 'access.log');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const WRONG_FORMS = [`Token ${KEY}`, KEY, ` ${KEY}`, `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`, `Bearer`, `Bearer ${KEY} extra`];

test('a configured key in any form but a bearer token answered 401 fails nothing: AUTH-3 passes, AUTH-5 is judged only on bearer tokens', async () => {
  const lines = [
    ...WRONG_FORMS.map((authorization, i) => line(i, authorization, 401)),
    line(10, '', 401, `/v1/pets?api_key=${KEY}`),
    line(11, `Bearer ${KEY}`, 200),
    line(12, `Bearer   ${KEY}`, 200),
    line(13, `bearer ${KEY}`, 200),
  ];
  const report = await judged(capture(lines), ENV);
  expect(failures(report)).toEqual({});
  expect(verdictOf(report, 'AUTH-3')).toBe('pass');
  expect(verdictOf(report, 'AUTH-4')).toBe('pass');
  expect(verdictOf(report, 'AUTH-5')).toBe('pass');
  expect(verdictOf(report, 'AUTH-7')).toBe('pass');
  expect(verdictOf(report, 'AUTH-1')).toBe('pass');
});

test('a key in another scheme that is accepted fails AUTH-3; a bearer key refused fails AUTH-5, in lower case AUTH-7', async () => {
  const report = await judged(capture([line(0, `Token ${KEY}`, 200), line(1, `Bearer ${KEY}`, 401), line(2, `bearer ${KEY}`, 401)]), ENV);
  expect(Object.keys(failures(report)).sort()).toEqual(['AUTH-3', 'AUTH-5']);
  expect(verdictOf(report, 'AUTH-7')).toBe('warn');
  expect(failures(report)['AUTH-3']).toContain('with a credential in another scheme than Bearer, or without one was answered 200, not 401');
  expect(JSON.stringify(report)).not.toContain(KEY);
});
