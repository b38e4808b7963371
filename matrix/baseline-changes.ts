/** What changed since the baseline run, per implementation: regressions first, then new passes, then GAP behaviour. */
import { html, type Html } from '../lib/html.ts';
import type { Matrix, MatrixImplementation, RuleChange } from './model.ts';

export function baselineChanges(matrix: Matrix): Html {
  if (matrix.baseline === undefined) return html``;
  return html`<h2 id="changes">Changes since the baseline</h2>
<p class="muted">Compared with <code>${matrix.baseline}</code>.</p>
<div class="changes">${matrix.implementations.map(implementationChanges)}</div>`;
}

function implementationChanges(implementation: MatrixImplementation): Html {
  const { changes } = implementation;
  const body = !changes
    ? html`<p class="muted">Not compared.</p>`
    : changes.newImplementation
      ? html`<p><span class="badge info">new</span> The baseline had no column for it.</p>`
      : changes.regressed.length + changes.nowPass.length + changes.gapChanged.length === 0
        ? html`<p class="muted">No change.</p>`
        : html`${changeList('Regressed', 'fail', changes.regressed)}${changeList('Now pass', 'pass', changes.nowPass)}${changeList('GAP behaviour changed', 'info', changes.gapChanged)}`;
  return html`<div class="change-card"><h3>${implementation.name}</h3>${body}</div>`;
}

function changeList(heading: string, tone: string, changes: readonly RuleChange[]): Html {
  if (changes.length === 0) return html``;
  return html`<div class="change-list"><strong class="${tone}">${heading} (${changes.length})</strong><ul>${changes.map(
    (change) => html`<li><a href="#rule-${change.rule}">${change.rule}</a>: <span class="before">${change.before}</span> → <span class="after">${change.after}</span></li>`,
  )}</ul></div>`;
}

export const BASELINE_CHANGES_CSS = `
.changes { display: flex; flex-wrap: wrap; gap: 12px; } .change-card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-width: 220px; flex: 1 1 220px; }
.change-card h3 { margin: 0 0 6px; font-size: 15px; } .change-card p { margin: 0; } .change-list ul { margin: 2px 0 8px; padding-left: 18px; } .change-list a { color: inherit; }
.change-list .before { color: var(--muted); text-decoration: line-through; }
`;
