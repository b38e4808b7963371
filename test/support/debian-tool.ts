/**
 * A tool a test runs from Debian's packages (promtool, logrotate), installed by scripts/ensure-*.sh before
 * `npm test`. Without it the test is skipped with how to get it, except under CI=true, where it fails: a CI
 * machine that lacks the tool would otherwise pass without running the test.
 */
import { existsSync } from 'node:fs';
import { test } from '@playwright/test';

export function toolPath(name: string, install: string): string | undefined {
  const found = ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'].map((dir) => `${dir}/${name}`).find((path) => existsSync(path));
  if (!found && process.env.CI) throw new Error(`${name} not found on this CI machine: ${install}`);
  test.skip(!found, `${name} not found: ${install}`);
  return found;
}
