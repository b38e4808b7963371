/**
 * Which parts of the product run each registered check (lib/checks/registry.ts), read from the code: a part runs a
 * check when one of its files names it, or imports, through lib/ alone, a file of lib/ that names it (the judge,
 * replay, the load harness and the suite's client all run the one-answer checks of lib/response-checks.ts). And the
 * own tests that name a check. Read from the sources, so the rules page cannot claim a part the code does not have.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CheckName } from '../../lib/checks/registry.ts';
import { REPO_ROOT } from '../../test/fixtures/listed-tests.ts';
import { repoFiles } from '../../test/fixtures/repo-files.ts';

/** The parts that judge, by the folder that holds each. */
const PARTS: ReadonlyArray<readonly [string, string]> = [
  ['the suite', 'specs/'],
  ['the judge', 'harness/judge/'],
  ['load', 'harness/load/'],
  ['replay', 'harness/replay/'],
  ['record', 'harness/record/'],
  ['certify-client', 'harness/client-rules/'],
];
const REGISTRY = 'lib/checks/registry.ts';

export interface CheckRunners {
  /** Each part that runs the check, with the files of it (or of lib/ below it) that name the check. */
  parts: Array<{ part: string; files: string[] }>;
  /** Own tests (test/) that name the check. */
  tests: string[];
}

interface Source {
  file: string;
  text: string;
  imports: string[];
}

let read: Source[] | undefined;

function sources(): Source[] {
  return (read ??= ['lib', 'specs', 'harness'].flatMap((dir) => repoFiles(dir, /\.(ts|mjs)$/)).map((file) => {
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    const imports = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => path.normalize(path.join(path.dirname(file), match[1]!)));
    return { file, text, imports };
  }));
}

function names(text: string, judgements: readonly CheckName[]): boolean {
  return judgements.some((check) => text.includes(`'${check}'`));
}

/** Who runs a check: the parts and own tests that name one of its judgements (one, for a check that is an idea of its own). */
export function checkRunners(judgements: readonly CheckName[]): CheckRunners {
  const all = sources();
  const byFile = new Map(all.map((source) => [source.file, source]));
  const naming = new Set(all.filter((source) => source.file !== REGISTRY && names(source.text, judgements)).map((source) => source.file));
  /** The files of lib/ a file reaches through lib/ alone that name the check. */
  const reached = (file: string, seen = new Set<string>()): string[] =>
    (byFile.get(file)?.imports ?? []).flatMap((target) => {
      if (!target.startsWith('lib/') || seen.has(target)) return [];
      seen.add(target);
      return [...(naming.has(target) ? [target] : []), ...reached(target, seen)];
    });
  const parts = PARTS.flatMap(([part, folder]) => {
    const files = new Set<string>();
    for (const source of all.filter((s) => s.file.startsWith(folder))) {
      if (naming.has(source.file)) files.add(source.file);
      for (const below of reached(source.file)) files.add(below);
    }
    return files.size === 0 ? [] : [{ part, files: [...files].sort() }];
  });
  const tests = repoFiles('test', /\.spec\.ts$/).filter((file) => names(readFileSync(path.join(REPO_ROOT, file), 'utf8'), judgements)).sort();
  return { parts, tests };
}
