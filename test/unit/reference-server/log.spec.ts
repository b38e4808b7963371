import { expect, test } from '@playwright/test';
import { createRequestLog } from '../../../reference-server/log.ts';
import { DEMO_KEYS } from '../../../lib/keys.ts';

async function lines(entries: Parameters<ReturnType<typeof createRequestLog>['record']>[0][]): Promise<Array<Record<string, unknown>>> {
  const written: string[] = [];
  const log = createRequestLog('json', DEMO_KEYS, (text) => written.push(text), 20);
  for (const entry of entries) log.record(entry);
  expect(written).toEqual([]);
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(written).toHaveLength(1);
  return written.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

test.describe('request log', () => {
  test('writes one JSON line per request, gathered into one write after a short while', async () => {
    const records = await lines([
      { method: 'GET', path: '/v1/pets', status: 200, plan: 'free', durationMs: 0.123456 },
      { method: 'POST', path: '/v1/pets', status: 201, plan: 'anonymous', durationMs: 2 },
    ]);
    expect(records).toEqual([
      { time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), method: 'GET', path: '/v1/pets', status: 200, plan: 'free', durationMs: 0.123 },
      { time: expect.any(String), method: 'POST', path: '/v1/pets', status: 201, plan: 'anonymous', durationMs: 2 },
    ]);
  });

  test('never writes a key, and escapes what a path may hold', async () => {
    const records = await lines([
      { method: 'GET', path: '/v1/pets/demo-enterprise-2', status: 404, plan: 'pro', durationMs: 1 },
      { method: 'GET', path: '/v1/"quoted"\\', status: 404, plan: 'pro', durationMs: 1 },
      { method: 'GET', path: `/v1/${'x'.repeat(300)}demo-free-1`, status: 404, plan: 'pro', durationMs: 1 },
    ]);
    expect(records[0]?.path).toBe('/v1/pets/$PETSTORE_API_KEY_ENTERPRISE');
    expect(records[1]?.path).toBe('/v1/"quoted"\\');
    expect(String(records[2]?.path)).toHaveLength(257);
    expect(JSON.stringify(records)).not.toContain('demo-');
  });

  test('flush writes what has gathered at once, and a large backlog is written without waiting', () => {
    const written: string[] = [];
    const log = createRequestLog('json', DEMO_KEYS, (text) => written.push(text), 60_000);
    log.record({ method: 'GET', path: '/v1/pets', status: 200, plan: 'free', durationMs: 1 });
    log.flush();
    expect(written).toHaveLength(1);
    for (let i = 0; i < 2_000; i++) log.record({ method: 'GET', path: '/v1/pets', status: 200, plan: 'free', durationMs: 1 });
    expect(written.length).toBeGreaterThan(1);
    log.flush();
    expect(written.join('').trim().split('\n')).toHaveLength(2_001);
  });

  test('off writes nothing', async () => {
    const written: string[] = [];
    createRequestLog('off', DEMO_KEYS, (text) => written.push(text)).record({ method: 'GET', path: '/', status: 200, plan: 'free', durationMs: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual([]);
  });
});
