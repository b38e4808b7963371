/**
 * The README as a newcomer reads it: its first commands exist, and every prerequisite the project's own checks
 * install before they run (package.json's pretest and pretest:field) is named in "What you need", with the Node
 * lines and the package's size stated from what decides them (scripts/docs/package-facts.ts).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inWords, nodeLines } from '../../scripts/docs/package-facts.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** What each ensure script of pretest gets, as the README must name it. */
const NAMES: Readonly<Record<string, RegExp>> = { chromium: /Chromium/, locust: /Python 3 with its `venv` module/, nginx: /nginx/, prometheus: /Prometheus's `promtool`/, logrotate: /logrotate/, redis: /redis-server/ };

function section(title: string): string {
  const start = readme.indexOf(`## ${title}\n`);
  expect(start, `the README has a section "${title}"`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

test("the README's first commands are the package's own scripts", () => {
  const first = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
  const scripts = [...first.matchAll(/npm (?:run )?([a-z:-]+)/g)].map((match) => match[1]!).filter((name) => name !== 'ci');
  expect(scripts).toEqual(['conformance', 'test']);
  for (const name of scripts) expect(pkg.scripts[name], name).toBeDefined();
});

test('every prerequisite npm test and npm run test:field install first is named where a newcomer looks', () => {
  const ensured = [...`${pkg.scripts.pretest} ${pkg.scripts['pretest:field']}`.matchAll(/scripts\/ensure-([a-z]+)\.sh/g)].map((match) => match[1]!);
  expect(ensured.length).toBeGreaterThan(0);
  const needs = section('What you need');
  for (const tool of ensured) {
    expect(NAMES[tool], `name ensure-${tool}.sh's tool in NAMES and in the README's "What you need"`).toBeDefined();
    expect(needs).toMatch(NAMES[tool]!);
  }
  expect(needs).toMatch(/npm pack --dry-run/);
});

test("the Node lines are engines' major versions, in words", () => {
  expect(nodeLines('^22.12.0 || ^24.0.0 || >=26.0.0')).toEqual([22, 24, 26]);
  expect(inWords([22, 24, 26])).toBe('22, 24 and 26');
  expect(inWords([24])).toBe('24');
  expect(section('What you need')).toContain(`Node **<!-- generated:node-lines -->${inWords(nodeLines())}<!-- /generated -->**`);
});
