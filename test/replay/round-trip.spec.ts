/**
 * The round trip a user makes: record a session through `npm run record` against the reference server,
 * stop it with Ctrl-C, and replay the capture with `npm run replay` against a fresh reference server.
 * Keys of the user's own (not the demo keys) are used throughout, and none may end up written anywhere.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from '@playwright/test';
import { runSampleSession } from '../../harness/record/sample-session.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { cleanEnv, explain, finished, harEntries, readSummary, runCommand, SAMPLE_HAR, startCommand, tempDir } from './support.ts';

const OWN_KEYS = {
  PETSTORE_API_KEY_FREE: 'sk-live-free-0f9a8b7c6d5e4f3a',
  PETSTORE_API_KEY_PRO: 'sk-live-pro-1a2b3c4d5e6f7a8b,sk-live-pro-second-99',
  PETSTORE_API_KEY_BUSINESS: 'sk-live-business-77aa88bb',
  PETSTORE_API_KEY_ENTERPRISE: 'sk-live-enterprise-55cc66dd',
};
const SECRETS = [...Object.values(OWN_KEYS).flatMap((keys) => keys.split(',')), ...Object.values(DEMO_KEYS).flat(), 'not-a-key-of-this-server'];

test('a session recorded with npm run record replays green against a fresh reference server, and no key is written anywhere', async () => {
  const dir = tempDir('round-trip');
  const capture = join(dir, 'session.har');
  const upstream = await spawnReferenceServer({ env: { ...OWN_KEYS, PETSTORE_TIME_SCALE: '10' } });
  try {
    const recorder = startCommand('record', ['--base-url', upstream.baseUrl, '--port', '0', capture], cleanEnv(OWN_KEYS));
    const done = finished(recorder);
    const proxyUrl = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: recorder.stdout! });
      lines.on('line', (line) => {
        const url = /listening on (http:\/\/\S+\/v1)/.exec(line)?.[1];
        if (url) resolve(url);
      });
      recorder.once('exit', (code) => reject(new Error(`the recorder exited with ${code}`)));
    });
    const sent = await runSampleSession(proxyUrl, { pro: 'sk-live-pro-1a2b3c4d5e6f7a8b', free: 'sk-live-free-0f9a8b7c6d5e4f3a' });
    recorder.kill('SIGINT');
    const recorded = await done;
    expect(recorded.code, explain(recorded)).toBe(0);
    expect(recorded.stdout).toContain(`recorded ${sent} exchanges`);

    // Ctrl-C closed the document: it parses, and holds every exchange, in order.
    const entries = harEntries(capture);
    expect(entries).toHaveLength(sent);
    expect(entries[0]?.request.method).toBe('POST');
    const authorizations = entries.map((e) => e.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value);
    expect(new Set(authorizations)).toEqual(new Set(['Bearer $PETSTORE_API_KEY_PRO', 'Bearer $PETSTORE_API_KEY_FREE', 'Bearer $PETSTORE_INVALID_KEY', undefined]));
    expect(entries.filter((e) => e.response.status === 429)).toHaveLength(1);

    const reports = join(dir, 'reports');
    const replayed = await runCommand('replay', [capture, '--speed', '0', '--output', reports], cleanEnv(OWN_KEYS));
    expect(replayed.code, explain(replayed)).toBe(0);
    const summary = readSummary(reports);
    expect(summary).toMatchObject({
      verdict: 'pass',
      exchanges: sent,
      identical: sent,
      violations: { exchanges: 0 },
      differences: { exchanges: 0 },
      throttled: { exchanges: 0, recorded429: 1, recorded429NotReproduced: 0 },
      bundledTarget: true,
    });

    for (const file of [capture, join(reports, 'index.html'), join(reports, 'summary.json')]) {
      const text = readFileSync(file, 'utf8');
      for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${file}`).toBe(false);
    }
    for (const output of [recorded.stdout, recorded.stderr, replayed.stdout, replayed.stderr]) {
      for (const secret of SECRETS) expect(output.includes(secret), `${secret} in the output`).toBe(false);
    }
  } finally {
    await upstream.stop();
  }
});

test('the shipped sample replays green at full speed and with concurrency, and holds placeholders, never a key', async () => {
  const text = readFileSync(SAMPLE_HAR, 'utf8');
  for (const secret of SECRETS) expect(text.includes(secret), secret).toBe(false);
  expect(text).toContain('Bearer $PETSTORE_API_KEY_FREE');
  expect(text).toContain('Bearer $PETSTORE_INVALID_KEY');

  const statuses = new Set(harEntries(SAMPLE_HAR).map((e) => e.response.status));
  expect([...statuses].sort()).toEqual([200, 201, 400, 401, 404, 429]);

  for (const concurrency of ['1', '8']) {
    const reports = tempDir(`sample-${concurrency}`);
    const result = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--concurrency', concurrency, '--strict', '--output', reports]);
    expect(result.code, explain(result)).toBe(0);
    expect(readSummary(reports)).toMatchObject({ verdict: 'pass', violations: { exchanges: 0 }, differences: { exchanges: 0 } });
  }
});
