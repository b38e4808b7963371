import { expect, test } from '@playwright/test';
import { formatSeconds, groupedBarChart, lineChart, niceTicks, stackedChart } from '../../lib/charts.ts';

test('niceTicks covers the range with round steps', () => {
  expect(niceTicks(0, 60)).toEqual([0, 20, 40, 60]);
  expect(niceTicks(0, 7, 5)).toEqual([0, 2, 4, 6, 8]);
  expect(niceTicks(5, 5).length).toBeGreaterThan(1);
});

test('formatSeconds reads as elapsed time', () => {
  expect(formatSeconds(0)).toBe('0 s');
  expect(formatSeconds(45)).toBe('45 s');
  expect(formatSeconds(90)).toBe('1 min 30 s');
  expect(formatSeconds(7500)).toBe('2 h 5 min');
});

test('charts are self-contained SVG with a title, axis labels, a legend and escaped text', () => {
  const charts = [
    lineChart({ title: 'Remaining <free>', x: { label: 'time' }, y: { label: 'remaining' }, series: [{ name: 'key & 1', points: [[0, 59], [1, 58]] }], guides: [{ y: 60, label: 'limit' }] }),
    stackedChart({ title: 'Rate', kind: 'bar', x: { label: 'time' }, y: { label: 'req/s' }, buckets: [0, 1], bucketWidth: 1, series: [{ name: 'admitted', values: [60, 60] }] }),
    stackedChart({ title: 'Rate', kind: 'area', x: { label: 'time' }, y: { label: 'req/s' }, buckets: [0, 1], bucketWidth: 1, series: [{ name: 'admitted', values: [60, 60] }] }),
    groupedBarChart({ title: 'Latency', categories: ['p50', 'p99'], groups: [{ name: 'admitted', values: [1, 2] }], y: { label: 'ms' }, xLabel: 'percentile' }),
  ].map(String);
  for (const svg of charts) {
    expect(svg).toContain('<svg');
    expect(svg).not.toContain('<script');
    expect(svg).toMatch(/class="axis-label">[^<]+<\/text>/);
    expect(svg).toContain('class="legend"');
  }
  expect(charts[0]).toContain('Remaining &#60;free&#62;');
  expect(charts[0]).toContain('key &#38; 1');
});

test('an empty chart says there is no data instead of drawing nothing', () => {
  expect(String(lineChart({ title: 't', x: { label: 'x' }, y: { label: 'y' }, series: [] }))).toContain('no data');
});
