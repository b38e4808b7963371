/** A stacked bar chart of rule verdicts per group (level, section), as inline SVG: no script, no external asset. */
import { html, type Html } from '../html.ts';
import { VERDICTS, type RuleVerdict, type VerdictCounts } from './model.ts';

export const VERDICT_COLOURS: Record<RuleVerdict, string> = {
  pass: '#1a7f37',
  fail: '#cf222e',
  warn: '#bf8700',
  'partly-checked': '#8250df',
  observed: '#0969da',
  skipped: '#8c959f',
  'not-run': '#d1d9e0',
};

const ROW_HEIGHT = 22;
const BAR_HEIGHT = 14;
const BAR_WIDTH = 360;
const COUNT_WIDTH = 40;
const CHAR_WIDTH = 7;
/** Segments light enough that a white count on them would not be read. */
const LIGHT: ReadonlySet<RuleVerdict> = new Set(['not-run', 'skipped']);

export function verdictChart(title: string, groups: ReadonlyArray<[string, VerdictCounts]>): Html {
  const labelWidth = Math.ceil(Math.max(...groups.map(([label]) => label.length)) * CHAR_WIDTH) + 12;
  const largest = Math.max(1, ...groups.map(([, counts]) => total(counts)));
  const height = groups.length * ROW_HEIGHT + 8;
  const width = labelWidth + BAR_WIDTH + COUNT_WIDTH;
  const rows = groups.map(([label, counts], index) => {
    const y = index * ROW_HEIGHT + 4;
    let x = labelWidth;
    const segments = VERDICTS.filter((verdict) => counts[verdict] > 0).map((verdict) => {
      const w = (counts[verdict] / largest) * BAR_WIDTH;
      const segment = html`<rect x="${x.toFixed(1)}" y="${y}" width="${Math.max(w - 1, 1).toFixed(1)}" height="${BAR_HEIGHT}" fill="${VERDICT_COLOURS[verdict]}"><title>${label}: ${counts[verdict]} ${verdict}</title></rect>${
        w >= 18 ? html`<text x="${(x + w / 2).toFixed(1)}" y="${y + 11}" text-anchor="middle" class="on-bar${LIGHT.has(verdict) ? ' light' : ''}">${counts[verdict]}</text>` : ''
      }`;
      x += w;
      return segment;
    });
    return html`<g><text x="${labelWidth - 8}" y="${y + 11}" text-anchor="end">${label}</text>${segments}<text x="${(x + 6).toFixed(1)}" y="${y + 11}" class="total">${total(counts)}</text></g>`;
  });
  return html`<figure class="chart"><figcaption>${title}</figcaption><svg role="img" aria-label="${title}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${rows}</svg></figure>`;
}

export function verdictLegend(): Html {
  return html`<p class="legend">${VERDICTS.map(
    (verdict) => html`<span><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" rx="2" fill="${VERDICT_COLOURS[verdict]}"/></svg> ${verdict}</span>`,
  )}</p>`;
}

/** The chart's and the legend's styles, for any page that shows them. */
export const VERDICT_CHART_CSS = `
.legend { display: flex; gap: 16px; flex-wrap: wrap; margin: 4px 0; font-size: 12px; } .legend svg { vertical-align: -1px; }
.charts { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.chart { margin: 0; } .chart figcaption { font-weight: 600; margin-bottom: 4px; }
.chart svg { max-width: 100%; height: auto; } .chart text.on-bar { fill: #fff; font-weight: 600; } .chart text.on-bar.light { fill: #1f2328; } .chart text.total { fill: var(--muted); }
`;

function total(counts: VerdictCounts): number {
  return VERDICTS.reduce((sum, verdict) => sum + counts[verdict], 0);
}
