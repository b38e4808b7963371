/**
 * `record --judge`: the recording proxy judges traffic as it passes, with a live line, and writes the
 * conformance report when stopped. A replay of the shipped sample through it, against the correct server,
 * is judged with no rule failed.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { assertMatchesSchema } from '../support/report-schemas.ts';
import { DEMO_KEY_ENV, ROOT, SAMPLE_HAR, cleanEnv, explain, finished, listeningProxy, runCommand, tempDir } from '../replay/support.ts';
import { failures } from './support.ts';

test('a replay of the sample through record --judge is judged live, with no rule failed, and reported on stop', async () => {
  const dir = tempDir('record-judge');
  const upstream = await spawnReferenceServer({ env: { PETSTORE_TIME_SCALE: '10' } });
  try {
    const recorder = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'record', '--upstream', upstream.baseUrl, '--port', '0', '--out', join(dir, 'live.har'), '--judge', '--report-dir', join(dir, 'reports')], {
      cwd: ROOT,
      env: cleanEnv(DEMO_KEY_ENV),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = finished(recorder);
    const proxyUrl = await listeningProxy(recorder);
    const replayed = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--report-dir', join(dir, 'replay')], cleanEnv({ ...DEMO_KEY_ENV, PETSTORE_BASE_URL: proxyUrl }));
    expect(replayed.code, explain(replayed)).toBe(0);
    recorder.kill('SIGINT');
    const recorded = await done;
    // Traffic never certifies (most rules need requests of the suite's own): Not certified, exit 3.
    expect(recorded.code, explain(recorded)).toBe(3);
    expect(recorded.stdout).toMatch(/judged \d+ exchanges? of \d+ keys?: no rule failed so far/);
    expect(recorded.stdout).toContain('Judged: Not certified');
    const report = assertMatchesSchema('conformance-report', JSON.parse(readFileSync(join(dir, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport);
    expect(failures(report)).toEqual({});
    expect(report.rules.find((row) => row.id === 'LIST-1')?.verdict).toBe('pass');
    expect(report.target.url).toContain('recording proxy');
  } finally {
    await upstream.stop();
  }
});
