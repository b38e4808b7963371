/**
 * The spec's two client rules judged from traffic, per key, in one pass (spec: Errors, rules 1 and 2):
 *
 * - ERR-3: a request sent after the key's last 429 reached its client and before that 429's Retry-After had
 *   passed. Any request on the key counts, not only the same one again: RFC 6585 gives Retry-After as "how
 *   long to wait before making a new request", the limit the 429 speaks of is the key's (Rate limits by plan),
 *   and the ban the spec threatens is "of the API key", whatever operation the next request names. Messages
 *   say whether the early request was the same one again. The key's *last* 429 is the one judged against:
 *   it is the target's latest word to that client, and supersedes an earlier, longer one.
 * - ERR-4: more than one request sent into a refused stretch of the key (from a 429's arrival to the end of its
 *   wait, lengthened by the 429s that come within it): a burst while refused, "repeated requests after a 429".
 *   And a run of consecutive refusals whose retries' waits did not grow ("exponential
 *   backoff"). A full-jitter backoff (lib/backoff.ts) draws each wait at random below a ceiling that doubles,
 *   so a single wait may be shorter than the one before, and a small base (250 ms) hides the growth for the
 *   first retries under the Retry-After each wait includes. So a run is judged only from GROWTH_RUN retries on,
 *   on what each retry waited beyond its Retry-After, summed per half: a backoff's later half waits well over
 *   twice its first (a doubling ceiling, jittered, gives some sixteen times), while a client that waits a fixed
 *   interval, or exactly each Retry-After, waits about the same in both, give or take its timers.
 *
 * A request is held to a 429 only when it left more than the crossing time (a tenth of a second) after the 429's
 * answer: until then it may have crossed the 429 on the wire. A client that resends at once after every 429
 * is still caught: its requests are held to the 429s answered before them.
 *
 * Partial traffic only makes a client look better: a request the capture lacks cannot be early, a refusal it
 * lacks asks for no wait, and a missing request between a refusal and the next one seen lengthens the wait
 * measured. A request whose send time the capture does not give (no duration) is never called early: it may
 * have left before the 429 came back.
 */
import { MEASURE_SLACK_MS, readRetryAfter, type RetryAfter } from '../../lib/rate-limiter/retry-after.ts';
import type { RuleTallies } from './rule-tally.ts';
import { CLIENT_RULES, type ClientExchange, type ClientRule, type ClientStanding } from './client-exchange.ts';
import { clientsPart } from './clients-part.ts';

const [WAITS, BACKS_OFF] = CLIENT_RULES;


/** Retries in a run of consecutive refusals before whether their waits grow is judged (see above). */
export const GROWTH_RUN = 8;
/**
 * A run's waits grow when its later half waits, beyond Retry-After, at least twice its first half and this
 * much more: what timers that merely wander (a loaded machine, a fast clock) do not add up to.
 */
export const GROWTH_MARGIN_MS = 2_000;
/** A run of refusals is judged in pieces of at most this many retries, so a key refused all day keeps no more. */
const MAX_RUN = 1_000;
/** Refusals kept per key to find a request's last 429 in a capture whose order is that of answers, not sends. */
const RECENT_REFUSALS = 32;

interface Sent {
  number: number;
  method: string;
  path: string;
  sentAt: number;
}

interface Refusal {
  number: number;
  method: string;
  path: string;
  answeredAt: number;
  retryAfter: string | undefined;
  date: string | undefined;
  wait: RetryAfter | undefined;
  early: number;
  firstEarly: Sent | undefined;
  /** How long before the wait's end (less its slack) the earliest request left. */
  earliestByMs: number;
}

/** From a 429's arrival to the end of the longest wait a 429 within it asked for. */
interface RefusedStretch {
  opened: Refusal;
  /** The end of the wait, less its slack. */
  until: number;
  refusals: number;
  sent: number;
  first: Sent | undefined;
}

interface RunWait {
  ms: number;
  /** What the refusal's Retry-After asked (0 when it asked nothing readable). */
  askedMs: number;
  refusal: number;
  retry: number;
}

interface Example {
  score: number;
  text: string;
}

interface KeyState {
  standing: ClientStanding;
  worst: Partial<Record<ClientRule, Example>>;
  recent: Refusal[];
  /** The latest refusal no request has followed yet: where the next wait of a run is measured from. */
  pending: Refusal | undefined;
  run: RunWait[];
  stretch: RefusedStretch | undefined;
}

export class ClientRuleJudge {
  private readonly keys = new Map<string, KeyState>();
  /** Whether any run was long enough to show whether backoff grows. */
  private growthJudged = false;

  constructor(
    private readonly tallies: RuleTallies,
    private readonly clockSkewMs: number,
    /**
     * How soon after a 429's answer a request may still have left before its client had the 429: the two cross
     * on the wire, and a client's event loop reads its socket late under load.
     */
    private readonly crossingMs: number = MEASURE_SLACK_MS,
  ) {}

  add(exchange: ClientExchange): void {
    const key = this.state(exchange.key);
    key.standing.requests++;
    const sentAt = exchange.sentAt;
    if (sentAt === undefined) this.unknownSend(key, exchange);
    else {
      const knownAt = sentAt - this.crossingMs;
      const last = lastRefusalBefore(key.recent, knownAt);
      if (last?.wait && sentAt < last.answeredAt + last.wait.waitMs - last.wait.slackMs) {
        last.early++;
        last.firstEarly ??= { number: exchange.number, method: exchange.method, path: exchange.path, sentAt };
        last.earliestByMs = Math.max(last.earliestByMs, last.answeredAt + last.wait.waitMs - sentAt);
      }
      const stretch = key.stretch;
      if (stretch && sentAt >= stretch.until) this.closeStretch(key);
      else if (stretch && knownAt > stretch.opened.answeredAt) {
        stretch.sent++;
        stretch.first ??= { number: exchange.number, method: exchange.method, path: exchange.path, sentAt };
      }
      if (key.pending && knownAt > key.pending.answeredAt) {
        key.run.push({ ms: sentAt - key.pending.answeredAt, askedMs: key.pending.wait?.waitMs ?? 0, refusal: key.pending.number, retry: exchange.number });
        key.pending = undefined;
        if (key.run.length >= MAX_RUN) this.closeRun(key);
      }
    }
    if (exchange.status === 429) {
      const refusal: Refusal = {
        number: exchange.number,
        method: exchange.method,
        path: exchange.path,
        answeredAt: exchange.answeredAt,
        retryAfter: exchange.retryAfter,
        date: exchange.date,
        wait: readRetryAfter(exchange.retryAfter, { answeredAt: exchange.answeredAt, date: exchange.date, clockSkewMs: this.clockSkewMs }),
        early: 0,
        firstEarly: undefined,
        earliestByMs: 0,
      };
      key.standing.refusals++;
      this.stretchWith(key, refusal);
      insertByAnswer(key.recent, refusal);
      if (key.recent.length > RECENT_REFUSALS) this.closeRefusal(key, key.recent.shift() as Refusal);
      key.pending = refusal;
    } else this.closeRun(key);
  }

  /**
   * Judges what is still open (the capture ended), writes the clients part beside each rule's tally, and
   * returns each key's standing, the worst clients first.
   */
  finish(): ClientStanding[] {
    for (const key of this.keys.values()) {
      for (const refusal of key.recent.splice(0)) this.closeRefusal(key, refusal);
      this.closeStretch(key);
      this.closeRun(key);
      for (const rule of CLIENT_RULES) {
        const worst = key.worst[rule];
        if (worst) key.standing.worst[rule] = worst.text;
      }
    }
    const standings = [...this.keys.values()].map((key) => key.standing).sort((a, b) => breaches(b) - breaches(a) || a.key.localeCompare(b.key));
    if (!this.growthJudged && this.tallies.get(BACKS_OFF)?.exchanges) this.tallies.unchecked(BACKS_OFF, `whether backoff grows: no key had a run of ${GROWTH_RUN} retries refused in a row, the least that shows it`);
    for (const rule of CLIENT_RULES) {
      if (this.tallies.get(rule)?.exchanges) for (const line of clientsPart(standings, rule)) this.tallies.noted(rule, line);
    }
    return standings;
  }

  private state(name: string): KeyState {
    let key = this.keys.get(name);
    if (!key) {
      key = { standing: { key: name, requests: 0, refusals: 0, unwaited: 0, earlyRequests: 0, bursts: 0, flatRuns: 0, worst: {} }, worst: {}, recent: [], pending: undefined, run: [], stretch: undefined };
      this.keys.set(name, key);
    }
    return key;
  }

  private unknownSend(key: KeyState, exchange: ClientExchange): void {
    const last = lastRefusalBefore(key.recent, exchange.answeredAt);
    if (last?.wait && exchange.answeredAt < last.answeredAt + last.wait.waitMs - last.wait.slackMs) {
      this.tallies.unchecked(WAITS, 'requests answered within a 429\'s wait whose send time the capture does not give (no duration): they may have left before the 429 came back, so none is called early');
    }
  }

  private closeRefusal(key: KeyState, refusal: Refusal): void {
    const name = key.standing.key;
    if (!refusal.wait) {
      this.tallies.unchecked(WAITS, refusal.retryAfter === undefined ? '429s without Retry-After (the target broke RL-1): no wait to hold their client to' : '429s whose Retry-After is neither delta-seconds nor an HTTP-date: no wait to hold their client to');
      return;
    }
    this.tallies.judged(WAITS, name);
    const early = refusal.firstEarly;
    if (refusal.early === 0 || !early) return;
    const asked = `Retry-After ${refusal.wait.text}${/^\d+$/.test(refusal.wait.text) ? ' s' : `, ${seconds(refusal.wait.waitMs)}`}`;
    const first = `exchange ${early.number}${early.method === refusal.method && early.path === refusal.path ? ', the same request again' : `, ${early.method} ${early.path}`}`;
    const message = `key ${name}: ${count(refusal.early, 'request')} sent before the ${asked} of its last 429 had passed (exchange ${refusal.number}, ${refusal.method} ${refusal.path}); the first (${first}) ${seconds(refusal.answeredAt + refusal.wait.waitMs - early.sentAt)} early`;
    key.standing.unwaited++;
    key.standing.earlyRequests += refusal.early;
    this.tallies.violated(WAITS, message, evidence(refusal, early));
    worse(key, WAITS, refusal.earliestByMs, message);
  }

  /** A 429 opens a refused stretch, or lengthens the one it came within. */
  private stretchWith(key: KeyState, refusal: Refusal): void {
    if (!refusal.wait) return;
    const until = refusal.answeredAt + refusal.wait.waitMs - refusal.wait.slackMs;
    const stretch = key.stretch;
    if (stretch && refusal.answeredAt < stretch.until) {
      stretch.until = Math.max(stretch.until, until);
      stretch.refusals++;
      return;
    }
    this.closeStretch(key);
    if (until > refusal.answeredAt) key.stretch = { opened: refusal, until, refusals: 1, sent: 0, first: undefined };
  }

  private closeStretch(key: KeyState): void {
    const stretch = key.stretch;
    key.stretch = undefined;
    if (!stretch) return;
    this.tallies.judged(BACKS_OFF, key.standing.key);
    if (stretch.sent < 2 || !stretch.first) return;
    const opened = stretch.opened;
    const refused = stretch.refusals > 1 ? `, ${count(stretch.refusals - 1, 'more 429')} within it` : '';
    const message = `key ${key.standing.key}: ${count(stretch.sent, 'request')} sent while refused, within ${seconds(stretch.until + (opened.wait?.slackMs ?? 0) - opened.answeredAt)} of the 429 of exchange ${opened.number} (Retry-After ${opened.retryAfter ?? ''}${refused}): requests repeated while refused, the first ${stretch.first.method} ${stretch.first.path} (exchange ${stretch.first.number})`;
    key.standing.bursts++;
    this.tallies.violated(BACKS_OFF, message, evidence(opened, stretch.first));
    worse(key, BACKS_OFF, stretch.sent, message);
  }

  private closeRun(key: KeyState): void {
    const run = key.run;
    key.run = [];
    key.pending = undefined;
    if (run.length === 0) return;
    const name = key.standing.key;
    if (run.length < GROWTH_RUN) {
      if (run.length > 1) this.tallies.unchecked(BACKS_OFF, `runs of 2 to ${GROWTH_RUN - 1} retries refused in a row: whether backoff grows is judged only on runs of ${GROWTH_RUN} or more (a jittered wait may be shorter than the one before)`);
      return;
    }
    this.tallies.judged(BACKS_OFF, name);
    this.growthJudged = true;
    const half = Math.floor(run.length / 2);
    const beyond = run.map((wait) => Math.max(0, wait.ms - wait.askedMs));
    const firstHalf = sum(beyond.slice(0, half));
    const laterHalf = sum(beyond.slice(run.length - half));
    if (laterHalf >= 2 * firstHalf + GROWTH_MARGIN_MS) return;
    const first = run[0] as RunWait;
    const last = run[run.length - 1] as RunWait;
    const message = `key ${name}: ${run.length} retries refused in a row (429s of exchanges ${first.refusal} to ${last.refusal}) waited ${listed(run.map((wait) => seconds(wait.ms)))}; beyond Retry-After, the last ${half} waited ${seconds(laterHalf)} in all and the first ${half} ${seconds(firstHalf)}: the waits do not grow, no backoff`;
    key.standing.flatRuns++;
    this.tallies.violated(BACKS_OFF, message, undefined);
    worse(key, BACKS_OFF, run.length, message);
  }
}

/** The most recent refusal answered before `at` (the list is in answer order). */
function lastRefusalBefore(recent: readonly Refusal[], at: number): Refusal | undefined {
  for (let i = recent.length - 1; i >= 0; i--) {
    const refusal = recent[i] as Refusal;
    if (refusal.answeredAt < at) return refusal;
  }
  return undefined;
}

/** Captures in send order (HAR) may hold a refusal answered before one listed earlier. */
function insertByAnswer(recent: Refusal[], refusal: Refusal): void {
  let i = recent.length;
  while (i > 0 && (recent[i - 1] as Refusal).answeredAt > refusal.answeredAt) i--;
  recent.splice(i, 0, refusal);
}

function worse(key: KeyState, rule: ClientRule, score: number, text: string): void {
  const current = key.worst[rule];
  if (!current || score > current.score) key.worst[rule] = { score, text };
}

function breaches(standing: ClientStanding): number {
  return standing.unwaited + standing.bursts + standing.flatRuns;
}

function evidence(refusal: Refusal, early: Sent): { request: unknown; response: unknown } {
  return {
    request: { exchange: early.number, method: early.method, url: early.path, sentAt: new Date(early.sentAt).toISOString() },
    response: {
      exchange: refusal.number,
      request: `${refusal.method} ${refusal.path}`,
      status: 429,
      headers: { ...(refusal.retryAfter !== undefined ? { 'retry-after': refusal.retryAfter } : {}), ...(refusal.date !== undefined ? { date: refusal.date } : {}) },
      answeredAt: new Date(refusal.answeredAt).toISOString(),
    },
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** A run's waits, the first few: enough to see that they do not grow. */
function listed(waits: readonly string[]): string {
  return waits.length > 8 ? `${waits.slice(0, 8).join(', ')}, … (${waits.length - 8} more)` : waits.join(', ');
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function count(n: number, singular: string): string {
  return `${n.toLocaleString('en-US')} ${singular}${n === 1 ? '' : 's'}`;
}
