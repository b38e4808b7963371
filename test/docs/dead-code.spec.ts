/**
 * No dead code in the product: every name a product file exports is used somewhere else (another file, a test,
 * a page of the manual), or at least in its own file. A name nobody reads is a question a newcomer cannot answer.
 * Unused locals are the compiler's to catch (tsconfig's noUnusedLocals).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';
import { repoFiles } from '../fixtures/repo-files.ts';

const PRODUCT = ['bin', 'cli', 'lib', 'specs', 'reference-server', 'harness', 'matrix', 'bench', 'scripts', 'examples'];
const READERS = [...PRODUCT, 'test', 'docs', 'fixtures', 'action', '.github'];

/** Exports of `texts`' product files whose name appears nowhere but where it is declared. */
function unusedExports(texts: ReadonlyMap<string, string>, product: readonly string[]): string[] {
  const uses = new Map<string, number>();
  for (const text of texts.values()) for (const [word] of text.matchAll(/[A-Za-z_$][\w$]*/g)) uses.set(word, (uses.get(word) ?? 0) + 1);
  return product.flatMap((file) =>
    [...texts.get(file)!.matchAll(/^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm)]
      .map((match) => match[1]!)
      .filter((name) => uses.get(name) === 1)
      .map((name) => `${file}: ${name}`),
  );
}

test('every name the product exports is read somewhere', () => {
  // Declarations a generator wrote (the client matrix's SDK types) are not the product's own names.
  const product = PRODUCT.flatMap((dir) => repoFiles(dir, /(?<!\.d)\.(ts|mjs)$/));
  const texts = new Map([...READERS.flatMap((dir) => repoFiles(dir, /\.(ts|mjs|js|py|md|ya?ml|json|sh|html)$/)), 'playwright.config.ts', 'package.json'].map((file) => [file, readFileSync(path.join(REPO_ROOT, file), 'utf8')]));
  expect(unusedExports(texts, product)).toEqual([]);
});

test('an export nobody reads is caught; one read by a test or in its own file is not', () => {
  const texts = new Map([
    ['lib/a.ts', 'export function unread(): void {}\nexport const ownUse = 1;\nconst twice = ownUse;\nexport interface ByTest { x: number }\n'],
    ['test/a.spec.ts', "import type { ByTest } from '../lib/a.ts';\n"],
  ]);
  expect(unusedExports(texts, ['lib/a.ts'])).toEqual(['lib/a.ts: unread']);
});
