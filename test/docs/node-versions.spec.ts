/**
 * The Node versions the project says it supports (package.json `engines`, the README) are the ones npm test
 * runs on in CI (scripts/on-node.sh in the test scripts), and none of them is past its end of life.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
const majorsIn = (text: string, pattern: RegExp): number[] => [...new Set([...text.matchAll(pattern)].map((m) => Number(m[1])))].sort((a, b) => a - b);

test('every major version engines allows is tested in CI (npm test or npm run test:field), and only those', () => {
  const supported = majorsIn(pkg.engines.node, /(?:\^|>=)(\d+)\./g);
  const tested = majorsIn(Object.values(pkg.scripts).join(' '), /on-node\.sh (\d+)\b/g);
  expect(tested).toEqual(supported);
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  expect(readme, 'the README states the engines range').toContain(pkg.engines.node);
});

test('Node 20 and older are not supported: their end of life has passed', () => {
  expect(Math.min(...majorsIn(pkg.engines.node, /(?:\^|>=)(\d+)\./g))).toBeGreaterThanOrEqual(22);
});
