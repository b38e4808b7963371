/**
 * `--baseline`: an earlier matrix.json, or one implementation's conformance.json, to compare this run with.
 * Per implementation: rules that regressed, rules that now pass, GAP rules whose observed behaviour changed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConformanceReport } from '../lib/verdicts/model.ts';
import type { BaselineChanges, CellVerdict, Matrix, RuleChange } from './model.ts';

interface BaselineCell {
  verdict: CellVerdict;
  gist?: string;
}

/** Per implementation name, its cells by rule ID. */
export type Baseline = Map<string, Map<string, BaselineCell>>;

export class BaselineError extends Error {
  override name = 'BaselineError';
}

const HELD: ReadonlySet<CellVerdict> = new Set(['pass', 'partly-checked']);
const BROKEN: ReadonlySet<CellVerdict> = new Set(['fail', 'warn']);

/**
 * A matrix.json gives every implementation it has a column for. A conformance.json is one run: it is the
 * baseline of the implementation whose report folder holds it (reports/certify/<name>/), or of the only one.
 */
export function readBaseline(file: string, names: readonly string[]): Baseline {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new BaselineError(`--baseline ${file}: cannot read it as JSON (${reason})`);
  }
  const format = typeof document === 'object' && document !== null ? (document as { format?: unknown }).format : undefined;
  if (format === 'petstore-matrix') {
    const matrix = document as Matrix;
    return new Map(
      matrix.implementations.map((implementation, column) => [
        implementation.name,
        new Map(matrix.rows.map((row) => [row.id, baselineCell(row.cells[column]?.verdict ?? 'no-report', row.cells[column]?.gist)])),
      ]),
    );
  }
  if (format === 'petstore-conformance-report') {
    const report = document as ConformanceReport;
    const folder = path.basename(path.dirname(path.resolve(file)));
    const name = names.includes(folder) ? folder : names.length === 1 ? names[0] : undefined;
    if (name === undefined) {
      throw new BaselineError(`--baseline ${file}: a conformance.json is one implementation's run; keep it in reports/certify/<name>/ so its name says which of ${names.join(', ')} it is`);
    }
    return new Map([[name, new Map(report.rules.map((row) => [row.id, baselineCell(row.verdict, [...new Set(row.gists?.map((note) => note.text) ?? [])].join('; ') || undefined)]))]]);
  }
  throw new BaselineError(`--baseline ${file}: neither a matrix.json nor a conformance.json of this suite`);
}

function baselineCell(verdict: CellVerdict, gist: string | undefined): BaselineCell {
  return gist === undefined ? { verdict } : { verdict, gist };
}

export function changesSince(baseline: Baseline, name: string, now: ReadonlyMap<string, BaselineCell>): BaselineChanges {
  const before = baseline.get(name);
  const changes: BaselineChanges = { regressed: [], nowPass: [], gapChanged: [], newImplementation: before === undefined };
  if (!before) return changes;
  for (const [rule, cell] of now) {
    const earlier = before.get(rule);
    if (!earlier) continue;
    const change: RuleChange = { rule, before: earlier.verdict, after: cell.verdict };
    const worse = (HELD.has(earlier.verdict) && BROKEN.has(cell.verdict)) || (earlier.verdict === 'warn' && cell.verdict === 'fail');
    const better = BROKEN.has(earlier.verdict) && HELD.has(cell.verdict);
    if (worse) changes.regressed.push(change);
    else if (better) changes.nowPass.push(change);
    else if (earlier.gist !== undefined && cell.gist !== undefined && earlier.gist !== cell.gist) changes.gapChanged.push({ rule, before: earlier.gist, after: cell.gist });
  }
  return changes;
}
