/**
 * Matrix objects built by hand for the page and badge tests: an implementation, a row, and a sample run
 * that holds every case the page must show (a MUST disagreement, a GAP difference, expected and unexpected
 * failures, an unexpected pass, an implementation that could not be certified, a baseline, hostile text).
 */
import type { Level } from '../../../lib/rules.ts';
import type { Matrix, MatrixCell, MatrixImplementation, MatrixRow } from '../../../matrix/model.ts';

/** Text a hostile or careless server could put in a name, a version, a problem or a gist. */
export const HOSTILE = `<script>alert("pwned")</script> 'quoted' & <img src=x onerror=alert(1)>`;

export function implementation(name: string, overrides: Partial<MatrixImplementation> = {}): MatrixImplementation {
  return {
    name,
    target: `http://127.0.0.1:9/${name}`,
    state: 'conforming',
    verdictLabel: 'Conforming',
    headline: 'Conforming: every MUST rule was checked and held',
    must: { held: 4, checked: 4, total: 4 },
    startedAt: '2026-11-22T14:03:00.000Z',
    durationMs: 27_500,
    reportHref: `${name}/index.html`,
    badgeHref: `${name}/badge.svg`,
    expectations: { expectedFailures: [], unexpectedFailures: [], unexpectedPasses: [] },
    ...overrides,
  };
}

export function row(id: string, level: Level, section: string, cells: MatrixCell[], disagreement = false): MatrixRow {
  return { id, level, section, rule: `${level} rule ${id} holds`, cells, disagreement };
}

/** A cell that links to the rule's row in the report of the implementation it belongs to. */
export function cell(name: string, id: string, verdict: MatrixCell['verdict'], extra: Partial<MatrixCell> = {}): MatrixCell {
  return { verdict, href: `${name}/index.html#rule-${id}`, ...extra };
}

const NO_REPORT: MatrixCell = { verdict: 'no-report' };

export const SECTIONS = { auth: 'Authentication', listing: 'Listing', limits: 'Rate limits', errors: 'Errors' } as const;

/** Rows that agree everywhere and must vanish under the "only disagreements" filter. */
export const AGREEING = ['AUTH-1', 'LIST-2', 'LIST-GAP-3', 'RL-1', 'ERR-1'];
export const DISAGREEING = ['AUTH-2', 'LIST-1', 'RL-GAP-1'];

/**
 * Three implementations: `reference` conforms; `shady` (hostile name) regressed on LIST-1, fails AUTH-2 as
 * its expectations say, now passes RL-1 that they list, and counts its rate-limit windows differently;
 * `down` could not be certified at all. The baseline lacked `down`.
 */
export function sampleMatrix(): Matrix {
  const reference = implementation('reference', { version: 'v1.0.0', changes: { regressed: [], nowPass: [], gapChanged: [], newImplementation: false } });
  const shady = implementation(`shady ${HOSTILE}`, {
    version: HOSTILE,
    state: 'not-conforming',
    verdictLabel: 'Not conforming',
    headline: 'Not conforming: 2 MUST rules fail (AUTH-2, LIST-1)',
    must: { held: 2, checked: 4, total: 4 },
    reportHref: 'javascript:alert(1)',
    badgeHref: 'shady/badge.svg',
    expectations: {
      file: 'expectations/shady.yaml',
      expectedFailures: [
        { rule: 'AUTH-2', reason: `tokens are not checked yet ${HOSTILE}` },
        { rule: 'RL-1', reason: 'limiter not built' },
      ],
      unexpectedFailures: ['LIST-1'],
      unexpectedPasses: ['RL-1'],
    },
    changes: {
      regressed: [{ rule: 'LIST-1', before: 'pass', after: 'fail' }],
      nowPass: [{ rule: 'RL-1', before: 'fail', after: 'pass' }],
      gapChanged: [{ rule: 'RL-GAP-1', before: 'fixed windows', after: HOSTILE }],
      newImplementation: false,
    },
  });
  const down = implementation('down', {
    state: undefined,
    verdictLabel: 'Could not certify',
    headline: 'Could not certify: the server did not answer',
    problem: `connect ECONNREFUSED 127.0.0.1:9 ${HOSTILE}`,
    must: undefined,
    startedAt: undefined,
    durationMs: undefined,
    reportHref: undefined,
    badgeHref: 'down/badge.svg',
    changes: { regressed: [], nowPass: [], gapChanged: [], newImplementation: true },
  });
  const both = (id: string, verdict: MatrixCell['verdict'], gist?: string): MatrixCell[] => [
    cell('reference', id, verdict, gist ? { gist } : {}),
    cell('shady', id, verdict, gist ? { gist } : {}),
    NO_REPORT,
  ];
  const rows = [
    row('AUTH-1', 'MUST', SECTIONS.auth, both('AUTH-1', 'pass')),
    row('AUTH-2', 'MUST', SECTIONS.auth, [cell('reference', 'AUTH-2', 'pass'), cell('shady', 'AUTH-2', 'fail', { expectedFailure: true, detail: `expected 401, got 200 ${HOSTILE}` }), NO_REPORT], true),
    row('LIST-1', 'MUST', SECTIONS.listing, [cell('reference', 'LIST-1', 'pass'), cell('shady', 'LIST-1', 'fail', { detail: 'expected 20 pets, got 21' }), NO_REPORT], true),
    row('LIST-2', 'SHOULD', SECTIONS.listing, both('LIST-2', 'pass')),
    row('LIST-GAP-3', 'GAP', SECTIONS.listing, both('LIST-GAP-3', 'observed', 'ids ascending')),
    row('RL-1', 'MUST', SECTIONS.limits, [cell('reference', 'RL-1', 'pass'), cell('shady', 'RL-1', 'pass', { expectedFailure: true }), NO_REPORT]),
    row('RL-GAP-1', 'GAP', SECTIONS.limits, [cell('reference', 'RL-GAP-1', 'observed', { gist: 'fixed windows' }), cell('shady', 'RL-GAP-1', 'observed', { gist: HOSTILE, href: 'javascript:alert(2)' }), NO_REPORT], true),
    row('ERR-1', 'MUST', SECTIONS.errors, both('ERR-1', 'pass')),
  ];
  return {
    format: 'petstore-matrix',
    formatVersion: 1,
    generatedAt: '2026-11-22T15:00:00.000Z',
    specVersion: '1.0.0',
    suiteVersion: '0.1.0',
    rulesHash: 'f'.repeat(64),
    sections: Object.values(SECTIONS),
    implementations: [reference, shady, down],
    rows,
    baseline: 'baseline/matrix.json',
    asExpected: false,
  };
}

/** One conforming implementation and no baseline: a run that is as expected. */
export function quietMatrix(): Matrix {
  const sample = sampleMatrix();
  const [reference] = sample.implementations;
  if (!reference) throw new Error('the sample matrix lost its reference implementation');
  return {
    ...sample,
    implementations: [reference],
    rows: sample.rows.map((matrixRow) => ({ ...matrixRow, cells: [cell('reference', matrixRow.id, matrixRow.level === 'GAP' ? 'observed' : 'pass')], disagreement: false })),
    baseline: undefined,
    asExpected: true,
  };
}
