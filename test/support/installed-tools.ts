/**
 * A test that needs a tool the machine may lack (Chromium, nginx, openssl, Locust) is skipped without it, with
 * how to install it, except under CI (CI set): there the project's scripts install every tool (scripts/ensure-*.sh
 * before npm test), so a missing one means the install step was lost, and the test runs and fails on it instead of
 * letting CI go green without its checks.
 */
import { existsSync } from 'node:fs';
import { test } from '@playwright/test';

export const UNDER_CI = Boolean(process.env.CI);

/** Skips the test, or every test of the file at its top, when the tool is missing outside CI. */
export function skipWithout(installed: boolean, hint: string): void {
  test.skip(!installed && !UNDER_CI, hint);
}

/**
 * Where a tool from Debian's packages is (promtool, logrotate), or the test is skipped with how to get it; under
 * CI a missing one fails the test at once, naming it.
 */
export function toolPath(name: string, install: string): string | undefined {
  const found = ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'].map((dir) => `${dir}/${name}`).find((path) => existsSync(path));
  if (!found && UNDER_CI) throw new Error(`${name} not found on this CI machine: ${install}`);
  skipWithout(found !== undefined, `${name} not found: ${install}`);
  return found;
}
