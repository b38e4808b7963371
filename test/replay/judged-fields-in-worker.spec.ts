/**
 * Every HAR document the reader's tests read, read for the judge on a worker thread (the fields of each HAR entry from
 * where the walk found them), gives what reading it here gives: the same errors, numbers, texts and fingerprints, and
 * each HAR entry's judged fields as JSON.parse gives them, and the same exchanges for the judge. Field tier: each read
 * starts a worker thread.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { BROKEN, DOCUMENT, expectReadForTheJudgeAsHere, harWithEntriesOfTheJudge, recurringTextsDocument, straddlingDocument } from './har-documents.ts';
import { SAMPLE_HAR, tempDir } from './support.ts';

test('every document of the reader\'s tests reads for the judge on a worker thread as it reads here', async () => {
  const dir = tempDir('judged-in-worker');
  const documents: Array<[string, string]> = [
    ['several', DOCUMENT],
    ['marked', `\uFEFF${DOCUMENT}`],
    ['straddling', straddlingDocument()],
    ...harWithEntriesOfTheJudge(),
    ['recurring', recurringTextsDocument()],
    ['sample', readFileSync(SAMPLE_HAR, 'utf8')],
    ...BROKEN.map(([what, text]): [string, string] => [what, text]),
  ];
  for (const [what, text] of documents) {
    const path = join(dir, `${what.replaceAll(' ', '-')}.har`);
    writeFileSync(path, text);
    await expectReadForTheJudgeAsHere(what, path);
  }
});
