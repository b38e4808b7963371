import { existsSync } from 'node:fs';
import { chromium, test, type Browser } from '@playwright/test';
import { UNDER_CI } from './installed-tools.ts';

/** Where a Chromium may be, in order: Playwright's own download, then the system's (Debian, Ubuntu, Google's). */
const CANDIDATES = [() => chromium.executablePath(), () => '/usr/bin/chromium', () => '/usr/bin/chromium-browser', () => '/usr/bin/google-chrome'];

export const INSTALL_HINT = 'no Chromium found: run `npx playwright install chromium`, or install your system\'s chromium package, to run the report render checks';

/** The first Chromium installed on this machine, or undefined. */
export function chromiumPath(): string | undefined {
  for (const candidate of CANDIDATES) {
    const path = candidate();
    if (path && existsSync(path)) return path;
  }
  return undefined;
}

/** Chromium, headless, with the flags a closed network needs (see shared/GOTCHAS.md). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(INSTALL_HINT);
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/**
 * Runs a render check in Chromium. On a machine without one the check is skipped, noted on the test (it shows
 * in the report) and said in one line; the rest of the test still runs. Under CI a missing Chromium fails it.
 */
export async function inChromium(check: (browser: Browser) => Promise<void>): Promise<void> {
  if (!chromiumPath() && UNDER_CI) throw new Error(`under CI a render check is never skipped: ${INSTALL_HINT}`);
  if (!chromiumPath()) {
    test.info().annotations.push({ type: 'render check skipped', description: INSTALL_HINT });
    process.stderr.write(`render check skipped: ${INSTALL_HINT}\n`);
    return;
  }
  const browser = await launchChromium();
  try {
    await check(browser);
  } finally {
    await browser.close();
  }
}
