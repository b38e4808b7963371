/** Reading captures: the streaming HAR reader gives the same entries as JSON.parse whatever the chunking, and says what is wrong with a bad file. */
import { hash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { HarEntryScanner } from '../../lib/capture/entry-scanner.ts';
import { captureFormat, readCapture } from '../../lib/capture/read.ts';
import { CaptureWriter } from '../../lib/capture/write.ts';
import { BROKEN, DOCUMENT, fingerprintOf, harWithEntriesOfTheJudge, expectReadForTheJudgeAsHere, readOutcome, straddlingDocument, type ReadOutcome } from './har-documents.ts';
import { entry, SAMPLE_HAR, tempDir } from './support.ts';

/** The document's bytes fed in chunks of `chunkSize` bytes: a cut may fall inside a character's UTF-8 sequence. */
function scan(text: string, chunkSize: number): unknown[] {
  const scanner = new HarEntryScanner();
  const out: string[] = [];
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunkSize) out.push(...scanner.push(bytes.subarray(at, at + chunkSize)));
  scanner.end();
  return out.map((part) => JSON.parse(part) as unknown);
}

test('entries come out whole and exact, however the document is cut into chunks', () => {
  const expected = (JSON.parse(DOCUMENT) as { log: { entries: unknown[] } }).log.entries;
  for (const size of [1, 2, 3, 5, 13, 64, Buffer.byteLength(DOCUMENT)]) expect(scan(DOCUMENT, size), `chunks of ${size}`).toEqual(expected);
});

for (const [what, text, message] of BROKEN) {
  test(`${what} is refused with a message saying so`, () => {
    expect(() => scan(text, 7)).toThrow(message);
  });
}

test('a byte order mark before the document is passed over, however the chunks cut it', () => {
  const expected = (JSON.parse(DOCUMENT) as { log: { entries: unknown[] } }).log.entries;
  for (const size of [1, 2, 64]) expect(scan(`\uFEFF${DOCUMENT}`, size), `chunks of ${size}`).toEqual(expected);
});

test('a malformed HAR is named at the byte where it goes wrong, whitespace counted', () => {
  expect(() => scan('{\n  "log": x', 4)).toThrow(/"log" must be an object at byte 12$/);
});

test('a capture is read entry by entry from .har and from .har.ndjson alike, and the writer closes both into valid files', async () => {
  const dir = tempDir('har-reader');
  const entries = [1, 2, 3].map((n) => entry({ url: `http://127.0.0.1:1/v1/pets/${n}`, status: 200, responseBody: `{"id":${n}}` }));
  for (const name of ['capture.har', 'capture.har.ndjson']) {
    const path = join(dir, name);
    const writer = await CaptureWriter.open(path, { name: 'test', version: '1' });
    for (const item of entries) writer.write(item);
    await writer.close();
    const read: unknown[] = [];
    for await (const raw of readCapture(path)) read.push(raw.entry);
    expect(read, name).toEqual(entries);
  }
});

test('NDJSON lines that straddle the megabyte chunks read, one longer than a chunk, come out whole, numbered by line', async () => {
  const path = join(tempDir('ndjson-chunks'), 'long.har.ndjson');
  // Bodies of uneven lengths, so line ends fall anywhere in a chunk; the fourth line spans two whole chunks.
  const lengths = [700_000, 500_000, 900_000, 2_300_000, 10, 600_000];
  const entries = lengths.map((length, index) => entry({ url: `http://127.0.0.1:1/v1/pets/${index}`, status: 200, responseBody: `"${'x'.repeat(length)}"` }));
  writeFileSync(path, `${entries.map((item) => JSON.stringify(item)).join('\n')}\n\n${JSON.stringify(entries[0])}`);
  const read: Array<{ number: number; entry: unknown }> = [];
  for await (const raw of readCapture(path)) read.push(raw);
  expect(read.map((raw) => raw.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(read.map((raw) => raw.entry)).toEqual([...entries, entries[0]]);
});

test('an NDJSON capture that starts with a byte order mark reads its first line like the others', async () => {
  const path = join(tempDir('ndjson-bom'), 'marked.har.ndjson');
  const entries = [0, 1].map((index) => entry({ url: `http://127.0.0.1:1/v1/pets/${index}`, status: 200 }));
  writeFileSync(path, `\uFEFF${entries.map((item) => JSON.stringify(item)).join('\n')}\n`);
  const read: unknown[] = [];
  for await (const raw of readCapture(path)) read.push(raw.entry);
  expect(read).toEqual(entries);
});

test('a bad line of an NDJSON capture is named by its line number', async () => {
  const path = join(tempDir('ndjson'), 'bad.har.ndjson');
  writeFileSync(path, `${JSON.stringify(entry({ url: 'http://h/v1/pets', status: 200 }))}\n\n{"oops": \n`);
  const read = async (): Promise<void> => {
    for await (const raw of readCapture(path)) void raw;
  };
  await expect(read()).rejects.toThrow(/bad\.har\.ndjson: line 3 is not valid JSON/);
});

test('a capture holding no entry is refused alike as a HAR and as NDJSON, naming the file and what it lacks, never judged as a run that exercised nothing', async () => {
  const dir = tempDir('empty-captures');
  const empty: Array<[string, string, string]> = [
    ['empty.har', '{"log": {"version": "1.2", "entries": []}}', 'empty.har: the capture holds no entries (its log.entries is empty)'],
    ['empty.ndjson', '', 'empty.ndjson: the capture holds no entries (expected one per line: a HAR entry or an exchange)'],
    ['blank.jsonl', '\n  \n\n', 'blank.jsonl: the capture holds no entries (expected one per line: a HAR entry or an exchange)'],
  ];
  for (const [name, text, message] of empty) {
    writeFileSync(join(dir, name), text);
    for (const inWorkerFrom of [0, Number.POSITIVE_INFINITY]) {
      const refusal = async (): Promise<string> => {
        try {
          for await (const raw of readCapture(join(dir, name), captureFormat(name), inWorkerFrom)) void raw;
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
        return 'read, with nothing refused';
      };
      expect(await refusal(), name).toBe(`CaptureInputError: ${message}`);
    }
  }
});

test('a HAR read on a worker thread gives the same entries, numbers and errors as one read here, with each entry fingerprinted as its text is', async () => {
  const dir = tempDir('har-worker');
  const documents: Array<[string, string]> = [['several', DOCUMENT], ['marked', `\uFEFF${DOCUMENT}`], ['straddling', straddlingDocument()], ...BROKEN.map(([what, text]): [string, string] => [what, text])];
  for (const [what, text] of documents) {
    const path = join(dir, `${what.replaceAll(' ', '-')}.har`);
    writeFileSync(path, text);
    const here = await readOutcome(path, Number.POSITIVE_INFINITY, 'whole');
    const inWorker = await readOutcome(path, 0, 'whole');
    if (typeof here === 'string') {
      expect(inWorker, what).toBe(here);
      continue;
    }
    const entries = inWorker as Exclude<ReadOutcome, string>;
    expect(entries.map(({ number, entry }) => ({ number, entry })), what).toEqual(here.map(({ number, entry }) => ({ number, entry })));
    for (const raw of entries) expect(fingerprintOf(raw), `${what}, entry ${raw.number}`).toBe(hash('sha1', (raw.text ?? '').trim(), 'base64'));
  }
});

test('HAR entries read on a worker thread for the judge come as their judged fields, as JSON.parse gives them, entries straddling the chunks included; any other entry whole, a bad one refused alike', async () => {
  const dir = tempDir('har-worker-judged');
  const documents: Array<[string, string]> = [...harWithEntriesOfTheJudge(), ['sample', readFileSync(SAMPLE_HAR, 'utf8')]];
  for (const [what, text] of documents) {
    const path = join(dir, `${what}.har`);
    writeFileSync(path, text);
    await expectReadForTheJudgeAsHere(what, path);
  }
});
