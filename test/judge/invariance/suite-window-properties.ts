/**
 * The invariance properties of the suite's window analysis (lib/rate-limiter/burst.ts, judged by the suite's minute
 * tests through specs/support/window-verdicts.ts), over real captures of a correct service: each Free window the
 * capture holds whole (its first admission, the rest of its quota, the first refusal after them) is read as the
 * suite reads its own measurement (a probe, a burst, one request more) and judged with the suite's own verdicts.
 *
 * What a fleet of nodes does to the answers (one slower, two in flight decided in the other order, Reset rounded
 * apart by a node) makes none of them fail; each fault planted in such a window fails its own rule. A node's clock
 * is not among them: the suite reads every answer by its own one clock. The faults are the judge's where the
 * suite's window shows them as planted (faults.ts: an admission over the quota, a 429 without Retry-After); a
 * Remaining one more and a Reset moved are planted on any answer of the burst, since the suite sends its burst at once
 * and judges its values as a set, not answers one after the other.
 */
import fc from 'fast-check';
import { expect } from '@playwright/test';
import { placeRequest } from '../../../lib/contract.ts';
import type { Quota } from '../../../lib/plans.ts';
import type { Exchange } from '../../../specs/support/exchange.ts';
import type { Judgement } from '../../../specs/support/judge.ts';
import type { MinuteMeasurement } from '../../../specs/support/minute-window.ts';
import { planRule, quotaOf } from '../../../specs/support/plan-quotas.ts';
import { analyseBurst, describesMinuteWindow, readingOf } from '../../../specs/support/window-analysis.ts';
import { judgeQuota, type WindowJudge } from '../../../specs/support/window-verdicts.ts';
import { copyLine, viewOf, type Capture, type Line, type LineView } from './capture-lines.ts';
import { FAULTS, type PlantedFault } from './faults.ts';
import { holds, type PropertyRun } from './properties.ts';
import { applyAll, SERVICE, transformations, type Transformation } from './transformations.ts';

const PLAN = 'free';
const QUOTA: Quota = quotaOf(PLAN);

/**
 * Where a line stands in the suite's measurement, kept on the line through the transformations' copies: one of the
 * window's admissions, or the request after them. Which admission is the probe is told once the fleet has answered:
 * the one decided first (the most left), as the suite's probe is answered before its burst leaves.
 */
type Role = 'admitted' | 'extra';
const ROLE = '_suiteRole';

const roleOf = (line: Line): Role => line.entry[ROLE] as Role;

/**
 * Each window of the capture's Free key that it holds whole, as the suite measures one: the admission that found it
 * fresh (Remaining one below the Limit), the quota's other admissions under its Reset, and the first refusal sent
 * after them. Only these lines, each tagged with its role.
 */
export function suiteWindows(capture: Capture): Capture[] {
  const view = viewOf(capture.kind);
  const free = capture.lines.filter((line) => /free/i.test(view.key(line)) && Number(view.header(line, 'x-ratelimit-limit')) === QUOTA.perMinute);
  const sentAt = (line: Line): number => view.answeredAt(line) - (view.duration(line) ?? 0);
  const windows: Capture[] = [];
  for (const probe of free.filter((line) => view.status(line) === 200 && Number(view.header(line, 'x-ratelimit-remaining')) === QUOTA.perMinute - 1)) {
    const reset = view.header(probe, 'x-ratelimit-reset');
    const admitted = free.filter((line) => line !== probe && view.status(line) < 300 && view.header(line, 'x-ratelimit-reset') === reset);
    const lastSent = Math.max(...admitted.map(sentAt));
    const extra = free.filter((line) => view.status(line) === 429 && sentAt(line) > lastSent).sort((a, b) => sentAt(a) - sentAt(b))[0];
    if (admitted.length !== QUOTA.perMinute - 1 || extra === undefined) continue;
    const tagged = (line: Line, role: Role): Line => ({ entry: { ...copyLine(line).entry, [ROLE]: role } });
    windows.push({ kind: capture.kind, lines: [tagged(probe, 'admitted'), ...admitted.map((line) => tagged(line, 'admitted')), tagged(extra, 'extra')] });
  }
  return windows;
}

function exchangeOf(view: LineView, line: Line): Exchange {
  const method = view.method(line) as Exchange['request']['method'];
  const path = view.path(line);
  const placed = placeRequest({ method, path });
  if (!placed) throw new Error(`${method} ${path} is no operation of the contract`);
  const headers = Object.fromEntries(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].flatMap((name) => {
    const value = view.header(line, name);
    return value === undefined ? [] : [[name, value]];
  }));
  const answeredAt = view.answeredAt(line);
  return {
    operation: placed.operation.id,
    request: { method, url: path, headers: {} },
    response: { status: view.status(line), headers, body: '' },
    json: undefined,
    plan: PLAN,
    sentAt: answeredAt - (view.duration(line) ?? 0),
    receivedAt: answeredAt,
    kind: placed.classification,
  };
}

/** Records what a verdict failed, by rule (the plan's rule when the expectation names none). */
class FailedRules implements WindowJudge {
  readonly failed = new Map<string, string>();
  readonly unchecked: WindowJudge['unchecked'] = () => undefined;
  expect(holds: boolean, message: string, judgement: Judgement = {}): boolean {
    if (!holds) this.failed.set(judgement.rule ?? planRule(PLAN), message);
    return holds;
  }
}

/** The suite's verdicts of one measured window: each failed rule with what it said; undefined when it rolled over. */
export function suiteFailures(window: Capture): Record<string, string> | undefined {
  const view = viewOf(window.kind);
  const inRole = (role: Role): Exchange[] => window.lines.filter((line) => roleOf(line) === role).map((line) => exchangeOf(view, line));
  const [extra] = inRole('extra');
  const admitted = inRole('admitted');
  const probe = admitted.reduce((most, exchange) => (readingOf(exchange).remaining! > readingOf(most).remaining! ? exchange : most));
  const burst = admitted.filter((exchange) => exchange !== probe);
  // As measureMinuteWindow analyses its burst: a window that rolled over is measured again, and judged not at all.
  const analysis = analyseBurst({ probe: readingOf(probe), burst: burst.map(readingOf), extra: readingOf(extra!), headersTrusted: describesMinuteWindow(readingOf(probe), QUOTA) });
  if (analysis.kind !== 'measured') return undefined;
  const measured: MinuteMeasurement = { analysis, probe, by: 'headers', burst, extra: extra!, retaken: [] };
  const judge = new FailedRules();
  judgeQuota(measured, QUOTA, judge);
  return Object.fromEntries(judge.failed);
}

/** What a fleet does to answers, as the suite sees them: every SERVICE transformation but a node's clock. */
const FLEET = transformations(SERVICE).map((steps) => steps.filter((step) => step.kind !== 'clockOffset'));

function names(steps: readonly Transformation[]): string {
  return steps.length === 0 ? 'none' : steps.map((step) => step.name).join('; then ');
}

/** A burst answer's edit: what the suite judges as a set, so any admitted answer of the burst shows it. */
function onBurst(name: string, rule: string, edit: (view: LineView, line: Line) => void): PlantedFault {
  return {
    name,
    rule,
    alsoBreaks: [],
    plant: (capture, pick) => {
      const view = viewOf(capture.kind);
      const lines = capture.lines.map(copyLine);
      const places = lines.filter((line) => roleOf(line) === 'admitted' && view.status(line) < 300);
      if (places.length === 0) return undefined;
      edit(view, places[pick % places.length]!);
      return { kind: capture.kind, lines };
    },
  };
}

/** An edit of the request after the burst: the refusal. */
function onRefusal(name: string, rule: string, edit: (view: LineView, line: Line) => void): PlantedFault {
  return {
    name,
    rule,
    alsoBreaks: [],
    plant: (capture) => {
      const view = viewOf(capture.kind);
      const lines = capture.lines.map(copyLine);
      const refusal = lines.find((line) => roleOf(line) === 'extra' && view.status(line) === 429);
      if (!refusal) return undefined;
      edit(view, refusal);
      return { kind: capture.kind, lines };
    },
  };
}

const shifted = (name: string, by: number) => (view: LineView, line: Line): void => view.setHeader(line, name, String(Number(view.header(line, name)) + by));

/**
 * A fault for each rule the suite's window verdicts judge (judgeQuota: the plan's quota, RL-1, RL-2, RL-4, RL-6,
 * RL-7): the judge's where they fit its window, and its burst's and refusal's own.
 */
export const SUITE_WINDOW_FAULTS: readonly PlantedFault[] = [
  ...FAULTS.filter((fault) => fault.rule === planRule(PLAN) || fault.rule === 'RL-1'),
  onBurst('a Remaining one more than is left, on an answer of the burst', 'RL-6', shifted('x-ratelimit-remaining', 1)),
  onBurst('a Reset moved back 3 s on an answer of the burst', 'RL-7', shifted('x-ratelimit-reset', -3)),
  onBurst('a Reset moved forward 3 s on an answer of the burst', 'RL-7', shifted('x-ratelimit-reset', 3)),
  onRefusal('a 429 whose Retry-After is no time', 'RL-2', (view, line) => view.setHeader(line, 'retry-after', 'soon')),
  onRefusal('a 429 without the X-RateLimit headers', 'RL-4', (view, line) => {
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) view.setHeader(line, name, undefined);
  }),
];

/** The capture's whole windows, at least one: a capture without one shows the suite's analysis nothing. */
function windowsOf(capture: Capture): Capture[] {
  const windows = suiteWindows(capture);
  expect(windows.length, 'the capture holds a whole Free window and the refusal after it').toBeGreaterThan(0);
  for (const window of windows) expect(suiteFailures(window), 'the window itself fails nothing').toEqual({});
  return windows;
}

/** What a fleet does to a correct service's answers makes none of the suite's window verdicts fail. */
export async function suiteWindowVerdictsHold(capture: Capture, run: PropertyRun): Promise<void> {
  const windows = windowsOf(capture);
  await holds(
    "a correct window a fleet answered fails none of the suite's verdicts",
    fc.record({ steps: FLEET, which: fc.nat() }),
    async ({ steps, which }) => {
      const failed = suiteFailures(applyAll(windows[which % windows.length]!, steps));
      fc.pre(failed !== undefined);
      expect(failed, names(steps)).toEqual({});
    },
    run,
    ({ steps, which }) => `window ${which % windows.length}, after: ${names(steps)}`,
  );
}

/** Each fault planted in a correct window a fleet answered fails its own rule in the suite's verdicts, and no other. */
export async function suiteWindowFaultsAreCaught(capture: Capture, run: PropertyRun): Promise<void> {
  const windows = windowsOf(capture);
  for (const fault of SUITE_WINDOW_FAULTS) {
    const planted = fault.plant(windows[0]!, 0);
    expect(planted, `${fault.name}: no place in the window to plant it`).toBeDefined();
    expect(Object.keys(suiteFailures(planted!) ?? {}), fault.name).toEqual([fault.rule]);
  }
  await holds(
    "a fault planted in a window a fleet answered fails its rule in the suite's verdicts",
    fc.record({ fault: fc.constantFrom(...SUITE_WINDOW_FAULTS), steps: FLEET, which: fc.nat(), pick: fc.nat() }),
    async ({ fault, steps, which, pick }) => {
      const planted = fault.plant(applyAll(windows[which % windows.length]!, steps), pick);
      fc.pre(planted !== undefined);
      const failed = suiteFailures(planted!);
      fc.pre(failed !== undefined);
      const what = `${fault.name}, after: ${names(steps)}`;
      expect(Object.keys(failed!), what).toContain(fault.rule);
      expect(Object.keys(failed!).filter((rule) => rule !== fault.rule && !fault.alsoBreaks.includes(rule)), `${what}: ${JSON.stringify(failed)}`).toEqual([]);
    },
    run,
    ({ fault, steps, which, pick }) => `${fault.name} (window ${which % windows.length}, pick ${pick}), after: ${names(steps)}`,
  );
}
