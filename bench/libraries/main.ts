/**
 * npm run bench:libraries [-- --rounds 6]
 *
 * Where a well-kept library does what one of ours does, both do the same job in one process, in alternating
 * rounds, and the ratio (ours over the library's, per round) says whether ours earns its keep:
 * - exact-integer JSON: lib/lossless-json.ts (native JSON.parse when no integer can pass 2^53, else lossless-json)
 *   against lossless-json alone (with a number parser that, like ours, makes only integers beyond 2^53 BigInts),
 *   on Pet Store pages with ordinary ids and with int64 ids;
 * - the streaming HAR reader: lib/capture/entry-scanner.ts (each entry's text, then JSON.parse) against stream-json
 *   (parser, pick log.entries, streamArray), on a HAR fed in 64 KiB chunks.
 * The draft RateLimit fields are not here: structured-headers replaced our regex because it parses RFC 9651 right.
 */
import { Readable } from 'node:stream';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { isInteger, isSafeNumber, parse as losslessParse } from 'lossless-json';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { HarEntryScanner } from '../../lib/capture/entry-scanner.ts';
import { parseLossless } from '../../lib/lossless-json.ts';
import { markdownTable } from '../server/autocannon.ts';
import { wholeFlag } from '../whole-flag.ts';
import { alternate, type Comparison } from './alternating.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = wholeFlag(values.rounds ?? '6', 'rounds');
const PAGE = 20;
const HAR_ENTRIES = 5_000;
const CHUNK = 64 * 1024;

/** Like ours: an integer beyond Number's safe range is a BigInt, every other number a Number. */
const numberLikeOurs = (text: string): number | bigint => (isInteger(text) && !isSafeNumber(text) ? BigInt(text) : Number(text));

function page(firstId: bigint): string {
  const pets = Array.from({ length: PAGE }, (_, index) => `{"id":${firstId + BigInt(index)},"name":"Rex ${index}","category":"dog","status":"available","tags":["friendly","small"]}`);
  return `[${pets.join(',')}]`;
}

function har(entries: number): string {
  const entry = (index: number): string =>
    JSON.stringify({
      startedDateTime: new Date(1_790_000_000_000 + index * 100).toISOString(),
      time: 12.5,
      request: { method: 'GET', url: `http://127.0.0.1:8080/v1/pets/${index}`, httpVersion: 'HTTP/1.1', headers: [{ name: 'authorization', value: 'Bearer key-free-1' }, { name: 'accept', value: 'application/json' }], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
      response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [{ name: 'x-ratelimit-limit', value: '60' }, { name: 'x-ratelimit-remaining', value: String(59 - (index % 60)) }, { name: 'x-ratelimit-reset', value: '1790000060' }], cookies: [], content: { size: 90, mimeType: 'application/json', text: `{"id":${index},"name":"Rex","category":"dog","status":"available"}` }, redirectURL: '', headersSize: -1, bodySize: 90 },
      cache: {},
      timings: { send: 0, wait: 12, receive: 0.5 },
    });
  return `{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"pages":[],"entries":[${Array.from({ length: entries }, (_, index) => entry(index)).join(',')}]}}`;
}

function chunks(text: string): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, at + CHUNK));
  return out;
}

function oursHar(pieces: readonly Buffer[]): number {
  const scanner = new HarEntryScanner();
  let entries = 0;
  for (const piece of pieces) for (const text of scanner.push(piece)) entries += JSON.parse(text) ? 1 : 0;
  scanner.end();
  return entries;
}

async function libraryHar(pieces: readonly Buffer[]): Promise<number> {
  let entries = 0;
  const pipeline = chain([Readable.from(pieces), parser(), pick({ filter: 'log.entries' }), streamArray()]);
  for await (const _item of pipeline) entries++;
  return entries;
}

const ordinary = page(1n);
const int64 = page(9_007_199_254_740_993n);
const document = chunks(har(HAR_ENTRIES));

// The same answers first: a benchmark of two parsers that disagree would compare nothing.
for (const text of [ordinary, int64]) {
  if (!isDeepStrictEqual(parseLossless(text), losslessParse(text, null, numberLikeOurs))) throw new Error('lib/lossless-json.ts and lossless-json disagree on a page');
}
if (oursHar(document) !== HAR_ENTRIES || (await libraryHar(document)) !== HAR_ENTRIES) throw new Error('the HAR readers disagree on the entries');

const comparisons: Comparison[] = [
  await alternate(`a page of ${PAGE} pets, ids below 2^53`, 'pages', [{ name: 'ours', run: () => (parseLossless(ordinary), 1) }, { name: 'lossless-json', run: () => (losslessParse(ordinary, null, numberLikeOurs), 1) }], rounds),
  await alternate(`a page of ${PAGE} pets, int64 ids above 2^53`, 'pages', [{ name: 'ours', run: () => (parseLossless(int64), 1) }, { name: 'lossless-json', run: () => (losslessParse(int64, null, numberLikeOurs), 1) }], rounds),
  await alternate(`a HAR of ${HAR_ENTRIES.toLocaleString('en-US')} entries, 64 KiB chunks`, 'entries', [{ name: 'ours', run: () => oursHar(document) }, { name: 'stream-json', run: () => libraryHar(document) }], rounds),
];

const fixed = (value: number): string => Math.round(value).toLocaleString('en-US');
process.stdout.write(
  `${markdownTable(
    ['job', 'ours /s', 'library /s', 'ours ÷ library (median)', 'per round'],
    comparisons.map(({ job, unit, perSecond: [ours, library], ratios }) => [
      job,
      `${fixed(ours!)} ${unit}`,
      `${fixed(library!)} ${unit}`,
      `${(ours! / library!).toFixed(1)}×`,
      ratios.map((ratio) => ratio.toFixed(1)).join(', '),
    ]),
  )}\n`,
);
