/** Locust for the engine's tests: they are skipped without it, except in CI, where a missing engine is a failure. */
import { test } from '@playwright/test';
import { findLocust } from '../../../harness/load/engine/locust-binary.ts';
import type { RunningServer } from '../../../reference-server/server.ts';

export const LOCUST = findLocust();

/** Call at the top of a spec file (or a describe) that runs Locust. */
export function needLocust(): void {
  test.skip(!LOCUST && !process.env.CI, 'Locust is not installed: bash scripts/ensure-locust.sh (npm test runs it) or pip install locust');
  test.beforeAll(() => {
    if (!LOCUST) throw new Error('Locust is not installed, and CI must run the engine: scripts/ensure-locust.sh should have installed it');
  });
}

/** Reference servers a test starts, closed after each test: returns the function that registers one. */
export function closedAfterEach(): (server: RunningServer) => RunningServer {
  let servers: RunningServer[] = [];
  test.afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  return (server) => (servers.push(server), server);
}
