/** --speed: 1 keeps the recorded gaps between requests, N divides them by N, 0 sends as fast as the target answers. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { cleanEnv, entry, explain, runCommand, tempDir, writeHar } from './support.ts';

test('requests keep the recorded pacing divided by --speed, and none with --speed 0', async () => {
  const hits: number[] = [];
  const server = createServer((_request, response) => {
    hits.push(performance.now());
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  // Three requests recorded two seconds apart: four seconds from first to last.
  const start = Date.UTC(2026, 0, 1, 12);
  const capture = writeHar(tempDir('pacing'), 'paced.har', [0, 2_000, 4_000].map((offset) => entry({ url: 'http://127.0.0.1:9/v1/pets', status: 200, responseBody: '[]', startedMs: start + offset })));
  const env = cleanEnv({ PETSTORE_BASE_URL: target });
  try {
    const spanAt = async (speed: string): Promise<number> => {
      hits.length = 0;
      const result = await runCommand('replay', [capture, '--speed', speed, '--output', tempDir('pacing-report')], env);
      expect(result.code, explain(result)).toBe(1); // the bare target sends no rate-limit headers: violations
      expect(hits).toHaveLength(3);
      return (hits[2] ?? 0) - (hits[0] ?? 0);
    };
    expect(await spanAt('4')).toBeGreaterThanOrEqual(950);
    expect(await spanAt('0')).toBeLessThan(3_000); // far below the recorded four seconds
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
