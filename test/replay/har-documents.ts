/**
 * HAR documents the reader's tests read in every way it reads (here, on a worker thread, for the judge's fields alone):
 * entries of every kind, entries straddling the worker's 4 MiB chunks, and broken documents.
 */
import { hash } from 'node:crypto';
import { expect } from '@playwright/test';
import { FINGERPRINT_BYTES } from '../../lib/capture/har-entry-bytes.ts';
import { readCapture, type EntryFields, type ReadEntry } from '../../lib/capture/read.ts';
import { toJudgedExchange } from '../../harness/judge/capture-entry.ts';
import { KeyBook } from '../../harness/judge/key-book.ts';
import { readForTheJudge } from './judged-of.ts';

export const DOCUMENT = JSON.stringify(
  {
    log: {
      version: '1.2',
      creator: { name: 'browser', version: '1', comment: 'braces in strings: }]{["\\' },
      pages: [{ id: 'page_1', title: 'a ] page', pageTimings: { onLoad: -1 } }],
      entries: [
        { n: 1, text: 'quote \\" and } and ]', nested: { deep: [1, [2, [3]]] } },
        { n: 2, unicode: 'ünïcødé ✓', escaped: '\\\\' },
        { n: 3, empty: {}, list: [] },
      ],
      comment: null,
    },
  },
  null,
  2,
);

/** Documents the scanner refuses, with what it says. */
export const BROKEN: Array<[string, string, RegExp]> = [
  ['an empty file', '', /empty/],
  ['a JSON array', '[1, 2]', /not a HAR document: it starts with "\["/],
  ['a truncated document', DOCUMENT.slice(0, DOCUMENT.indexOf('"n": 3')), /ends before the HAR document does inside log.entries \(after entry 2\)/],
  ['no log', '{"entries": []}', /no "log" object/],
  ['no entries', '{"log": {"version": "1.2"}}', /no "entries" array/],
  ['an entry that is not an object', '{"log": {"entries": [{"a": 1}, 7]}}', /entry 2 is not an object/],
  ['a bad literal', '{"log": {"version": tru, "entries": []}}', /"tru" is not a JSON value/],
  ['data after the document', '{"log": {"entries": []}} {}', /after the end of the HAR document/],
];

/** Entries that straddle the worker's chunks of 4 MiB, one of them across a whole chunk, with characters beyond ASCII. */
export function straddlingDocument(): string {
  return JSON.stringify({ log: { entries: [3_000_000, 5_000_000, 10, 2_500_000].map((length, n) => ({ n, text: `ü${'x'.repeat(length)}✓` })) } }, null, 2);
}

/** A HAR entry as the recorder writes one, its answer's body about `length` characters long, escapes and characters beyond ASCII in it. */
function harEntry(n: number, length: number): object {
  const body = JSON.stringify({ id: n, name: `ü "${'x'.repeat(length)}" ✓` });
  return {
    startedDateTime: new Date(Date.UTC(2026, 10, 29, 8, 0, n)).toISOString(),
    time: n + 0.5,
    request: { method: 'POST', url: `http://127.0.0.1:1/v1/pets?n=${n}`, headers: [{ name: 'authorization', value: 'Bearer $PETSTORE_API_KEY_PRO' }], postData: { mimeType: 'application/json', text: body } },
    response: { status: 201, headers: [{ name: 'content-type', value: 'application/json' }], content: n % 2 === 0 ? { text: body } : { encoding: 'base64', text: Buffer.from(body).toString('base64') } },
    ...(n === 3 ? { _fromCache: 'disk' } : {}),
    timings: { send: 0, wait: n, receive: 0 },
  };
}

/**
 * HARs of entries the judge reads: some straddling the worker's chunks, beside a line of the exchange format; and one
 * whose second entry is not JSON (its brackets balance, so the scanner passes it: JSON.parse must refuse it).
 */
export function harWithEntriesOfTheJudge(): Array<[string, string]> {
  const entries = [700_000, 1_400_000, 10, 20, 5].map((length, n) => JSON.stringify(harEntry(n, length), null, 2));
  return [
    ['har', `{"log": {"entries": [\n${entries.join(',\n')},\n{"time": 1, "method": "GET", "url": "/v1/pets", "status": 200}]}}`],
    ['not-json', `{"log": {"entries": [${entries[2]}, {"request": {"method": "GET",}, "response": {"status": 200}}]}}`],
  ];
}

/**
 * Entries over more than one of the worker's chunks whose headers, methods and URLs recur and take one another's
 * place in the table of recurring texts (5,000 texts, 4,096 places), headers written again in another case, without
 * a value, or without a name (which the judge refuses).
 */
export function recurringTextsDocument(): string {
  const entries = Array.from({ length: 5_500 }, (_, n) => {
    const headers: Array<{ name?: unknown; value?: unknown }> = Array.from({ length: 8 }, (_, at) => ({ name: at % 3 === 0 ? 'X-Count' : `x-${(n * 7 + at) % 5_000}`, value: `${(n * 13 + at * 977) % 5_000}` }));
    if (n % 10 === 0) headers.push({ name: 'x-count' }, { name: 'X-Null', value: null }, { name: 'authorization', value: 'Bearer $PETSTORE_API_KEY_PRO' });
    if (n === 4_321) headers.push({ value: 'no name' });
    return {
      startedDateTime: new Date(Date.UTC(2026, 10, 29, 8, 0, 0, n)).toISOString(),
      time: 1,
      request: { method: n % 3 === 0 ? 'GET' : 'post', url: `http://127.0.0.1:1/v1/pets/${n % 300}`, headers },
      response: { status: 200, headers: [...headers].reverse(), content: { mimeType: 'application/json', text: `{"id":${n % 300}}` } },
    };
  });
  return JSON.stringify({ log: { entries } });
}

export type ReadOutcome = ReadEntry[] | string;

/** The SHA-1 the reader took of an entry's bytes (base64), undefined where it took none. */
export function fingerprintOf(raw: ReadEntry): string | undefined {
  return raw.fingerprints && Buffer.from(raw.fingerprints.subarray(raw.fingerprintAt, raw.fingerprintAt + FINGERPRINT_BYTES)).toString('base64');
}

/** The entries of a HAR read one way, or the error that stopped it (its name and message). */
export async function readOutcome(path: string, inWorkerFrom: number, fields: EntryFields): Promise<ReadOutcome> {
  const read: Exclude<ReadOutcome, string> = [];
  try {
    for await (const raw of readCapture(path, 'har', inWorkerFrom, fields)) read.push(raw);
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  return read;
}

/**
 * The HAR at `path` read for the judge on a worker thread gives what reading it here gives: the same error, or the
 * same numbers, texts and fingerprints, each HAR entry as its judged fields (as JSON.parse gives them), any other whole.
 */
export async function expectReadForTheJudgeAsHere(what: string, path: string): Promise<void> {
  const here = await readOutcome(path, Number.POSITIVE_INFINITY, 'whole');
  const judged = await readOutcome(path, 0, 'judged');
  if (typeof here === 'string') {
    expect(judged, what).toBe(here);
    return;
  }
  const fields = judged as Exclude<ReadOutcome, string>;
  expect(fields.map(({ number }) => number), what).toEqual(here.map(({ number }) => number));
  // A judged entry's text is not kept (the worker decodes its strings in place): its fingerprint is that of the text as written.
  fields.forEach((raw, at) => expect(fingerprintOf(raw), `${what}, entry ${raw.number}`).toBe(hash('sha1', (here[at]?.text ?? '').trim(), 'base64')));
  expect(fields.map(({ entry }) => entry), what).toEqual(here.map(({ entry }) => readForTheJudge(entry)));
  expect(exchangesOf(fields), `${what}: the exchanges the judge reads`).toEqual(exchangesOf(here));
}

/** What the judge makes of each entry: its exchange (undefined where it judges none), or the error it refuses it with. */
function exchangesOf(entries: Exclude<ReadOutcome, string>): unknown[] {
  const keys = new KeyBook({});
  return entries.map((raw) => {
    try {
      return toJudgedExchange(raw, 'capture.har', keys);
    } catch (error) {
      return (error as Error).message;
    }
  });
}
