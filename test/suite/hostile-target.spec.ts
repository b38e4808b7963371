/**
 * However a target behaves, a run ends with a verdict within PETSTORE_RUN_TIMEOUT_SECONDS: here a target that
 * takes seconds over every answer, so no test can finish on its own before the bound.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';

const ANSWER_DELAY_MS = 4_000;
const RUN_TIMEOUT_SECONDS = 15;
/** Starting Playwright, its global setup's probe and writing the reports, beside the bound itself. */
const START_AND_REPORT_MS = 30_000;

function slowTarget(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[]');
    }, ANSWER_DELAY_MS).unref();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('a target that answers every request slowly cannot hold a run past PETSTORE_RUN_TIMEOUT_SECONDS: it ends with a verdict', async () => {
  test.setTimeout(120_000);
  const server = await slowTarget();
  const { port } = server.address() as AddressInfo;
  const label = 'hostile-slow-target';
  try {
    const run = await runSuite({
      label,
      baseUrl: `http://127.0.0.1:${port}/v1`,
      allReporters: true,
      env: { PETSTORE_RUN_TIMEOUT_SECONDS: String(RUN_TIMEOUT_SECONDS) },
      timeoutMs: RUN_TIMEOUT_SECONDS * 1000 + START_AND_REPORT_MS,
    });
    expect(run.durationMs, run.output.slice(-2_000)).toBeLessThan(RUN_TIMEOUT_SECONDS * 1000 + START_AND_REPORT_MS);
    expect([1, 3], `exit ${run.exitCode}: a run cut short is never conforming`).toContain(run.exitCode);
    const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict.state).not.toBe('conforming');
    expect(run.output).toContain('Conformance: Not');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
