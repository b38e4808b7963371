/**
 * The tables a reviewer reads to see that the suite catches broken servers and passes legitimate ones:
 * reports/suite-variants/faults.{md,json} (which test caught which fault) and variants.{md,json}. Each run
 * of a group writes its own rows; the tables are rebuilt from every group's latest rows, so tests that run in
 * parallel workers never overwrite each other's findings.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { catalogue } from '../../../lib/rules.ts';
import { REPO_ROOT } from '../../fixtures/listed-tests.ts';

export const VARIANT_REPORTS = path.join(REPO_ROOT, 'reports', 'suite-variants');

export interface FaultRow {
  rule: string;
  fault: string;
  description: string;
  group: string;
  caught: boolean;
  /** Titles of the tests that failed for it. */
  caughtBy: string[];
  /** Further rules the same misbehaviour breaks. */
  alsoBreaks: string[];
  runSeconds: number;
  ranAt: string;
}

export interface VariantRow {
  variant: string;
  description: string;
  freedom: string;
  run: string;
  passed: boolean;
  tests: { passed: number; failed: number; skipped: number };
  /** Failing tests and their first message, when the variant was (wrongly) failed. */
  failures: string[];
  runSeconds: number;
  ranAt: string;
}

type Kind = 'faults' | 'variants';

export function recordRows(kind: 'faults', group: string, rows: readonly FaultRow[]): string;
export function recordRows(kind: 'variants', group: string, rows: readonly VariantRow[]): string;
/** Stores one group's rows and rebuilds the tables; returns the group's own table as Markdown. */
export function recordRows(kind: Kind, group: string, rows: readonly FaultRow[] | readonly VariantRow[]): string {
  const folder = path.join(VARIANT_REPORTS, 'rows', kind);
  mkdirSync(folder, { recursive: true });
  writeAtomically(path.join(folder, `${group}.json`), JSON.stringify(rows, null, 2));
  const all = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as unknown[]);
  if (kind === 'faults') {
    const faults = sortByCatalogue(all as FaultRow[]);
    writeAtomically(path.join(VARIANT_REPORTS, 'faults.json'), JSON.stringify(faults, null, 2));
    writeAtomically(path.join(VARIANT_REPORTS, 'faults.md'), faultTable(faults));
    return faultTable(rows as FaultRow[]);
  }
  const variants = all as VariantRow[];
  writeAtomically(path.join(VARIANT_REPORTS, 'variants.json'), JSON.stringify(variants, null, 2));
  writeAtomically(path.join(VARIANT_REPORTS, 'variants.md'), variantTable(variants));
  return variantTable(rows as VariantRow[]);
}

function sortByCatalogue(rows: FaultRow[]): FaultRow[] {
  const order = new Map(catalogue.rules.map((rule, index) => [rule.id, index]));
  return [...rows].sort((a, b) => (order.get(a.rule) ?? 999) - (order.get(b.rule) ?? 999) || a.fault.localeCompare(b.fault));
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function faultTable(rows: readonly FaultRow[]): string {
  const caught = rows.filter((row) => row.caught).length;
  const lines = [
    '# Broken servers the conformance suite must fail',
    '',
    `${caught} of ${rows.length} faults caught. Each server is the reference server with one documented rule broken (several independent faults share a run; each is judged by the tests that name its rule).`,
    '',
    '| Rule | Fault | What the broken server does | Caught by | Run |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.rule} | ${row.fault} | ${cell(row.description)}${row.alsoBreaks.length > 0 ? ` (also breaks ${row.alsoBreaks.join(', ')})` : ''} | ${
          row.caught ? cell(row.caughtBy.join('; ')) : '**NOT CAUGHT**'
        } | ${row.group} (${row.runSeconds.toFixed(1)} s) |`,
    ),
    '',
  ];
  return lines.join('\n');
}

export function variantTable(rows: readonly VariantRow[]): string {
  const lines = [
    '# Legitimate variants the conformance suite must pass',
    '',
    '| Variant | What the server does differently | Where the spec allows it | Run | Result |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.variant} | ${cell(row.description)} | ${cell(row.freedom)} | ${row.run} (${row.runSeconds.toFixed(1)} s) | ${
          row.passed ? `passed (${row.tests.passed} passed, ${row.tests.skipped} skipped)` : `**FAILED**: ${cell(row.failures.join('; '))}`
        } |`,
    ),
    '',
  ];
  return lines.join('\n');
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
