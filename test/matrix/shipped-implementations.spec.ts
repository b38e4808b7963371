/**
 * The fast part of certifying the shipped implementations (the whole run is `npm run certify --
 * implementations.yaml`, about ten minutes): every start entry of the sample file starts from a fresh clone with
 * its own command, installing what it needs, prints its base URL, answers a demo key and refuses no key, and stops.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { Redactor } from '../../lib/redact.ts';
import { readImplementationsFile } from '../../matrix/implementations-file.ts';
import { startImplementation } from '../../matrix/start-command.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

const sample = readImplementationsFile(path.join(REPO_ROOT, 'implementations.yaml'));

test('the sample implementations file is valid as committed, each third-party entry with its expectations', () => {
  expect(sample.rejected).toEqual([]);
  expect(sample.implementations.map((implementation) => implementation.reach.kind)).toEqual(['bundled', 'start', 'start', 'start']);
  for (const implementation of sample.implementations.filter((item) => item.reach.kind === 'start')) expect(implementation.expectations, implementation.name).toBeDefined();
});

for (const implementation of sample.implementations) {
  if (implementation.reach.kind !== 'start') continue;
  const { command, timeoutMs } = implementation.reach;
  test(`${implementation.name} starts with its command, answers the demo keys, refuses no key, and stops`, async ({}, testInfo) => {
    test.setTimeout(timeoutMs + 60_000);
    const started = await startImplementation({
      command,
      cwd: REPO_ROOT,
      env: process.env,
      timeoutMs,
      logFile: testInfo.outputPath('implementation.log'),
      redactor: new Redactor(DEMO_KEYS),
      signal: new AbortController().signal,
    });
    try {
      const withKey = await fetch(`${started.baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${DEMO_KEYS.free[0]}` } });
      expect(withKey.status).toBe(200);
      expect(withKey.headers.get('content-type')).toMatch(/^application\/json/);
      const withoutKey = await fetch(`${started.baseUrl}/pets`);
      expect(withoutKey.status).toBe(401);
    } finally {
      await started.stop();
    }
  });
}
