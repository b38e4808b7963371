/**
 * The judge's fields of a HAR entry read from its bytes (judged-field-index.ts, judged-fields.ts) are what JSON.parse of
 * the whole entry gives for them; an entry the walk cannot vouch for is left to JSON.parse, never read half-way.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from '@playwright/test';
import { JudgedFieldIndex } from '../../lib/capture/judged-field-index.ts';
import { judgedHarEntry, type JudgedHarEntry } from '../../lib/capture/judged-fields.ts';
import { RecurringBytes, RecurringStrings } from '../../lib/capture/recurring-strings.ts';
import { STARTED_MS_READ } from '../../lib/capture/started-read-in-place.ts';
import { readyForJudging } from '../../lib/capture/record-ready.ts';
import { captureTimeMs } from '../../lib/capture-time.ts';
import { judgedOf } from './judged-of.ts';
import { SAMPLE_HAR } from './support.ts';

/** The recurring texts' tables of one reading: the reading thread's and the judging thread's. */
interface Reading {
  bytes: RecurringBytes;
  strings: RecurringStrings;
}

function newReading(): Reading {
  return { bytes: new RecurringBytes(), strings: new RecurringStrings() };
}

/**
 * The entry's text read by the index, here within `prefix` and `suffix` (other bytes of a chunk): its fields, or
 * 'parsed whole'. `reading`: the tables of the entries read before, which recur.
 */
function read(text: string, walking: boolean, reading = newReading(), prefix = '  ', suffix = ',\n  {"next": 1}'): JudgedHarEntry | 'parsed whole' {
  const bytes = Buffer.from(`${prefix}${text}${suffix}`);
  const start = Buffer.byteLength(prefix);
  const end = start + Buffer.byteLength(text);
  const index = new JudgedFieldIndex();
  const record = index.add(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), start, walking ? bytes.length : end, walking);
  if (record === -1) return 'parsed whole';
  if (walking) expect(index.entryEnd, 'where the walk says the entry ends').toBe(end);
  const records = index.take();
  readyForJudging(records, record, start, bytes, reading.bytes);
  return judgedHarEntry(bytes, records, record, reading.strings);
}

const ENTRY = {
  startedDateTime: '2026-11-29T08:00:00.123Z',
  time: 12.5,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:8080/v1/pets?name=caf%C3%A9',
    httpVersion: 'HTTP/1.1',
    headers: [
      { name: 'Authorization', value: 'Bearer $PETSTORE_API_KEY_PRO#3' },
      { name: 'content-type', value: 'application/json' },
      { name: 'x-empty', value: '' },
    ],
    queryString: [{ name: 'name', value: 'café' }],
    postData: { mimeType: 'application/json', text: '{"name":"Rex \\"the\\" dog","tag":"ünïcødé ✓","n":[1,2.5e3,-0]}' },
  },
  response: {
    status: 201,
    statusText: 'Created',
    headers: [
      { name: 'content-type', value: 'application/json; charset=utf-8' },
      { name: 'x-ratelimit-remaining', value: '299' },
    ],
    content: { size: 40, mimeType: 'application/json', text: '{"id":9007199254740993,"name":"Rex"}' },
    redirectURL: '',
  },
  cache: {},
  timings: { send: 0, wait: 12.5, receive: 0 },
};

/** Entries the judge reads as HAR entries, each in a shape the index must read as JSON.parse does. */
const READ: Array<[string, unknown]> = [
  ['a whole entry, escapes and characters beyond ASCII in its bodies', ENTRY],
  ['a body in base64', { ...ENTRY, response: { ...ENTRY.response, content: { encoding: 'base64', text: Buffer.from('{"id":1}').toString('base64') } } }],
  ['a browser cache hit', { ...ENTRY, _fromCache: 'memory' }],
  ['an answer that never came, with its causes', { ...ENTRY, response: { status: 0, headers: [], _error: 'net::ERR_CONNECTION_RESET' }, _error: 'net::ERR_FAILED' }],
  ['no headers, no body, no time', { startedDateTime: ENTRY.startedDateTime, request: { method: 'GET', url: 'http://h/v1/pets' }, response: { status: 200 } }],
  ['empty lists and objects', { startedDateTime: ENTRY.startedDateTime, time: 0, request: { method: 'GET', url: 'http://h/v1/pets', headers: [], postData: {} }, response: { status: 200, headers: [], content: {} } }],
  ['headers without a value, or with a value that is not a string', { ...ENTRY, request: { ...ENTRY.request, headers: [{ name: 'a' }, { name: 'b', value: null }, { name: 'c', value: 7 }, { name: 'd', value: true }, { name: 'e', value: '\u00e9' }] } }],
  ['a header written again, in another case, and names spelt with escapes or beyond ASCII', { ...ENTRY, response: { ...ENTRY.response, headers: [{ name: 'Vary', value: 'a' }, { name: 'vary', value: 'b' }, { name: 'VARY', value: '' }, { name: 'X-\u00c9t\u00e9', value: '1' }, { name: 'x-"q"', value: '2' }] } }],
  ['fields of other types than a HAR writes', { ...ENTRY, startedDateTime: 1_764_403_200, time: '3', response: { ...ENTRY.response, status: '200', content: { text: { not: 'a string' } } } }],
  ['numbers of every JSON form', { ...ENTRY, time: -1.5e-3, response: { ...ENTRY.response, status: 2e2 } }],
  ['escapes in a URL and a header', { ...ENTRY, request: { ...ENTRY.request, url: 'http://h/v1/pets?q=a\tb\u0001\u2028', headers: [{ name: 'x-quote', value: 'say "hi" \\ / \b\f\n\r' }] } }],
  ['names the judge does not read, beyond ASCII or escaped inside a value it passes over', { ...ENTRY, comment: 'a \\u0072equest', 'tim\u00e9': 1, timings: { '\u0000odd': { deep: [[[{}]]] } } }],
];

for (const [what, entry] of READ) {
  test(`${what}: the judged fields read from the bytes are those JSON.parse gives`, () => {
    const expected = judgedOf(entry as Record<string, unknown>);
    for (const text of [JSON.stringify(entry), JSON.stringify(entry, null, 2), JSON.stringify(entry, null, '\t').replaceAll('\n', '\r\n')]) {
      expect(read(text, false), 'an entry whose end is known').toEqual(expected);
      expect(read(text, true), 'an entry walked in its chunk').toEqual(expected);
    }
  });
}

/** Entries the index leaves to JSON.parse: not JSON, or a shape the judge reads otherwise. */
const PARSED_WHOLE: Array<[string, string]> = [
  ['a line of the exchange format (no request object)', '{"time": 1, "method": "GET", "url": "/v1/pets", "status": 200}'],
  ['a request that is an array', '{"request": [], "response": {"status": 200}}'],
  ['no response', '{"request": {"method": "GET"}}'],
  ['headers as an object of names', '{"request": {"method": "GET", "headers": {"a": "b"}}, "response": {"status": 200}}'],
  ['headers as null', '{"request": {"method": "GET", "headers": null}, "response": {"status": 200}}'],
  ['a header that is not an object', '{"request": {"method": "GET", "headers": ["a: b"]}, "response": {"status": 200}}'],
  ['a header without a name', '{"request": {"method": "GET", "headers": [{"value": "v"}]}, "response": {"status": 200}}'],
  ['a header whose name is not a string', '{"request": {"method": "GET"}, "response": {"status": 200, "headers": [{"name": "a", "value": "b"}, {"name": 7, "value": "v"}]}}'],
  ['a header whose value is an object', '{"request": {"method": "GET", "headers": [{"name": "a", "value": {"toString": 1}}]}, "response": {"status": 200}}'],
  ['a header whose value is an array', '{"request": {"method": "GET", "headers": [{"name": "a", "value": []}]}, "response": {"status": 200}}'],
  ['postData that is a string', '{"request": {"method": "GET", "postData": "x"}, "response": {"status": 200}}'],
  ['a judged name written twice', '{"request": {"method": "GET", "method": "POST"}, "response": {"status": 200}}'],
  ['a name with an escape beside the judged ones (it might spell one)', '{"request": {"method": "GET"}, "response": {"status": 200}, "\\u0000": 1}'],
  ['a judged name spelt with an escape', '{"req\\u0075est": {"method": "GET"}, "request": {"method": "POST"}, "response": {"status": 200}}'],
  ['a trailing comma', '{"request": {"method": "GET",}, "response": {"status": 200}}'],
  ['a control character in a string', '{"request": {"method": "G\tET"}, "response": {"status": 200}}'],
  ['a bad escape', '{"request": {"method": "G\\xET"}, "response": {"status": 200}}'],
  ['a short \\u escape', '{"request": {"method": "G\\u00E"}, "response": {"status": 200}}'],
  ['a number with a leading zero', '{"request": {"method": "GET"}, "response": {"status": 0200}}'],
  ['a number without digits after its point', '{"request": {"method": "GET"}, "response": {"status": 200.}}'],
  ['a misspelt literal', '{"request": {"method": "GET"}, "response": {"status": 200, "x": nul}}'],
  ['a missing colon', '{"request": {"method" "GET"}, "response": {"status": 200}}'],
  ['nesting deeper than the walk follows', `{"request": {"method": "GET"}, "response": {"status": 200}, "x": ${'['.repeat(600)}${']'.repeat(600)}}`],
];

for (const [what, text] of PARSED_WHOLE) {
  test(`${what}: the entry is left to JSON.parse`, () => {
    expect(read(text, false)).toBe('parsed whole');
    expect(read(text, true)).toBe('parsed whole');
  });
}

test('numbers in every JSON form read as JSON.parse reads them', () => {
  const text = '{"time": -1.5E+2, "request": {"method": "GET", "url": 0}, "response": {"status": 2e2, "_error": -0.0e-0}, "_error": 12345678901234567890}';
  expect(read(text, true)).toEqual(judgedOf(JSON.parse(text) as Record<string, unknown>));
  // Whole numbers of up to nine digits are read by the walk; longer ones, negative ones and -0 as any other.
  const whole = '{"time": 999999999, "request": {"method": "GET", "url": -0, "headers": [{"name": "n", "value": 1000000000}]}, "response": {"status": 0, "_error": -7}, "_error": 4294967296}';
  expect(read(whole, true)).toEqual(judgedOf(JSON.parse(whole) as Record<string, unknown>));
  expect(Object.is((read(whole, true) as JudgedHarEntry).request.url, -0), 'a URL of -0').toBe(true);
});

test('a startedDateTime read as a time where it is read is the instant captureTimeMs reads of it; any other is left as written', () => {
  const readAs = (startedDateTime: unknown): JudgedHarEntry => read(JSON.stringify({ ...ENTRY, startedDateTime }), true) as JudgedHarEntry;
  // Before 1970, beyond 2^32 ms, the year 9999, a fraction beyond milliseconds, an offset, a space for the T, escapes.
  for (const time of ['1969-12-31T23:59:59.999Z', '2026-11-29T08:00:00.123Z', '9999-12-31T23:59:59.999Z', '2026-11-29T08:00:00.1239Z', '2026-11-29 09:30:00,5+01:30', '2026-11-29T08:00:00Z\n']) {
    const entry = readAs(time);
    expect(entry[STARTED_MS_READ], time).toBe(captureTimeMs(time));
    expect(entry.startedDateTime, time).toBeUndefined();
  }
  for (const written of ['yesterday', '2026-11-29T25:00:00.000Z', '', 'caf\u00e9', 1_764_403_200, null]) {
    const entry = readAs(written);
    expect(entry[STARTED_MS_READ], String(written)).toBeUndefined();
    expect(entry.startedDateTime, String(written)).toBe(written);
  }
});

test('an entry cut by its chunk\'s end is left to the scanner, wherever the cut falls', () => {
  const text = JSON.stringify(ENTRY, null, 2);
  const readAnyway = Array.from({ length: text.length - 1 }, (_, index) => index + 1).filter((cut) => read(text.slice(0, cut), true, newReading(), '', '') !== 'parsed whole');
  expect(readAnyway, 'cuts after which the entry was read').toEqual([]);
});

test('every entry of the sample HAR reads as JSON.parse reads it, one after another as a reading gives them', () => {
  const entries = (JSON.parse(readFileSync(SAMPLE_HAR, 'utf8')) as { log: { entries: Array<Record<string, unknown>> } }).log.entries;
  expect(entries.length).toBeGreaterThan(0);
  const reading = newReading();
  for (const entry of [...entries, ...entries]) expect(read(JSON.stringify(entry, null, 2), true, reading)).toEqual(judgedOf(entry));
});

test('texts that recur, that take one another\'s place in the table within an entry and across entries, read as written', () => {
  // 5,000 texts cycled through a table of 4,096 places: many share a place, in one entry and the next.
  const reading = newReading();
  const wrong: number[] = [];
  for (let n = 0; n < 200; n++) {
    const headers = Array.from({ length: 16 }, (_, at) => ({ name: at % 2 === 0 ? 'X-Count' : `x-${(n * 7 + at) % 5_000}`, value: `${(n * 13 + at * 977) % 5_000}` }));
    const entry = { ...ENTRY, request: { ...ENTRY.request, method: n % 3 === 0 ? 'GET' : 'POST', url: `http://h/v1/pets/${n % 300}`, headers }, response: { ...ENTRY.response, headers: [...headers].reverse() } };
    if (!isDeepStrictEqual(read(JSON.stringify(entry), true, reading), judgedOf(entry))) wrong.push(n);
  }
  expect(wrong, 'entries read otherwise').toEqual([]);
});

test('strings with every escape and beyond ASCII, decoded where they sit, read as JSON.parse reads them, and recur as the same text', () => {
  // As JSON text: escapes of one, two and three UTF-8 bytes in either case, surrogate pairs, lone surrogates (left to JSON.parse).
  const strings = [
    '"say \\"hi\\" \\\\ \\/ \\b\\f\\n\\r\\t"',
    '"\\u0041\\u00e9\\u00C9\\u07ff\\u0800\\u20AC\\uffff\\u0000"',
    '"café ✓ 😀"',
    '"\\ud83d\\ude00 a pair"',
    '"\\ud83d alone"',
    '"\\ude00 alone, low"',
    '"[{\\"id\\":1,\\"name\\":\\"Réx\\"}]"',
    '"\\\\u0041 is not an escape"',
  ];
  const reading = newReading();
  for (const round of ['first', 'again, where it recurs']) {
    for (const string of strings) {
      const text = `{"startedDateTime": "2026-11-29T08:00:00.123Z", "request": {"method": "POST", "url": ${string}, "headers": [{"name": ${string}, "value": ${string}}], "postData": {"text": ${string}}}, "response": {"status": 200, "content": {"text": ${string}}}}`;
      expect(read(text, true, reading), `${string}, read ${round}`).toEqual(judgedOf(JSON.parse(text) as Record<string, unknown>));
    }
  }
  // The same text written with an escape and without reads as the same string (each held at a place of its own).
  const plain = '{"request": {"method": "GET", "url": "http://h/v1/A"}, "response": {"status": 200}}';
  const escaped = '{"request": {"method": "GET", "url": "http://h/v1/\\u0041"}, "response": {"status": 200}}';
  expect([plain, escaped, plain, escaped].map((text) => (read(text, true, reading) as JudgedHarEntry).request.url)).toEqual(['http://h/v1/A', 'http://h/v1/A', 'http://h/v1/A', 'http://h/v1/A']);
});
