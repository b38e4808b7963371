/**
 * No import circles in the product: a file never reaches itself through what it imports, types included.
 * Types two files share live in a leaf beside them (lib/violation.ts, harness/load/finding.ts), so a newcomer
 * can read the parts from the ground up.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';
import { repoFiles } from '../fixtures/repo-files.ts';

const PARTS = ['lib', 'specs', 'reference-server', 'harness', 'matrix', 'cli', 'bench', 'scripts'];

/** The repository files one file imports by a relative path (static imports, re-exports and dynamic imports). */
function importsOf(file: string, text: string): string[] {
  const specifiers = [
    ...[...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!),
    ...[...text.matchAll(/import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)].map((match) => match[1]!),
  ];
  return specifiers.map((specifier) => path.normalize(path.join(path.dirname(file), specifier)));
}

/** Every circle of the graph, each once, as the files in import order with the first repeated at the end. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const trail: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string): void => {
    if (onPath.has(file)) {
      found.push([...trail.slice(trail.indexOf(file)), file]);
      return;
    }
    if (done.has(file)) return;
    trail.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
    trail.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

test('no file of the product imports itself, however far round', () => {
  const files = ['playwright.config.ts', ...PARTS.flatMap((part) => repoFiles(part))];
  const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(path.join(REPO_ROOT, file), 'utf8'))]));
  expect(circles(graph).map((circle) => circle.join(' → '))).toEqual([]);
});

test('a circle is caught, through type imports and re-exports too', () => {
  const graph = new Map([
    ['lib/a.ts', importsOf('lib/a.ts', "import type { B } from './b.ts';\n")],
    ['lib/b.ts', importsOf('lib/b.ts', "export { c } from './c.ts';\n")],
    ['lib/c.ts', importsOf('lib/c.ts', "import {\n  a,\n} from './a.ts';\n")],
    ['lib/d.ts', importsOf('lib/d.ts', "import { a } from './a.ts';\n")],
  ]);
  expect(circles(graph)).toEqual([['lib/a.ts', 'lib/b.ts', 'lib/c.ts', 'lib/a.ts']]);
});
