/**
 * A browser's HAR holds the answers its own cache gave as entries of their own: Chrome's DevTools marks each
 * `_fromCache: "memory"` or `"disk"`, with the headers the target sent the first time and no time on the wire. Such
 * a request never reached the target. Judged as the target's answers, a cached list counted its admission twice in
 * its window and named a Reset long past: a correct server's capture was Not conforming (PLAN-FREE, RL-7). The same
 * entries unmarked are answers the target sent itself, stale, and still fail.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { HarEntry } from '../../lib/capture/types.ts';
import { readLines } from './invariance/capture-lines.ts';
import { failures, judged, tempDir } from './support.ts';

/** The recorder's HAR of a correct load run of a Free and a Pro key (test/judge/invariance/record-captures.ts). */
const LOAD_RUN = join(import.meta.dirname, 'invariance', 'captures', 'load-run.har.ndjson');

/** How long after the target's answer the page asked again and the browser answered from its cache. */
const CACHED_AFTER_MS = 4_000;

/** The load run with every 15th list answer given again by the browser's cache, marked as Chrome marks it or not. */
function withCachedCopies(marked: boolean): string {
  const entries = readLines(LOAD_RUN).lines.map((line) => line.entry as unknown as HarEntry);
  const copies = entries
    .filter((entry, index) => index % 15 === 0 && entry.request.method === 'GET' && entry.response.status === 200)
    .map((entry) => ({
      ...structuredClone(entry),
      startedDateTime: new Date(Date.parse(entry.startedDateTime) + CACHED_AFTER_MS).toISOString(),
      time: 0,
      timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 },
      ...(marked ? { _fromCache: 'memory' } : {}),
    }));
  expect(copies.length).toBeGreaterThan(10);
  const all = [...entries, ...copies].sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  const file = join(tempDir('browser-cache'), marked ? 'with-cache.har.ndjson' : 'stale-answers.har.ndjson');
  writeFileSync(file, all.map((entry) => JSON.stringify(entry)).join('\n'));
  return file;
}

const verdicts = (rules: Array<{ id: string; verdict: string }>): Record<string, string> => Object.fromEntries(rules.map((rule) => [rule.id, rule.verdict]));

test("entries Chrome's cache answered are not the target's: the capture gets the verdict of its network entries alone; the same answers sent again by the target itself still fail PLAN-FREE and RL-7", async () => {
  const alone = await judged(LOAD_RUN);
  const withCache = await judged(withCachedCopies(true));
  expect(failures(withCache)).toEqual({});
  expect(verdicts(withCache.rules)).toEqual(verdicts(alone.rules));

  expect(Object.keys(failures(await judged(withCachedCopies(false))))).toEqual(expect.arrayContaining(['PLAN-FREE', 'RL-7']));
});
