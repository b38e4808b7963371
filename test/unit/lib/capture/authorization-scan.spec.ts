import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { harCarriesAuthorization } from '../../../../lib/capture/authorization-scan.ts';

/** The scan reads 1 MB at a time: a header name placed across that edge must still be found. */
const PIECE = 1 << 20;

let folder: string;
test.beforeAll(() => (folder = mkdtempSync(path.join(tmpdir(), 'authorization-scan-'))));
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A HAR-like document whose header (`{"name": …}`) starts `at` bytes in, after text of two-byte UTF-8 characters. */
function document(header: string, at = 0): string {
  const file = path.join(folder, `${Math.random().toString(36).slice(2)}.har`);
  const before = (filler: string): string => `{"log":{"comment":"${filler}","entries":[{"request":{"headers":[`;
  const room = Math.max(0, at - Buffer.byteLength(before('')));
  writeFileSync(file, `${before(`${'é'.repeat(Math.floor(room / 2))}${'a'.repeat(room % 2)}`)}${header}]}}]}}`);
  return file;
}

test('an Authorization header is found in any case, with JSON whitespace around the colon', () => {
  for (const name of ['Authorization', 'authorization', 'AUTHORIZATION', 'aUtHoRiZaTiOn']) expect(harCarriesAuthorization(document(`{"name": "${name}", "value": "Bearer k"}`)), name).toBe(true);
  expect(harCarriesAuthorization(document('{"name"\n\t :  "Authorization", "value": "Bearer k"}'))).toBe(true);
});

test('a HAR whose entries carry no Authorization header, only other headers or the word as a value, is sanitized', () => {
  expect(harCarriesAuthorization(document('{"name": "Cookie", "value": "a=b"}, {"name": "X-Authorization-Hint", "value": "authorization"}'))).toBe(false);
  expect(harCarriesAuthorization(document('{"name": "Proxy-Authorization", "value": "Basic k"}'))).toBe(false);
  expect(harCarriesAuthorization(document('', 2 * PIECE))).toBe(false);
});

test('a header name cut by the edge of a piece read is found, wherever it is cut', () => {
  // `"name": "Authorization"` is the 23 bytes after the header's `{`: the edge falls before them, within them, after.
  for (const offset of [-26, -24, -20, -12, -5, -1, 0]) expect(harCarriesAuthorization(document('{"name": "Authorization", "value": "Bearer k"}', PIECE + offset)), `${offset}`).toBe(true);
});
