/**
 * Charts for the HTML reports as inline SVG: no script, no font or file fetched, readable offline and in
 * print. Every chart has a title, labelled axes with ticks and a legend, and every mark carries a <title>
 * so a reader can hover for the exact figure. Colours are the Okabe-Ito palette, which stays apart for
 * colour-blind readers.
 */
import { html, Html } from './html.ts';

export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'] as const;

/** Colours with a meaning shared by every report. */
export const STATUS_COLOURS = { pass: '#1a7f37', fail: '#cf222e', warn: '#9a6700', refused: '#E69F00', error: '#6e7781', info: '#0072B2' } as const;

export interface Axis {
  label: string;
  format?: (value: number) => string;
  /** Forces the axis to include this value (e.g. 0); the data decides otherwise. */
  min?: number;
  max?: number;
}

export interface LineSeries {
  name: string;
  colour?: string;
  points: ReadonlyArray<readonly [number, number]>;
  /** Hold each value until the next point (a counter that jumps), instead of a straight line between them. */
  step?: boolean;
}

/** A horizontal reference line, e.g. a documented limit. */
export interface Guide {
  y: number;
  label: string;
  colour?: string;
}

export interface LineChartOptions {
  title: string;
  x: Axis;
  y: Axis;
  series: readonly LineSeries[];
  guides?: readonly Guide[];
  width?: number;
  height?: number;
}

export interface StackedSeries {
  name: string;
  colour?: string;
  /** One value per bucket, same length as `buckets`. */
  values: readonly number[];
}

export interface StackedChartOptions {
  title: string;
  x: Axis;
  y: Axis;
  /** Start of each bucket on the x axis, ascending and evenly spaced. */
  buckets: readonly number[];
  bucketWidth: number;
  series: readonly StackedSeries[];
  kind: 'area' | 'bar';
  guides?: readonly Guide[];
  width?: number;
  height?: number;
}

export interface BarGroup {
  name: string;
  colour?: string;
  /** One value per category. */
  values: readonly number[];
}

export interface GroupedBarOptions {
  title: string;
  /** The categories along the x axis, e.g. p50, p90, p99. */
  categories: readonly string[];
  groups: readonly BarGroup[];
  y: Axis;
  xLabel: string;
  width?: number;
  height?: number;
}

interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

interface Scale {
  (value: number): number;
  ticks: number[];
}

const DEFAULT_WIDTH = 720;
const DEFAULT_HEIGHT = 260;
const LEGEND_ROW = 18;

let chartCount = 0;

/** Round tick values (1, 2 or 5 times a power of ten) covering [min, max], about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max === min) {
    const pad = Math.abs(max) > 0 ? Math.abs(max) / 2 : 1;
    return niceTicks(min - (min >= 0 && min - pad < 0 ? min : pad), max + pad, count);
  }
  const rough = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let value = first; value <= max + step * 1e-9; value += step) ticks.push(Number(value.toPrecision(12)));
  if ((ticks.at(-1) ?? max) < max) ticks.push(Number(((ticks.at(-1) ?? 0) + step).toPrecision(12)));
  return ticks;
}

/** "0 s", "45 s", "2 min", "1 min 30 s", "2 h 5 min": elapsed time for a time axis. */
export function formatSeconds(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  let rest = Math.abs(seconds);
  if (rest < 1 && rest > 0) return `${sign}${Number(rest.toPrecision(2))} s`;
  if (rest < 60) return `${sign}${Number(rest.toPrecision(3))} s`;
  rest = Math.round(rest);
  const hours = Math.floor(rest / 3600);
  const minutes = Math.floor((rest % 3600) / 60);
  const secs = rest % 60;
  if (hours > 0) return `${sign}${hours} h${minutes ? ` ${minutes} min` : ''}`;
  return `${sign}${minutes} min${secs ? ` ${secs} s` : ''}`;
}

/** Thousands separated, at most three significant decimals: 12,345 / 0.25 / 1.5. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** `extend` widens the domain to the outer round ticks (a value axis); otherwise ticks outside it are dropped (a time axis). */
function linearScale(domainMin: number, domainMax: number, rangeFrom: number, rangeTo: number, tickCount: number, extend = true): Scale {
  const allTicks = niceTicks(domainMin, domainMax, tickCount);
  const ticks = extend || domainMax <= domainMin ? allTicks : allTicks.filter((tick) => tick >= domainMin - 1e-9 && tick <= domainMax + 1e-9);
  const low = extend ? Math.min(domainMin, ticks[0] ?? domainMin) : domainMin;
  const high = extend ? Math.max(domainMax, ticks.at(-1) ?? domainMax) : domainMax;
  const span = high - low || 1;
  const scale = ((value: number) => rangeFrom + ((value - low) / span) * (rangeTo - rangeFrom)) as Scale;
  scale.ticks = ticks;
  return scale;
}

function frameFor(width: number, height: number, legendRows: number): Frame {
  return { width, height, left: 64, right: 16, top: 30 + legendRows * LEGEND_ROW, bottom: 44 };
}

function coordinate(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : '0';
}

function colourOf(index: number, explicit?: string): string {
  return explicit ?? PALETTE[index % PALETTE.length] ?? '#000000';
}

/** Legend entries laid out in rows under the title, wrapping at the chart's width. */
function legend(entries: ReadonlyArray<{ name: string; colour: string; dashed?: boolean }>, frame: Frame): { marks: Html; rows: number } {
  let x = frame.left;
  let row = 0;
  const marks: Html[] = [];
  for (const entry of entries) {
    const itemWidth = 26 + entry.name.length * 6.4;
    if (x + itemWidth > frame.width - frame.right && x > frame.left) {
      row++;
      x = frame.left;
    }
    const y = 30 + row * LEGEND_ROW;
    marks.push(
      entry.dashed
        ? html`<line x1="${x}" y1="${y - 4}" x2="${x + 14}" y2="${y - 4}" stroke="${entry.colour}" stroke-width="2" stroke-dasharray="4 3"/>`
        : html`<rect x="${x}" y="${y - 9}" width="14" height="10" rx="2" fill="${entry.colour}"/>`,
      html`<text x="${x + 19}" y="${y}">${entry.name}</text>`,
    );
    x += itemWidth;
  }
  return { marks: html`<g class="legend">${marks}</g>`, rows: entries.length === 0 ? 0 : row + 1 };
}

function legendRowsNeeded(names: readonly string[], width: number): number {
  const probe = frameFor(width, 0, 0);
  return legend(names.map((name) => ({ name, colour: '' })), probe).rows;
}

function axes(frame: Frame, xScale: Scale, yScale: Scale, x: Axis, y: Axis): Html {
  const bottom = frame.height - frame.bottom;
  const formatX = x.format ?? formatNumber;
  const formatY = y.format ?? formatNumber;
  const yTicks = yScale.ticks.map(
    (tick) =>
      html`<line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${coordinate(yScale(tick))}" y2="${coordinate(yScale(tick))}" stroke="#d1d9e0" stroke-width="1"/><text x="${frame.left - 6}" y="${coordinate(yScale(tick) + 4)}" text-anchor="end">${formatY(tick)}</text>`,
  );
  const xTicks = xScale.ticks.map(
    (tick) =>
      html`<line x1="${coordinate(xScale(tick))}" x2="${coordinate(xScale(tick))}" y1="${bottom}" y2="${bottom + 4}" stroke="#59636e"/><text x="${coordinate(xScale(tick))}" y="${bottom + 16}" text-anchor="middle">${formatX(tick)}</text>`,
  );
  return html`<g class="axes">${yTicks}${xTicks}
<line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${bottom}" y2="${bottom}" stroke="#59636e"/>
<line x1="${frame.left}" x2="${frame.left}" y1="${frame.top}" y2="${bottom}" stroke="#59636e"/>
<text x="${(frame.left + frame.width - frame.right) / 2}" y="${frame.height - 6}" text-anchor="middle" class="axis-label">${x.label}</text>
<text transform="translate(14 ${(frame.top + bottom) / 2}) rotate(-90)" text-anchor="middle" class="axis-label">${y.label}</text></g>`;
}

function guideLines(guides: readonly Guide[], frame: Frame, yScale: Scale): Html[] {
  return guides.map((guide) => {
    const y = coordinate(yScale(guide.y));
    const colour = guide.colour ?? STATUS_COLOURS.fail;
    return html`<g class="guide"><line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="1.5" stroke-dasharray="5 4"/><text x="${frame.width - frame.right - 4}" y="${Number(y) - 4}" text-anchor="end" style="fill:${colour};stroke:#fff;stroke-width:3px;paint-order:stroke">${guide.label}</text></g>`;
  });
}

function svg(frame: Frame, title: string, description: string, content: Html): Html {
  const id = `chart-${++chartCount}`;
  return html`<figure class="chart" style="margin:12px 0;max-width:${frame.width}px"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${frame.width} ${frame.height}" width="100%" role="img" aria-labelledby="${id}-t ${id}-d" style="font:11px system-ui,sans-serif;overflow:visible">
<title id="${id}-t">${title}</title><desc id="${id}-d">${description}</desc>
<text x="${frame.left}" y="14" style="font-weight:600;font-size:13px">${title}</text>
${content}</svg></figure>`;
}

function extent(values: Iterable<number>, axis: Axis): [number, number] {
  let low = axis.min ?? Infinity;
  let high = axis.max ?? -Infinity;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    if (axis.min === undefined || value < low) low = Math.min(low, value);
    if (axis.max === undefined || value > high) high = Math.max(high, value);
  }
  if (low === Infinity) low = 0;
  if (high === -Infinity) high = low + 1;
  return [low, high];
}

function emptyNote(frame: Frame): Html {
  return html`<text x="${(frame.left + frame.width - frame.right) / 2}" y="${(frame.top + frame.height - frame.bottom) / 2}" text-anchor="middle" style="fill:#59636e">no data</text>`;
}

/** The legend (series, then dashed guides) and the frame it leaves room for, shared by the charts over time. */
function seriesFrame(
  options: { series: ReadonlyArray<{ name: string; colour?: string }>; width?: number; height?: number },
  guides: ReadonlyArray<{ label: string; colour?: string }>,
) {
  const width = options.width ?? DEFAULT_WIDTH;
  const legendEntries = [
    ...options.series.map((series, index) => ({ name: series.name, colour: colourOf(index, series.colour) })),
    ...guides.map((guide) => ({ name: guide.label, colour: guide.colour ?? STATUS_COLOURS.fail, dashed: true })),
  ];
  const rows = legendRowsNeeded(legendEntries.map((e) => e.name), width);
  return { legendEntries, frame: frameFor(width, (options.height ?? DEFAULT_HEIGHT) + (rows - 1) * LEGEND_ROW, rows) };
}

/** Lines over a numeric x axis (usually time), with optional dashed guides such as a documented limit. */
export function lineChart(options: LineChartOptions): Html {
  const guides = options.guides ?? [];
  const { legendEntries, frame } = seriesFrame(options, guides);
  const points = options.series.flatMap((series) => series.points);
  const [xMin, xMax] = extent(points.map(([x]) => x), options.x);
  const [yMin, yMax] = extent([...points.map(([, y]) => y), ...guides.map((guide) => guide.y)], options.y);
  const xScale = linearScale(xMin, xMax, frame.left, frame.width - frame.right, 8, false);
  const yScale = linearScale(yMin, yMax, frame.height - frame.bottom, frame.top, 5);
  const formatX = options.x.format ?? formatNumber;
  const formatY = options.y.format ?? formatNumber;
  const lines = options.series.map((series, index) => {
    const colour = colourOf(index, series.colour);
    const path = linePath(series.points, xScale, yScale, series.step === true);
    const dots =
      series.points.length <= 60
        ? series.points.map(([x, y]) => html`<circle cx="${coordinate(xScale(x))}" cy="${coordinate(yScale(y))}" r="2.5" fill="${colour}"><title>${series.name}: ${formatY(y)} at ${formatX(x)}</title></circle>`)
        : [];
    return html`<g class="series"><path d="${path}" fill="none" stroke="${colour}" stroke-width="1.8" stroke-linejoin="round"><title>${series.name}</title></path>${dots}</g>`;
  });
  const { marks } = legend(legendEntries, frame);
  const description = `${options.y.label} against ${options.x.label}; series: ${options.series.map((s) => s.name).join(', ') || 'none'}`;
  return svg(frame, options.title, description, html`${axes(frame, xScale, yScale, options.x, options.y)}${guideLines(guides, frame, yScale)}${points.length === 0 ? emptyNote(frame) : lines}${marks}`);
}

function linePath(points: ReadonlyArray<readonly [number, number]>, xScale: Scale, yScale: Scale, step: boolean): string {
  let path = '';
  let previousY: number | undefined;
  for (const [x, y] of points) {
    const px = coordinate(xScale(x));
    const py = coordinate(yScale(y));
    if (path === '') path = `M${px} ${py}`;
    else path += step && previousY !== undefined ? ` H${px} V${py}` : ` L${px} ${py}`;
    previousY = y;
  }
  return path;
}

/** Series stacked on one another per bucket of x, as areas or as bars: requests per second by status, say. */
export function stackedChart(options: StackedChartOptions): Html {
  const guides = options.guides ?? [];
  const { legendEntries, frame } = seriesFrame(options, guides);
  const totals = options.buckets.map((_, index) => options.series.reduce((sum, series) => sum + (series.values[index] ?? 0), 0));
  const first = options.buckets[0] ?? 0;
  const last = (options.buckets.at(-1) ?? 0) + options.bucketWidth;
  const [xMin, xMax] = extent([first, last], options.x);
  const [yMin, yMax] = extent([0, ...totals, ...guides.map((guide) => guide.y)], { ...options.y, min: options.y.min ?? 0 });
  const xScale = linearScale(xMin, xMax, frame.left, frame.width - frame.right, 8, false);
  const yScale = linearScale(yMin, yMax, frame.height - frame.bottom, frame.top, 5);
  const formatX = options.x.format ?? formatNumber;
  const formatY = options.y.format ?? formatNumber;
  const base = options.buckets.map(() => 0);
  const layers = options.series.map((series, index) => {
    const colour = colourOf(index, series.colour);
    const lower = [...base];
    options.buckets.forEach((_, bucket) => {
      base[bucket] = (base[bucket] ?? 0) + (series.values[bucket] ?? 0);
    });
    if (options.kind === 'bar') {
      const barWidth = Math.max(0.5, xScale(first + options.bucketWidth) - xScale(first) - (options.buckets.length > 150 ? 0 : 1));
      const bars = options.buckets.map((x, bucket) => {
        const value = series.values[bucket] ?? 0;
        if (value === 0) return html``;
        const top = yScale((lower[bucket] ?? 0) + value);
        const height = yScale(lower[bucket] ?? 0) - top;
        return html`<rect x="${coordinate(xScale(x))}" y="${coordinate(top)}" width="${coordinate(barWidth)}" height="${coordinate(height)}" fill="${colour}"><title>${series.name}: ${formatY(value)} at ${formatX(x)}</title></rect>`;
      });
      return html`<g class="series">${bars}</g>`;
    }
    const upperPoints = options.buckets.flatMap((x, bucket) => [
      [x, (lower[bucket] ?? 0) + (series.values[bucket] ?? 0)],
      [x + options.bucketWidth, (lower[bucket] ?? 0) + (series.values[bucket] ?? 0)],
    ]);
    const lowerPoints = options.buckets.flatMap((x, bucket) => [
      [x, lower[bucket] ?? 0],
      [x + options.bucketWidth, lower[bucket] ?? 0],
    ]).reverse();
    const outline = [...upperPoints, ...lowerPoints].map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${coordinate(xScale(x ?? 0))} ${coordinate(yScale(y ?? 0))}`).join(' ');
    const total = series.values.reduce((sum, value) => sum + value, 0);
    return html`<path d="${outline} Z" fill="${colour}" fill-opacity="0.85" stroke="${colour}" stroke-width="0.5"><title>${series.name}: ${formatNumber(total)} in all</title></path>`;
  });
  const { marks } = legend(legendEntries, frame);
  const description = `${options.y.label} against ${options.x.label}, stacked: ${options.series.map((s) => s.name).join(', ')}`;
  return svg(frame, options.title, description, html`${axes(frame, xScale, yScale, options.x, options.y)}${options.buckets.length === 0 ? emptyNote(frame) : layers}${guideLines(guides, frame, yScale)}${marks}`);
}

/** Bars grouped by category: latency percentiles (p50, p90, p99 ...) of several groups side by side. */
export function groupedBarChart(options: GroupedBarOptions): Html {
  const width = options.width ?? DEFAULT_WIDTH;
  const legendEntries = options.groups.map((group, index) => ({ name: group.name, colour: colourOf(index, group.colour) }));
  const rows = legendRowsNeeded(legendEntries.map((e) => e.name), width);
  const frame = frameFor(width, (options.height ?? DEFAULT_HEIGHT) + (rows - 1) * LEGEND_ROW, rows);
  const values = options.groups.flatMap((group) => group.values);
  const [yMin, yMax] = extent([0, ...values], { ...options.y, min: options.y.min ?? 0 });
  const yScale = linearScale(yMin, yMax, frame.height - frame.bottom, frame.top, 5);
  const formatY = options.y.format ?? formatNumber;
  const plotWidth = frame.width - frame.left - frame.right;
  const slot = plotWidth / Math.max(1, options.categories.length);
  const barWidth = Math.max(2, Math.min(36, (slot * 0.8) / Math.max(1, options.groups.length)));
  const bottom = frame.height - frame.bottom;
  const bars = options.categories.map((category, categoryIndex) => {
    const groupStart = frame.left + slot * categoryIndex + (slot - barWidth * options.groups.length) / 2;
    const marks = options.groups.map((group, groupIndex) => {
      const value = group.values[categoryIndex];
      if (value === undefined || !Number.isFinite(value)) return html``;
      const top = yScale(value);
      const x = groupStart + groupIndex * barWidth;
      return html`<rect x="${coordinate(x)}" y="${coordinate(top)}" width="${coordinate(barWidth - 1)}" height="${coordinate(bottom - top)}" fill="${colourOf(groupIndex, group.colour)}"><title>${group.name} ${category}: ${formatY(value)}</title></rect>`;
    });
    return html`${marks}<text x="${coordinate(frame.left + slot * (categoryIndex + 0.5))}" y="${bottom + 16}" text-anchor="middle">${category}</text>`;
  });
  const yTicks = yScale.ticks.map(
    (tick) =>
      html`<line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${coordinate(yScale(tick))}" y2="${coordinate(yScale(tick))}" stroke="#d1d9e0"/><text x="${frame.left - 6}" y="${coordinate(yScale(tick) + 4)}" text-anchor="end">${formatY(tick)}</text>`,
  );
  const { marks } = legend(legendEntries, frame);
  const chartAxes = html`<g class="axes">${yTicks}<line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${bottom}" y2="${bottom}" stroke="#59636e"/><line x1="${frame.left}" x2="${frame.left}" y1="${frame.top}" y2="${bottom}" stroke="#59636e"/>
<text x="${(frame.left + frame.width - frame.right) / 2}" y="${frame.height - 6}" text-anchor="middle" class="axis-label">${options.xLabel}</text>
<text transform="translate(14 ${(frame.top + bottom) / 2}) rotate(-90)" text-anchor="middle" class="axis-label">${options.y.label}</text></g>`;
  const description = `${options.y.label} by ${options.xLabel} for ${options.groups.map((g) => g.name).join(', ')}`;
  return svg(frame, options.title, description, html`${chartAxes}${values.length === 0 ? emptyNote(frame) : bars}${marks}`);
}
