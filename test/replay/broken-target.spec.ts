/**
 * Replaying against a deliberately broken target: the reference server behind the fault proxy, with
 * faults on a few exchanges of the sample. The replay must fail, and name exactly those exchanges, with
 * the rule each breaks; a mere difference fails only with --strict.
 */
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { spawnReferenceServer, type SpawnedServer } from '../../reference-server/spawn.ts';
import { inChromium } from '../support/chromium.ts';
import { startFaultProxy, type ExchangeTransform, type FaultProxy } from '../support/fault-proxy.ts';
import { DEMO_KEY_ENV, cleanEnv, explain, harEntries, readSummary, runCommand, SAMPLE_HAR, tempDir } from './support.ts';


/** The sample's entry (1-based) for a request, so the test follows the sample if it is re-recorded. */
function entryOf(method: string, pathAndQuery: string): number {
  const index = harEntries(SAMPLE_HAR).findIndex((e) => e.request.method === method && new URL(e.request.url).href.endsWith(`/v1${pathAndQuery}`));
  if (index < 0) throw new Error(`the sample has no ${method} ${pathAndQuery}`);
  return index + 1;
}

async function brokenTarget(transform: ExchangeTransform): Promise<{ server: SpawnedServer; proxy: FaultProxy; close(): Promise<void> }> {
  const server = await spawnReferenceServer({ env: { PETSTORE_TIME_SCALE: '60' } });
  const proxy = await startFaultProxy(server.baseUrl, transform);
  return { server, proxy, close: async () => (await proxy.close(), await server.stop()) };
}

const renameNotFound: ExchangeTransform['response'] = (response, request) =>
  request.path === '/v1/pets/999999' ? { ...response, body: response.body.replace('no pet has id', 'nothing under id') } : response;

test('violations and differences are named by exchange and rule, and fail the replay', async () => {
  const secondPet = harEntries(SAMPLE_HAR)[1]?.response.content.text?.match(/"id":(\d+)/)?.[1];
  const target = await brokenTarget({
    response: (response, request) => {
      if (request.path === `/v1/pets/${secondPet}`) return { status: 500, headers: { ...response.headers, 'content-type': 'text/plain' }, body: 'internal error' };
      if (request.path === '/v1/pets?status=sold') {
        const { 'x-ratelimit-remaining': _dropped, ...headers } = response.headers;
        return { ...response, headers };
      }
      return renameNotFound(response, request);
    },
  });
  try {
    const reports = tempDir('broken');
    const result = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--output', reports], cleanEnv({ ...DEMO_KEY_ENV, PETSTORE_BASE_URL: target.proxy.baseUrl }));
    expect(result.code, explain(result)).toBe(1);

    const summary = readSummary(reports);
    const named = summary.findings.map((f) => [f.entry, f.method, f.path, f.verdict]);
    expect(named).toEqual([
      [entryOf('GET', '/pets?status=sold'), 'GET', '/pets?status=sold', 'violation'],
      [entryOf('GET', `/pets/${secondPet}`), 'GET', `/pets/${secondPet}`, 'violation'],
      [entryOf('GET', '/pets/999999'), 'GET', '/pets/999999', 'different'],
    ]);
    const rulesOf = (entry: number): string[] => {
      const finding = summary.findings.find((f) => f.entry === entry);
      return [...new Set((finding?.violations ?? []).map((v) => v.rule))].sort();
    };
    expect(rulesOf(entryOf('GET', `/pets/${secondPet}`))).toEqual(['RESP-1', 'SVC-1']);
    expect(rulesOf(entryOf('GET', '/pets?status=sold'))).toEqual(['RL-4']);
    expect(summary.violations.exchanges).toBe(2);
    expect(summary.differences.exchanges).toBe(3);
    expect(result.stdout).toContain(`(entry ${entryOf('GET', `/pets/${secondPet}`)}) GET /pets/${secondPet}: violation: RESP-1`);
    expect(result.stdout).toMatch(/FAIL: \d+ exchange/);

    // The report a reviewer opens: verdict first, the broken exchanges open with their evidence highlighted.
    await inChromium(async (browser) => {
      const page = await browser.newPage();
      await page.goto(`file://${join(reports, 'index.html')}`);
      await expect(page.locator('.verdict')).toContainText('Replay failed: 2 exchange(s) break the contract');
      const first = page.locator('details.exchange[open]').first();
      await expect(first).toContainText('/pets?status=sold');
      await expect(first).toContainText('RL-4');
      const different = page.locator('details.exchange', { hasText: 'GET /pets/999999' });
      await expect(different.locator('mark').first()).toContainText('"message"');
      await expect(different.locator('td.replayed')).toContainText('nothing under id');
    });
  } finally {
    await target.close();
  }
});

test('a difference alone passes, and fails with --strict', async () => {
  const target = await brokenTarget({ response: renameNotFound });
  try {
    const env = cleanEnv({ ...DEMO_KEY_ENV, PETSTORE_BASE_URL: target.proxy.baseUrl });
    const lenient = tempDir('lenient');
    const passed = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--output', lenient], env);
    expect(passed.code, explain(passed)).toBe(0);
    expect(readSummary(lenient)).toMatchObject({ verdict: 'pass', violations: { exchanges: 0 }, differences: { exchanges: 1 } });

    // A fresh target: the first replay used the sample's Free key to its limit.
    const again = await brokenTarget({ response: renameNotFound });
    try {
      const strict = tempDir('strict');
      const failed = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--strict', '--output', strict], { ...env, PETSTORE_BASE_URL: again.proxy.baseUrl });
      expect(failed.code, explain(failed)).toBe(1);
      expect(readSummary(strict).findings.map((f) => f.path)).toEqual(['/pets/999999']);
    } finally {
      await again.close();
    }
  } finally {
    await target.close();
  }
});
