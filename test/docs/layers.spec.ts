/**
 * The layers the architecture page draws (docs/explanation/architecture.md): lib/ at the ground; the suite,
 * the reference server and the harness above it; the matrix, then the CLI, on top. A part imports only from
 * itself and the parts below it; the harness may also start the reference server beside it.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

const LAYER: Readonly<Record<string, number>> = { lib: 0, specs: 1, 'reference-server': 1, harness: 1, matrix: 2, cli: 3 };
const BESIDE: ReadonlyArray<readonly [string, string]> = [['harness', 'reference-server']];

function sources(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(REPO_ROOT, relative)).isDirectory()) return sources(relative);
    return /\.(ts|mjs|js)$/.test(name) ? [relative] : [];
  });
}

/** The part a repository path belongs to; the suite's config at the root is the suite's. */
function partOf(file: string): string | undefined {
  if (file === 'playwright.config.ts') return 'specs';
  const top = file.split(path.sep)[0]!;
  return top in LAYER ? top : undefined;
}

/** The imports of one file that reach a part above its own, or beside it. */
function climbingImports(file: string, text: string): string[] {
  const from = partOf(file)!;
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].flatMap((match) => {
    const target = path.normalize(path.join(path.dirname(file), match[1]!));
    const to = partOf(target);
    if (to === undefined || to === from) return [];
    const allowed = LAYER[to]! < LAYER[from]! || BESIDE.some(([a, b]) => a === from && b === to);
    return allowed ? [] : [`${file} imports ${target} (${from} → ${to})`];
  });
}

test('no part imports from a part above it, or beside it', () => {
  const files = ['playwright.config.ts', ...Object.keys(LAYER).flatMap(sources)];
  expect(files.flatMap((file) => climbingImports(file, readFileSync(path.join(REPO_ROOT, file), 'utf8')))).toEqual([]);
});

test('a climbing import is caught: the matrix importing the CLI, lib importing the suite', () => {
  expect(climbingImports('matrix/run.ts', "import { runNode } from '../cli/child.ts';\n")).toEqual(['matrix/run.ts imports cli/child.ts (matrix → cli)']);
  expect(climbingImports('lib/x.ts', "import type { A } from '../specs/reporter/verdicts.ts';")).toEqual(['lib/x.ts imports specs/reporter/verdicts.ts (lib → specs)']);
  expect(climbingImports('harness/load/target.ts', "import { spawnReferenceServer } from '../../reference-server/spawn.ts';")).toEqual([]);
});
