/**
 * `npm run docs:screenshots`: the manual's pictures of the reports, taken from the reports of the last runs
 * in Chromium (Playwright's own, else the system's: scripts/ensure-chromium.sh installs Debian's).
 *   npm run conformance && npm run docs:screenshots      -> docs/images/conformance-report.png
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../../test/support/chromium.ts';

const SHOTS = [
  { report: 'reports/conformance/index.html', image: 'docs/images/conformance-report.png', height: 1400 },
] as const;

const browser = await launchChromium();
try {
  for (const { report, image, height } of SHOTS) {
    if (!existsSync(report)) {
      process.stdout.write(`skipped ${image}: no ${report} (run the command that writes it first)\n`);
      continue;
    }
    const page = await browser.newPage({ viewport: { width: 1280, height }, deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(report).href);
    await page.screenshot({ path: image });
    await page.close();
    process.stdout.write(`wrote ${image} from ${report}\n`);
  }
} finally {
  await browser.close();
}
