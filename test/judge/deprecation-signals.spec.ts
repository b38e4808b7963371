/**
 * VER-3 from traffic: only getPet is deprecated, so an answer of any other operation that signals a deprecation
 * (a Deprecation or Sunset header, a Link of rel="deprecation" or "sunset") fails it, wherever the capture holds
 * one; getPet's own signals are DEP-2, -3, -4's, and none is required of it (DEP-GAP-1). A log that does not write
 * those headers at all leaves VER-3 partly checked, never passed. The real captures (Debian's nginx's log, the
 * shipped recording with a fault's edits) are judged in gateway-log.spec.ts and fault-traffic.spec.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { failures, judged, tempDir, verdictOf } from './support.ts';

const START = 4_000_000_000;
const SIGNALS = { deprecation: '', sunset: '', link: '' };

function line(index: number, method: string, url: string, status: number, signals: Record<string, string> = {}): Record<string, unknown> {
  return {
    time: (START + index / 10).toFixed(3),
    duration: '0.002',
    method,
    url,
    status: String(status),
    requestHeaders: { authorization: status === 401 ? '' : 'Bearer $PETSTORE_API_KEY_PRO' },
    responseHeaders: { 'content-type': 'application/json', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(299 - index), 'x-ratelimit-reset': String(START + 50), ...SIGNALS, ...signals },
  };
}

async function judge(lines: Array<Record<string, unknown>>) {
  const file = join(tempDir('deprecation'), 'access.log');
  writeFileSync(file, `${lines.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
  return judged(file);
}

const CORRECT = [
  line(0, 'GET', '/v1/pets?limit=5', 200),
  line(1, 'POST', '/v1/pets', 201),
  line(2, 'GET', '/v1/store/orders', 200),
  line(3, 'GET', '/v1/pets/7', 200, { deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version", </docs/deprecation>; rel="deprecation"' }),
  line(4, 'GET', '/v1/pets', 401),
];

test('signals on getPet alone pass VER-3; none on getPet passes too', async () => {
  expect(verdictOf(await judge(CORRECT), 'VER-3')).toBe('pass');
  expect(verdictOf(await judge(CORRECT.slice(0, 3)), 'VER-3')).toBe('pass');
});

test('a signal on an operation the interface keeps fails VER-3 alone, whichever header carries it and whatever the status', async () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['Deprecation on listPets', line(5, 'GET', '/v1/pets?limit=5', 200, { deprecation: '@1735689600' }), /GET \/pets\?limit=5: listPets, which the interface does not deprecate \(only getPet is\), answered 200 with deprecation: @1735689600/],
    ['Sunset on createPet', line(5, 'POST', '/v1/pets', 201, { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }), /createPet, .* answered 201 with sunset: Thu, 05 Dec 2030/],
    ['a deprecation Link on listOrders', line(5, 'GET', '/v1/store/orders', 200, { link: '</docs/orders>; rel="deprecation"' }), /listOrders, .* with link: <\/docs\/orders>; rel="deprecation"/],
    ['a sunset Link on a refused listPets', line(5, 'GET', '/v1/pets', 401, { link: '</docs>; rel="sunset"' }), /listPets, .* answered 401 with link/],
  ];
  for (const [what, wrong, message] of cases) {
    const found = failures(await judge([...CORRECT, wrong]));
    expect(Object.keys(found), what).toEqual(['VER-3']);
    expect(found['VER-3'], what).toMatch(message);
  }
});

test('a Link of another relation on listPets is no signal: a next page, a successor', async () => {
  const report = await judge([...CORRECT, line(5, 'GET', '/v1/pets?limit=5', 200, { link: '</v1/pets?limit=5&page=2>; rel="next"' })]);
  expect(failures(report)).toEqual({});
  expect(verdictOf(report, 'VER-3')).toBe('pass');
});

test('a log that does not write the signals\' headers leaves VER-3 partly checked, saying which it left out', async () => {
  const unlogged = CORRECT.map((entry) => {
    const { deprecation, sunset, link, ...logged } = entry.responseHeaders as Record<string, string>;
    return { ...entry, responseHeaders: logged };
  });
  const report = await judge(unlogged);
  expect(verdictOf(report, 'VER-3')).toBe('partly-checked');
  expect(report.rules.find((row) => row.id === 'VER-3')?.reason).toMatch(/a log that does not write deprecation, sunset, link \(not even empty\)/);
});
