/**
 * The live page (GET /) of a judge run live, the watcher's or the recorder's: the verdict so far as the judge's
 * HTML report, with no window closed, and above the rules what was judged minute by minute over the last hours,
 * charted in the reports' style.
 */
import { formatNumber, lineChart, stackedChart, STATUS_COLOURS } from '../lib/charts.ts';
import { html } from '../lib/html.ts';
import type { CertifiedReport } from '../lib/verdicts/certificate.ts';
import { renderReport } from '../specs/reporter/report-html.ts';
import { HISTORY_MINUTES } from '../harness/judge/live-history.ts';
import type { LiveJudge } from '../harness/judge/live-judge.ts';

const MINUTE_S = 60;

/** How the page names what it watches: its title, and what is judged as it comes ("the log grows"). */
export interface LiveWording {
  title: string;
  judgedAs: string;
}

export function livePage(report: CertifiedReport, live: LiveJudge, wording: LiveWording, now: number): string {
  const { totals, lagS } = live;
  const minutes = live.history.minutes();
  const at = (bucket: { at: number }): number => (bucket.at - now) / 1000;
  const clock = (seconds: number): string => new Date(now + seconds * 1000).toISOString().slice(11, 16);
  const x = { label: 'UTC, minute by minute', format: clock };
  const buckets = minutes.map(at);
  const figures: Array<[string, number]> = [
    ['exchanges judged', totals.exchanges],
    ['rule failures', totals.failures],
    ['windows over quota', totals.overQuota],
    ['client breaches (ERR-3, ERR-4)', totals.breaches],
    ['lines lost', totals.lost],
    ['unreadable lines', totals.unreadable],
  ];
  const section = html`
<h2>Live: the last ${HISTORY_MINUTES / 60} hours</h2>
<p class="muted">Judged as ${wording.judgedAs}; windows still open are not judged yet. Behind the source: ${lagS.toFixed(1)} s. Refresh for the latest; the report of the whole period is written at exit.</p>
<dl class="facts">${figures.map(([term, value]) => html`<div><dt>${term}</dt><dd>${formatNumber(value)}</dd></div>`)}</dl>
<div class="charts">
  ${stackedChart({ title: 'Exchanges judged a minute', x, y: { label: 'exchanges' }, buckets, bucketWidth: MINUTE_S, kind: 'bar', series: [{ name: 'exchanges', colour: STATUS_COLOURS.info, values: minutes.map((bucket) => bucket.exchanges) }] })}
  ${stackedChart({
    title: 'What broke a rule, a minute',
    x,
    y: { label: 'findings' },
    buckets,
    bucketWidth: MINUTE_S,
    kind: 'bar',
    series: [
      { name: 'windows over quota', colour: STATUS_COLOURS.fail, values: minutes.map((bucket) => bucket.overQuota) },
      { name: 'client breaches', colour: STATUS_COLOURS.refused, values: minutes.map((bucket) => bucket.breaches) },
      { name: 'other rule failures', colour: STATUS_COLOURS.warn, values: minutes.map((bucket) => Math.max(0, bucket.failures - bucket.overQuota - bucket.breaches)) },
      { name: 'lines lost or unreadable', colour: STATUS_COLOURS.error, values: minutes.map((bucket) => bucket.lost + bucket.unreadable) },
    ],
  })}
  ${lineChart({ title: 'Behind the source', x, y: { label: 'seconds behind, most in the minute', min: 0 }, series: [{ name: 'lag', points: minutes.map((bucket) => [at(bucket), bucket.lagS] as const), step: true }] })}
</div>`;
  return renderReport(report, { title: wording.title, section });
}
