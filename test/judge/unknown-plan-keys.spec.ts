/**
 * Keys of unknown plan stay apart: each has a pseudonym of its own, in the recording (the recorder's
 * placeholders) and in the judge, and is judged only by rules that need no plan. A gateway's "key" of
 * "unknown" (the old how-to's map default) names no key: it never merges every unlisted key into one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CaptureWriter } from '../../lib/capture/write.ts';
import { knownKeys } from '../../harness/record/credentials.ts';
import { startRecordingProxy } from '../../harness/record/proxy.ts';
import { RECORDER } from '../../harness/record/recorder-info.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { failures, judged, tempDir, verdictOf } from './support.ts';

// Enterprise keys the recorder was not given: their Limit (the default Enterprise quota) names no documented plan.
const STRANGERS = ['a-partner-key-the-recorder-does-not-know', 'another-partner-key-it-does-not-know'];

test('the recorder gives each key of unknown plan a placeholder of its own, and the judge a pseudonym of its own, judged by no plan', async () => {
  const server = await createReferenceServer({ keys: { ...DEMO_KEYS, enterprise: STRANGERS } });
  const capture = join(tempDir('unknown-plan'), 'partners.har.ndjson');
  const writer = await CaptureWriter.open(capture, RECORDER);
  const proxy = await startRecordingProxy({ upstream: server.baseUrl, port: 0, writer, keys: knownKeys({}) });
  try {
    for (const key of STRANGERS) for (let i = 0; i < 3; i++) expect((await fetch(`${proxy.baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  } finally {
    await proxy.close();
    await writer.close();
    await server.close();
  }
  const recorded = readFileSync(capture, 'utf8');
  for (const key of STRANGERS) expect(recorded).not.toContain(key);
  expect(recorded).toContain('"Bearer $PETSTORE_API_KEY_UNKNOWN_PLAN"');
  expect(recorded).toContain('"Bearer $PETSTORE_API_KEY_UNKNOWN_PLAN#2"');
  const report = await judged(capture);
  expect(failures(report)).toEqual({});
  const kinds = report.rules.find((row) => row.id === 'RL-GAP-2')?.observations.map((note) => note.text).join('\n') ?? '';
  expect(kinds).toContain('key unknown-plan,');
  expect(kinds).toContain('key unknown-plan-2,');
  expect(verdictOf(report, 'RL-5')).not.toBe('pass');
});

const RESET = 4_000_000_000;

/** A line as the old how-to's map wrote it: every unlisted key named "unknown", with a literal plan. */
function oldRecipeLine(index: number, status: number, remaining: number): string {
  return JSON.stringify({
    time: (RESET - 30 + index * 0.01).toFixed(3),
    duration: '0.002',
    method: 'GET',
    url: '/v1/pets',
    status: String(status),
    key: 'unknown',
    plan: 'pro',
    responseHeaders: { 'content-type': 'application/json', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(RESET), ...(status === 429 ? { 'retry-after': '30' } : {}) },
  });
}

test('a gateway\'s "key":"unknown" is no key: two keys\' windows under one clock-aligned Reset, and invalid keys\' 401s, fail nothing', async () => {
  // Two Pro keys, each admitted 200 under the same clock-aligned Reset, and three invalid keys refused.
  const lines: string[] = [];
  for (let i = 0; i < 200; i++) lines.push(oldRecipeLine(2 * i, 200, 299 - i), oldRecipeLine(2 * i + 1, 200, 299 - i));
  for (let i = 0; i < 3; i++) lines.push(oldRecipeLine(400 + i, 401, 300));
  const file = join(tempDir('old-recipe'), 'access.log');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const report = await judged(file);
  expect(failures(report)).toEqual({});
  expect(verdictOf(report, 'AUTH-5')).toBe('skipped');
  expect(verdictOf(report, 'PLAN-PRO')).toBe('skipped');
});
