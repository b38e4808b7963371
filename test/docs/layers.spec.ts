/**
 * The layers the architecture page draws (docs/explanation/architecture.md): lib/ at the ground; the suite,
 * the reference server and the harness above it; the matrix, then the CLI, on top. A part imports only from
 * itself and the parts below it; the harness may also start the reference server beside it. Each folder of the
 * harness is a part of its own: what two of them share lives in lib/, and only the parts that build on the judge
 * (BUILDS_ON) import from a harness part beside them.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

const LAYER: Readonly<Record<string, number>> = { lib: 0, specs: 1, 'reference-server': 1, harness: 1, matrix: 2, cli: 3 };
const BESIDE: ReadonlyArray<readonly [string, string]> = [['harness', 'reference-server']];
/**
 * Harness parts that build on another: the recorder judges what it records (--judge), and certify-client judges
 * a client's run with the judge's client rules and report, and the watcher judges a live log with the judge's own
 * TrafficJudge and writes its report. The judge itself builds on no harness part.
 */
const BUILDS_ON: ReadonlyArray<readonly [string, string]> = [
  ['harness/record', 'harness/judge'],
  ['harness/client-rules', 'harness/judge'],
  ['harness/watch', 'harness/judge'],
];

function sources(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(REPO_ROOT, relative)).isDirectory()) return sources(relative);
    return /\.(ts|mjs|js)$/.test(name) ? [relative] : [];
  });
}

/** The part a repository path belongs to (a harness folder is a part: harness/judge); the suite's config at the root is the suite's. */
function partOf(file: string): string | undefined {
  if (file === 'playwright.config.ts') return 'specs';
  const [top, folder, ...rest] = file.split(path.sep);
  if (!(top! in LAYER)) return undefined;
  return top === 'harness' && rest.length > 0 ? `${top}/${folder}` : top;
}

function layerOf(part: string): number {
  return LAYER[part.split('/')[0]!]!;
}

/** The imports of one file that reach a part above its own, or beside it. */
function climbingImports(file: string, text: string): string[] {
  const from = partOf(file)!;
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].flatMap((match) => {
    const target = path.normalize(path.join(path.dirname(file), match[1]!));
    const to = partOf(target);
    if (to === undefined || to === from) return [];
    const allowed =
      layerOf(to) < layerOf(from) ||
      BESIDE.some(([a, b]) => a === from.split('/')[0] && b === to) ||
      BUILDS_ON.some(([above, below]) => above === from && below === to);
    return allowed ? [] : [`${file} imports ${target} (${from} → ${to})`];
  });
}

test('no part imports from a part above it, or beside it', () => {
  const files = ['playwright.config.ts', ...Object.keys(LAYER).flatMap(sources)];
  expect(files.flatMap((file) => climbingImports(file, readFileSync(path.join(REPO_ROOT, file), 'utf8')))).toEqual([]);
});

test('the harness parts that build on another form no circle: what they build on builds on no harness part', () => {
  expect(BUILDS_ON.filter(([, below]) => BUILDS_ON.some(([above]) => above === below))).toEqual([]);
});

test('a climbing import is caught: the matrix importing the CLI, lib importing the suite', () => {
  expect(climbingImports('matrix/run.ts', "import { runNode } from '../cli/child.ts';\n")).toEqual(['matrix/run.ts imports cli/child.ts (matrix → cli)']);
  expect(climbingImports('lib/x.ts', "import type { A } from '../specs/reporter/verdicts.ts';")).toEqual(['lib/x.ts imports specs/reporter/verdicts.ts (lib → specs)']);
  expect(climbingImports('harness/load/target.ts', "import { spawnReferenceServer } from '../../reference-server/spawn.ts';")).toEqual([]);
});

test('a sideways harness import is caught: the judge importing replay or the client rules, record importing replay', () => {
  expect(climbingImports('harness/judge/capture-entry.ts', "import { operationBase } from '../replay/base.ts';")).toEqual([
    'harness/judge/capture-entry.ts imports harness/replay/base.ts (harness/judge → harness/replay)',
  ]);
  expect(climbingImports('harness/judge/report.ts', "import { clientCertificate } from '../client-rules/client-certificate.ts';")).toEqual([
    'harness/judge/report.ts imports harness/client-rules/client-certificate.ts (harness/judge → harness/client-rules)',
  ]);
  expect(climbingImports('harness/record/main.ts', "import { runCli } from '../replay/cli.ts';")).toEqual(['harness/record/main.ts imports harness/replay/cli.ts (harness/record → harness/replay)']);
  expect(climbingImports('harness/record/command.ts', "import { TrafficJudge } from '../judge/traffic-judge.ts';")).toEqual([]);
  expect(climbingImports('harness/load/engine/x.ts', "import { seededRandom } from '../random.ts';")).toEqual([]);
});
