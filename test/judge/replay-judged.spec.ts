/**
 * A replay judges every answer it gets back by the rules one exchange shows, as the judge does a capture:
 * against a server that ignores the status filter, or drops the status of a created pet, the shipped sample
 * fails LIST-1 or CREATE-1 (before, both passed with "conformance violations: 0").
 */
import { expect, test } from '@playwright/test';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { startFaultProxy, type ExchangeTransform } from '../support/fault-proxy.ts';
import { DEMO_KEY_ENV, cleanEnv, explain, readSummary, runCommand, SAMPLE_HAR, tempDir } from '../replay/support.ts';

async function replayAgainst(transform: ExchangeTransform): Promise<{ code: number | null; byRule: Record<string, number>; text: string }> {
  const server = await spawnReferenceServer({ env: { PETSTORE_TIME_SCALE: '60' } });
  const proxy = await startFaultProxy(server.baseUrl, transform);
  try {
    const reports = tempDir('judged-replay');
    const result = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--report-dir', reports], cleanEnv({ ...DEMO_KEY_ENV, PETSTORE_BASE_URL: proxy.baseUrl }));
    return { code: result.code, byRule: readSummary(reports).violations.byRule, text: explain(result) };
  } finally {
    await proxy.close();
    await server.stop();
  }
}

test('a server whose status filter is ignored fails LIST-1 on replay', async () => {
  const result = await replayAgainst({
    request: (request) => ({ ...request, path: request.path.replace(/([?&])status=[^&]*&?/, '$1').replace(/[?&]$/, '') }),
  });
  expect(result.code, result.text).toBe(1);
  expect(Object.keys(result.byRule)).toEqual(['LIST-1']);
});

test('a server whose created pet drops the status sent fails CREATE-1 on replay', async () => {
  const result = await replayAgainst({
    response: (response, request) => {
      if (request.method !== 'POST' || response.status !== 201) return response;
      const { status: _dropped, ...pet } = JSON.parse(response.body) as Record<string, unknown>;
      return { ...response, body: JSON.stringify(pet) };
    },
  });
  expect(result.code, result.text).toBe(1);
  expect(Object.keys(result.byRule)).toContain('CREATE-1');
});

test('the correct server still replays the sample with no violation', async () => {
  const result = await replayAgainst({});
  expect(result.byRule, result.text).toEqual({});
});
