/**
 * The suite's settings are parsed once, by playwright.config.ts in the runner, and handed to the global setup and
 * every worker with the rest of the run: a worker never reads PETSTORE_* again, so it cannot disagree with the
 * runner, nor fail on its own where the runner already said what was wrong.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../fixtures/listed-tests.ts';
import { repoFiles } from '../../fixtures/repo-files.ts';
import { runSettings, shareSettings, type SuiteRun } from '../../../specs/support/run.ts';
import { settingsFromEnv } from '../../../specs/support/settings.ts';

test('only the config parses the settings from the environment (the settings page reads them to check its examples)', () => {
  const callers = ['playwright.config.ts', ...['specs', 'cli', 'lib', 'harness', 'matrix'].flatMap((dir) => repoFiles(dir))]
    .filter((file) => /\bsettingsFromEnv\(/.test(readFileSync(path.join(REPO_ROOT, file), 'utf8')))
    .sort();
  expect(callers).toEqual(['playwright.config.ts', 'specs/support/setting-docs.ts', 'specs/support/settings.ts']);
});

test('the settings the runner shared are the ones a worker and the global setup get, whatever the environment says later', () => {
  const name = `PETSTORE_SUITE_RUN_${process.pid}`;
  const before = process.env.PETSTORE_BASE_URL;
  const run: SuiteRun = { port: 1, leaseDir: '/nowhere', clockAnchorMs: 0, generatedSeed: 7 };
  const parsed = settingsFromEnv({ PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1', PETSTORE_API_KEY_FREE: 'free-a,free-b', PETSTORE_READ_ONLY: '1' }, run);
  try {
    shareSettings(run, parsed);
    process.env.PETSTORE_BASE_URL = 'not a url';
    expect(runSettings()).toEqual(JSON.parse(JSON.stringify(parsed)));
    expect(runSettings()).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', readOnly: true, keys: { free: ['free-a', 'free-b'] } });
  } finally {
    delete process.env[name];
    if (before === undefined) delete process.env.PETSTORE_BASE_URL;
    else process.env.PETSTORE_BASE_URL = before;
  }
});
