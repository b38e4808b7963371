/** Every link in the README and docs/ resolves: the file exists and the #anchor names one of its headings. */
import { expect, test } from '@playwright/test';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { anchorsOf, brokenLinks, manualFiles } from '../../scripts/docs/links.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

test('every link of the README and the manual resolves, anchors included', () => {
  const broken = brokenLinks(REPO_ROOT).map(({ file, line, target, problem }) => `${file}:${line} ${target}: ${problem}`);
  expect(broken).toEqual([]);
});

test('the manual has the pages the README promises', () => {
  const files = manualFiles(REPO_ROOT);
  for (const page of ['docs/tutorial.md', 'docs/benchmarks.md', 'docs/reference/rules.md', 'docs/explanation/verdicts.md', 'docs/explanation/architecture.md']) expect(files).toContain(page);
});

test('a missing file, a missing anchor and a link outside the repository are caught; code and external links are not links', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'links-'));
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'README.md'), '# Title\n\n## Rate limits (RL-1..7)\n\n[ok](docs/a.md#part-two) [self](#rate-limits-rl-17) [gone](docs/b.md) [bad anchor](docs/a.md#nowhere) [out](../x.md) [web](https://example.com/none)\n\n```\n[not a link](nowhere.md)\n```\n`[neither](nowhere.md)`\n');
  writeFileSync(path.join(root, 'docs', 'a.md'), '# Part one\n\n## Part two\n\n## Part two\n');
  expect(brokenLinks(root).map(({ line, target }) => `${line} ${target}`)).toEqual(['5 docs/b.md', '5 docs/a.md#nowhere', '5 ../x.md']);
  expect([...anchorsOf('## Part two\n## Part two\n### `certify` flags\n')]).toEqual(['part-two', 'part-two-1', 'certify-flags']);
});
