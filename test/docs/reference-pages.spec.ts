/**
 * The generated reference cannot lie: npm test fails when a page differs from what its sources generate
 * (scripts/docs/reference.ts --check, one line per page), every stated check is the part's own, and every
 * variable the product reads is documented.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { driftLine, PAGES } from '../../scripts/docs/reference.ts';
import { SETTINGS_OF_PARTS } from '../../scripts/docs/settings-page.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';
import { repoFiles } from '../fixtures/repo-files.ts';

test('a page that differs from its sources is one line naming the page and the command that regenerates it', () => {
  expect(driftLine('docs/reference/settings.md', 'old text', 'new text')).toBe('docs/reference/settings.md is out of date with the code: run npm run docs:reference');
  expect(driftLine('docs/reference/cli.md', undefined, 'text')).toBe('docs/reference/cli.md is missing: run npm run docs:reference');
  expect(driftLine('docs/reference/cli.md', 'same', 'same')).toBeUndefined();
});

test('the generated pages are the ones under docs/reference/', () => {
  const written = readdirSync(path.join(REPO_ROOT, 'docs', 'reference')).filter((name) => name.endsWith('.md')).map((name) => `docs/reference/${name}`);
  expect(written.sort()).toEqual(Object.keys(PAGES).sort());
});

/** A base environment in which every part reads every variable: a target named, so the suite reads the target's settings too. */
const BASE_ENV = { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1' };

for (const part of SETTINGS_OF_PARTS) {
  test(`${part.part.replace(/\s*\(.*$/, '')}: the defaults read cleanly, and every value the reference says is refused is refused, naming its variable`, () => {
    expect(() => part.read(BASE_ENV)).not.toThrow();
    const notRefused: string[] = [];
    for (const setting of part.settings.filter((s) => s.refused !== undefined)) {
      const variable = setting.name.split(',')[0]!.trim().replace('<PLAN>', 'FREE');
      let message = '';
      try {
        part.read({ ...BASE_ENV, [variable]: setting.refused });
      } catch (error) {
        message = (error as Error).message;
      }
      if (!message.includes(variable)) notRefused.push(`${variable}=${setting.refused}: ${message || 'accepted'}`);
    }
    expect(notRefused).toEqual([]);
  });
}

test('every PETSTORE_ variable the product reads is in the settings reference', () => {
  const documented = SETTINGS_OF_PARTS.flatMap((part) => part.settings.flatMap((s) => s.name.split(',').map((name) => name.trim())));
  const covers = (variable: string): boolean =>
    documented.some((name) => name === variable || (name.includes('<') && variable.startsWith(name.slice(0, name.indexOf('<')))));
  const read = new Map<string, string>();
  for (const file of ['playwright.config.ts', ...['lib', 'specs', 'reference-server', 'harness', 'matrix', 'cli'].flatMap((dir) => repoFiles(dir))]) {
    const source = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const match of source.matchAll(/env(?:\.|\[['"`])(PETSTORE_[A-Z0-9_]+)/g)) if (!read.has(match[1]!)) read.set(match[1]!, file);
    for (const match of source.matchAll(/['"`](PETSTORE_[A-Z0-9_]+)['"`]/g)) if (!read.has(match[1]!)) read.set(match[1]!, file);
  }
  const undocumented = [...read].filter(([variable]) => !covers(variable)).map(([variable, file]) => `${variable} (${file})`);
  expect(undocumented).toEqual([]);
});
