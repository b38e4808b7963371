/**
 * The top of the matrix page: whether the run is as expected, and if not, what a reviewer must act on, in
 * that order: regressions (unexpected failures), failures of implementations without an expectations file,
 * passes that the expectations still list, implementations that could not be certified at all.
 */
import { html, type Html } from '../lib/html.ts';
import type { Matrix, MatrixImplementation } from './model.ts';
import { unexpectedFailuresOf, WITHOUT_EXPECTATIONS } from './regressions.ts';

export function expectationsBanner(matrix: Matrix): Html {
  const { implementations } = matrix;
  const split = implementations.map((implementation) => ({ implementation, ...unexpectedFailuresOf(implementation) }));
  const regressed = split.filter(({ regressions }) => regressions.length > 0);
  const unlisted = split.filter(({ withoutExpectations }) => withoutExpectations.length > 0);
  const nowPass = implementations.filter((implementation) => implementation.expectations.unexpectedPasses.length > 0);
  const uncertified = implementations.filter((implementation) => implementation.state === undefined);
  const expected = implementations.reduce((sum, implementation) => sum + implementation.expectations.expectedFailures.length, 0);
  const headline = matrix.asExpected
    ? `As expected: all ${count(implementations.length, 'implementation')} certified, failing only where their expectations say (${count(expected, 'expected failure')})`
    : `Not as expected: ${[
        count(regressed.reduce((sum, { regressions }) => sum + regressions.length, 0), 'regression'),
        ...(unlisted.length > 0 ? [count(unlisted.reduce((sum, { withoutExpectations }) => sum + withoutExpectations.length, 0), `failure (${WITHOUT_EXPECTATIONS})`, `failures (${WITHOUT_EXPECTATIONS})`)] : []),
        count(nowPass.reduce((sum, implementation) => sum + implementation.expectations.unexpectedPasses.length, 0), 'unexpected pass', 'unexpected passes'),
        `${uncertified.length} not certified`,
      ].join(', ')}`;
  return html`<section class="verdict ${matrix.asExpected ? 'pass' : 'fail'}" id="expectations">${headline}
${regressed.length > 0 ? attention('regressions', 'fail', 'Regressions: failures no expectation lists', regressed.map(({ implementation, regressions }) => [implementation, ruleLinks(regressions)])) : ''}
${unlisted.length > 0 ? attention('without-expectations', 'fail', `Failures (${WITHOUT_EXPECTATIONS}): write one to track them`, unlisted.map(({ implementation, withoutExpectations }) => [implementation, ruleLinks(withoutExpectations)])) : ''}
${nowPass.length > 0 ? attention('now-passes', 'warn', 'Now passes: remove it from the expectations', nowPass.map((implementation) => [implementation, html`${ruleLinks(implementation.expectations.unexpectedPasses)}${implementation.expectations.file ? html` <span class="muted">in <code>${implementation.expectations.file}</code></span>` : ''}`])) : ''}
${uncertified.length > 0 ? attention('not-certified', 'muted', 'Could not be certified', uncertified.map((implementation) => [implementation, html`${implementation.problem ?? implementation.headline}`])) : ''}
</section>`;
}

function attention(id: string, tone: string, heading: string, items: ReadonlyArray<[MatrixImplementation, Html]>): Html {
  return html`<div class="attention ${tone}" id="${id}"><h3>${heading}</h3><ul>${items.map(([implementation, what]) => html`<li><strong>${implementation.name}</strong>: ${what}</li>`)}</ul></div>`;
}

/** Rule IDs link to their row; an expectation given as a test title has no row of its own. */
function ruleLinks(ids: readonly string[]): Html {
  return html`${ids.map((id, index) => html`${index > 0 ? ', ' : ''}${RULE_ID.test(id) ? html`<a href="#rule-${id}">${id}</a>` : id}`)}`;
}

const RULE_ID = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/;

function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

export const EXPECTATIONS_BANNER_CSS = `
.verdict { border-left: 6px solid; } .verdict.pass { border-color: var(--pass); } .verdict.fail { border-color: var(--fail); }
.attention { font-size: 14px; font-weight: 400; margin: 10px 0 0; padding: 8px 12px; border-radius: 6px; background: #fff; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.attention h3 { margin: 0 0 4px; font-size: 15px; } .attention ul { margin: 0; padding-left: 20px; } .attention a { color: inherit; }
.attention.fail { border: 2px solid var(--fail); } .attention.fail h3 { color: var(--fail); }
.attention.warn { border: 2px solid var(--warn); } .attention.warn h3 { color: var(--warn); } .attention.muted { border: 1px solid var(--line); }
`;
