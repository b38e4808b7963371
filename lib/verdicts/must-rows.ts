/**
 * A run's verdict from its MUST rows, one way for a report and for a certificate that counts several reports: a MUST
 * rule that failed makes it not conforming; one not checked, or checked only in part (or a run that did not finish),
 * leaves it incomplete; otherwise it conforms. The rows are those of rules that bind the service and apply to the run.
 */
import type { Level } from '../rules.ts';

export type RunState = 'conforming' | 'not-conforming' | 'incomplete';

export interface StandingRow {
  id: string;
  level: Level;
  /** The row's verdict: 'fail', 'skipped', 'not-run', 'partly-checked', 'warn', ... */
  verdict: string;
}

export interface MustStanding<Row extends StandingRow> {
  must: Row[];
  failed: string[];
  /** Skipped or not run. */
  notChecked: Row[];
  partlyChecked: Row[];
  warnedShould: string[];
}

/** `binds`: the rule binds the service and applies to this run. */
export function mustStanding<Row extends StandingRow>(rows: readonly Row[], binds: (row: Row) => boolean): MustStanding<Row> {
  const must = rows.filter((row) => row.level === 'MUST' && binds(row));
  return {
    must,
    failed: must.filter((row) => row.verdict === 'fail').map((row) => row.id),
    notChecked: must.filter((row) => row.verdict === 'skipped' || row.verdict === 'not-run'),
    partlyChecked: must.filter((row) => row.verdict === 'partly-checked'),
    warnedShould: rows.filter((row) => row.level === 'SHOULD' && row.verdict === 'warn').map((row) => row.id),
  };
}

export function runState(standing: MustStanding<StandingRow>, unfinished: boolean): RunState {
  if (standing.failed.length > 0) return 'not-conforming';
  return standing.notChecked.length > 0 || standing.partlyChecked.length > 0 || unfinished ? 'incomplete' : 'conforming';
}

/** A run's headline when MUST rules failed: how many, which, and (`within`) over which reports. */
export function notConformingHeadline(failed: readonly string[], within?: string): string {
  const one = failed.length === 1;
  return `Not conforming: ${failed.length} MUST rule${one ? '' : 's'} fail${one ? 's' : ''}${within === undefined ? '' : ` within ${within}`} (${failed.join(', ')})`;
}
