/**
 * How the package runs its conformance suite as a child process: Playwright with the package's own config,
 * every report and artifact under one folder of the caller's choosing.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { PACKAGE_ROOT, TSX } from './child.ts';

/**
 * Playwright resolves report paths against the config's folder, which for an installed package is inside
 * node_modules; its environment variables, which win over the config, point every reporter at the caller's
 * folder instead (a reporter chosen with -- --reporter included).
 */
export function reportEnv(outputDir: string): NodeJS.ProcessEnv {
  return {
    PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(outputDir, 'playwright'),
    PLAYWRIGHT_HTML_OPEN: 'never',
    PLAYWRIGHT_JUNIT_OUTPUT_FILE: path.join(outputDir, 'junit.xml'),
    PLAYWRIGHT_JSON_OUTPUT_FILE: path.join(outputDir, 'results.json'),
    PLAYWRIGHT_BLOB_OUTPUT_DIR: path.join(outputDir, 'blob-report'),
    PETSTORE_CONFORMANCE_REPORT_DIR: outputDir,
  };
}

/** `node` arguments that run the package's suite with its own config, test artifacts under `outputDir`. */
export function suiteNodeArgs(outputDir: string, playwrightArgs: readonly string[] = []): string[] {
  return [
    // Playwright compiles TypeScript only outside node_modules; tsx compiles the installed package's suite.
    '--import',
    TSX,
    createRequire(import.meta.url).resolve('@playwright/test/cli'),
    'test',
    '--config',
    path.join(PACKAGE_ROOT, 'playwright.config.ts'),
    `--output=${path.join(outputDir, 'test-results')}`,
    ...playwrightArgs,
  ];
}
