/**
 * Locust's last word: on "quit" a worker stops its users (up to --stop-timeout) and only then sends its last
 * report, while Locust's own master waits 0.5 s for it. A gateway that holds the last answers of the run for a
 * few seconds keeps a worker's users busy past the quit: every answer the gateway gave must still be in the
 * result. A result that says a worker's last report never came leaves what depends on it partly checked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { resultFromFile, runPlanOf } from '../../harness/load/engine/locust-engine.ts';
import { RESULT_FORMAT } from '../../harness/load/engine/result.ts';
import { RESULT_FILE, RUN_PLAN_FILE } from '../../harness/load/engine/run-plan.ts';
import { withLostAnswers } from '../../harness/load/lost-answers.ts';
import type { RunResult } from '../../harness/load/runner.ts';
import type { CheckId, Verdict, VerdictStatus } from '../../harness/load/verdicts/verdict.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { needLocust } from './support/locust.ts';
import { keyOf, runEngineAgainst } from './support/run.ts';
import { DEFAULT_MIX, type Scenario } from '../../harness/load/scenario.ts';

const SCALE = 60;
const DURATION_MS = 4_000;
/** Answers to requests that reach the gateway this late in the run come this much later: past the master's quit. */
const HELD_FROM_MS = 3_000;
const HELD_MS = 3_000;

interface Gateway {
  baseUrl: string;
  answered: () => number;
  close: () => Promise<void>;
}

/** A gateway in front of `upstream` that counts the answers it gives and holds those of the run's last second. */
async function slowTailGateway(upstream: string): Promise<Gateway> {
  const target = new URL(upstream);
  let first: number | undefined;
  let answered = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const arrived = Date.now();
    first ??= arrived;
    const held = arrived - first >= HELD_FROM_MS ? HELD_MS : 0;
    const forwarded = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        setTimeout(() => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(Buffer.concat(chunks), () => answered++);
        }, held),
      );
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    answered: () => answered,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

test.describe('a worker whose last answers come after the quit', () => {
  needLocust();

  test('every answer the target gave reaches the result: the master waits for each worker\'s last report', async () => {
    const upstream = await createReferenceServer({ timeScale: SCALE });
    const gateway = await slowTailGateway(upstream.baseUrl);
    try {
      const summary = await runEngineAgainst(gateway.baseUrl, [{ plan: 'free', keyNumber: 1, behaviour: 'naive', rate: { kind: 'perSecond', perSecond: 8 } }], DURATION_MS, SCALE);
      const key = keyOf(summary, 'free #1 naive');
      expect(gateway.answered()).toBeGreaterThan(10);
      expect(key.admitted + key.refused + key.errors).toBe(gateway.answered());
      expect(key.verdicts.map((verdict) => verdict.detail).join(' ')).not.toContain('Partly checked');
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});

test('a result whose worker never sent its last report says so, and leaves what depends on it partly checked', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-last-report-'));
  try {
    const scenario: Scenario = {
      name: 'test', description: '', source: 'test', durationMs: 2_000, concurrency: 2, timeScale: SCALE,
      keys: [{ label: 'free #1 naive', plan: 'free', keyNumber: 1, behaviour: 'naive', rate: { kind: 'perSecond', perSecond: 10 }, mix: DEFAULT_MIX }],
    };
    const plan = runPlanOf(scenario, [{ spec: scenario.keys[0]!, key: DEMO_KEYS.free[0]!, perSecond: 10 }], 'http://127.0.0.1:9/v1', SCALE, 1, 2);
    writeFileSync(join(dir, RUN_PLAN_FILE), JSON.stringify(plan));
    const now = Date.now();
    const loose = { key: 0, status: 200, retry: false, wait: '-', headers: { limit: null, remaining: null, reset: null }, count: 3, firstSent: now, lastSent: now + 20, firstDone: now + 5, lastDone: now + 25, retries: 0, statuses: { 200: 3 } };
    const read = (withoutLastReport: string[]): RunResult => {
      writeFileSync(join(dir, RESULT_FILE), JSON.stringify({ format: RESULT_FORMAT, generators: ['w1', 'w2'], heldBack: [], windows: [], loose: [loose], latency: [], withoutLastReport }));
      return resultFromFile(join(dir, RESULT_FILE), scenario, plan);
    };
    expect(read([]).lostAnswers).toBeUndefined();
    const lost = read(['w2']).lostAnswers;
    expect(lost).toBe('the last report of Locust worker w2 never reached the master, so the answers of its last seconds are missing');

    const verdict = (check: CheckId, status: VerdictStatus): Verdict => ({ check, rules: [], status, title: check, detail: 'Seen.', evidence: [] });
    const judged = withLostAnswers([verdict('minute-max', 'pass'), verdict('minute-max', 'fail'), verdict('first-refusal', 'fail'), verdict('remaining-steps', 'warn'), verdict('limiter-kind', 'observed'), verdict('ban', 'not-checked')], lost);
    expect(judged.map((v) => `${v.check} ${v.status}`)).toEqual(['minute-max inconclusive', 'minute-max fail', 'first-refusal inconclusive', 'remaining-steps inconclusive', 'limiter-kind observed', 'ban not-checked']);
    expect(judged[0]!.detail).toBe(`Seen. Partly checked: ${lost}.`);
    expect(withLostAnswers(judged, undefined)).toEqual(judged);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
