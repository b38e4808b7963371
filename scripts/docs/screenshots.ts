/**
 * `npm run docs:screenshots`: the manual's pictures of the reports, taken from the reports of the last runs
 * in Chromium (Playwright's own, else the system's: scripts/ensure-chromium.sh installs Debian's).
 *   npm run conformance && npm run docs:screenshots      -> docs/images/conformance-report.png
 *   npm run matrix:clients && npm run docs:screenshots   -> docs/images/client-matrix*.png
 * A shot with a selector is of that part of the page alone.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../../test/support/chromium.ts';

const SHOTS: readonly { report: string; image: string; height: number; selector?: string }[] = [
  { report: 'reports/conformance/index.html', image: 'docs/images/conformance-report.png', height: 1400 },
  { report: 'reports/client-matrix/index.html', image: 'docs/images/client-matrix.png', height: 1100 },
  { report: 'reports/client-matrix/index.html', image: 'docs/images/client-matrix-waits.png', height: 1400, selector: '.charts' },
];

const browser = await launchChromium();
try {
  for (const { report, image, height, selector } of SHOTS) {
    if (!existsSync(report)) {
      process.stdout.write(`skipped ${image}: no ${report} (run the command that writes it first)\n`);
      continue;
    }
    const page = await browser.newPage({ viewport: { width: 1280, height }, deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(report).href);
    await (selector ? page.locator(selector).screenshot({ path: image }) : page.screenshot({ path: image }));
    await page.close();
    process.stdout.write(`wrote ${image} from ${report}\n`);
  }
} finally {
  await browser.close();
}
