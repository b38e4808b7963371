/**
 * A browser's HAR, as it is exported: Debian's Chromium drives the reference server (a page, then the page's
 * own fetch calls with a bearer key), Playwright records the HAR, and the export is shaped as Chrome's
 * DevTools writes it (creator WebInspector, _initiator and _resourceType on each entry, cookies left out). Chrome's
 * default export is sanitized (no Authorization, Cookie or Set-Cookie): there, an entry without Authorization
 * means "not captured", so AUTH-1 and AUTH-5 are not judged and say why, never fail. The export "with sensitive
 * data" keeps today's reading: an entry without Authorization was sent without a key.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { HarCreator, HarEntry } from '../../lib/capture/types.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { chromiumPath, INSTALL_HINT, launchChromium } from '../support/chromium.ts';
import { skipWithout } from '../support/installed-tools.ts';
import { failures, judged, tempDir, verdictOf } from './support.ts';

skipWithout(chromiumPath() !== undefined, INSTALL_HINT);

const KEY = DEMO_KEYS.pro[0] as string;
const SENSITIVE = new Set(['authorization', 'cookie', 'set-cookie']);

/** A HAR document as Playwright writes it. */
interface HarDocument {
  log: { version: string; creator: HarCreator; pages?: unknown[]; entries: HarEntry[] };
}

let recorded: HarDocument | undefined;

/** One browser session against the reference server, recorded once for every test of the file. */
async function browserHar(): Promise<HarDocument> {
  if (recorded) return recorded;
  const server = await createReferenceServer({ timeScale: 10 });
  const browser = await launchChromium();
  const path = join(tempDir('browser'), 'session.har');
  try {
    const context = await browser.newContext({ recordHar: { path, content: 'embed' } });
    const page = await context.newPage();
    // The page itself is a request without a key: the service answers 401.
    await page.goto(`${server.baseUrl}/pets`);
    await page.evaluate(async (key) => {
      const authorization = `Bearer ${key}`;
      for (let i = 0; i < 4; i++) await fetch('/v1/pets?limit=2', { headers: { authorization } });
      await fetch('/v1/pets', { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
    }, KEY);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
  recorded = JSON.parse(readFileSync(path, 'utf8')) as HarDocument;
  return recorded;
}

/** The HAR as Chrome's DevTools exports it; `sanitized` is its default export. */
function asChromeExports(har: HarDocument, sanitized: boolean, edit: (entry: HarEntry) => HarEntry = (entry) => entry): string {
  const entries = har.log.entries.map((entry) => {
    const document = entry.request.headers.some((header) => header.name.toLowerCase() === 'upgrade-insecure-requests');
    const keep = (headers: HarEntry['request']['headers']) => (sanitized ? headers.filter((header) => !SENSITIVE.has(header.name.toLowerCase())) : headers);
    return edit({
      ...entry,
      _initiator: document ? { type: 'other' } : { type: 'script', stack: { callFrames: [] } },
      _priority: document ? 'VeryHigh' : 'High',
      _resourceType: document ? 'document' : 'fetch',
      request: { ...entry.request, headers: keep(entry.request.headers), cookies: [] },
      response: { ...entry.response, headers: keep(entry.response.headers), cookies: [] },
    } as HarEntry);
  });
  const file = join(tempDir('chrome-export'), sanitized ? 'sanitized.har' : 'with-sensitive-data.har');
  writeFileSync(file, JSON.stringify({ log: { ...har.log, creator: { name: 'WebInspector', version: '537.36' }, entries } }, null, 2));
  return file;
}

test("Chrome's sanitized export of a browser session with a correct server fails nothing: AUTH-1 and AUTH-5 are not judged, and say the header was not captured", async () => {
  const har = await browserHar();
  expect(har.log.entries.filter((entry) => entry.request.headers.some((header) => header.name.toLowerCase() === 'authorization')).length).toBe(5);
  const report = await judged(asChromeExports(har, true));
  expect(failures(report)).toEqual({});
  for (const rule of ['AUTH-1', 'AUTH-5']) {
    expect(verdictOf(report, rule)).toBe('skipped');
    expect(report.rules.find((row) => row.id === rule)?.reason).toContain("a browser's sanitized HAR");
  }
  expect(verdictOf(report, 'RL-4')).toBe('pass');
});

test('the export with sensitive data keeps its reading: the page without a key answered 401 passes AUTH-1, and answered 200 fails it', async () => {
  const har = await browserHar();
  const kept = await judged(asChromeExports(har, false));
  expect(failures(kept)).toEqual({});
  expect(verdictOf(kept, 'AUTH-1')).toBe('pass');
  expect(verdictOf(kept, 'AUTH-5')).toBe('pass');
  const servedWithoutKey = (entry: HarEntry): HarEntry => (entry.response.status === 401 ? { ...entry, response: { ...entry.response, status: 200 } } : entry);
  const broken = await judged(asChromeExports(har, false, servedWithoutKey));
  expect(Object.keys(failures(broken))).toContain('AUTH-1');
});
