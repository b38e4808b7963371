/**
 * `npm run docs:reference` writes the generated reference pages (docs/reference/) from the code and the
 * contract, and the numbers marked in the hand-written pages (README.md, docs/) from the code they state
 * (scripts/docs/facts.ts); `--check` (run by npm test) writes nothing and prints one line per page that no
 * longer agrees with what it is generated from, naming the command that regenerates it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cliPage } from './cli-page.ts';
import { exitCodesPage } from './exit-codes-page.ts';
import { docFacts } from './facts.ts';
import { fillFragments } from './fragments.ts';
import { manualFiles } from './links.ts';
import { reportFormatsPage } from './report-formats-page.ts';
import { rulesPage } from './rules-page.ts';
import { settingsPage } from './settings-page.ts';

export const REGENERATE = 'npm run docs:reference';

export const PAGES: Readonly<Record<string, () => string | Promise<string>>> = {
  'docs/reference/rules.md': rulesPage,
  'docs/reference/settings.md': settingsPage,
  'docs/reference/cli.md': cliPage,
  'docs/reference/exit-codes.md': exitCodesPage,
  'docs/reference/report-formats.md': reportFormatsPage,
};

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The line npm test prints for a page that disagrees with its sources; undefined when it agrees. */
export function driftLine(page: string, written: string | undefined, generated: string): string | undefined {
  if (written === generated) return undefined;
  return `${page} ${written === undefined ? 'is missing' : 'is out of date with the code'}: run ${REGENERATE}`;
}

/** The line for a hand-written page whose marked numbers differ from the code's. */
export function staleNumbersLine(page: string): string {
  return `${page} states numbers the code no longer gives: run ${REGENERATE}`;
}

/** The line for a fragment that names no fact the code gives. */
export function unknownFactLine(page: string, line: number, name: string): string {
  return `${page}:${line} marks a number "${name}" that scripts/docs/facts.ts does not give: name one it gives, or add it there`;
}

/** Each hand-written page of the manual (README.md and docs/ outside the generated reference), as its numbers should read. */
export async function handWrittenPages(): Promise<Array<{ page: string; written: string; generated: string; problems: string[] }>> {
  const facts = Object.fromEntries(Object.entries(await docFacts()).map(([name, fact]) => [name, fact.value]));
  return manualFiles(ROOT)
    .filter((page) => !(page in PAGES))
    .map((page) => {
      const written = readFileSync(`${ROOT}${page}`, 'utf8');
      const { text, unknown } = fillFragments(written, facts);
      return { page, written, generated: text, problems: unknown.map(({ name, line }) => unknownFactLine(page, line, name)) };
    });
}

async function main(check: boolean): Promise<number> {
  const stale: string[] = [];
  for (const [page, render] of Object.entries(PAGES)) {
    const generated = await render();
    const file = `${ROOT}${page}`;
    if (!check) {
      writeFileSync(file, generated);
      continue;
    }
    let written: string | undefined;
    try {
      written = readFileSync(file, 'utf8');
    } catch {
      written = undefined;
    }
    const line = driftLine(page, written, generated);
    if (line) stale.push(line);
  }
  const rewritten: string[] = [];
  for (const { page, written, generated, problems } of await handWrittenPages()) {
    stale.push(...problems);
    if (written === generated) continue;
    if (check) stale.push(staleNumbersLine(page));
    else {
      writeFileSync(`${ROOT}${page}`, generated);
      rewritten.push(page);
    }
  }
  for (const line of stale) process.stderr.write(`${line}\n`);
  if (!check) process.stdout.write(`wrote ${[...Object.keys(PAGES), ...rewritten].join(', ')}\n`);
  return stale.length === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.includes('--check')).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`docs:reference: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
