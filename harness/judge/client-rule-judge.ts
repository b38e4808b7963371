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
 *   wait, lengthened by the 429s that come within it), each sent after one of the stretch's 429s reached its
 *   client and within that 429's wait: a burst while refused, "repeated requests after a 429".
 *   And a run of consecutive refusals whose retries' waits did not grow ("exponential
 *   backoff"). A full-jitter backoff (lib/backoff.ts) draws each wait at random below a ceiling that doubles,
 *   so a single wait may be shorter than the one before, and a small base (250 ms) hides the growth for the
 *   first retries under the Retry-After each wait includes. So a run is judged only from GROWTH_RUN retries on,
 *   on what each retry waited beyond its Retry-After, summed per half: a backoff's later half waits well over
 *   twice its first (a doubling ceiling, jittered, gives some sixteen times), while a client that waits a fixed
 *   interval, or exactly each Retry-After, waits about the same in both, give or take its timers. A key's runs are
 *   judged together, its longest waits set aside as a stalled machine's (backoff-growth.ts).
 *
 * Each rule is judged on the 429s and on the requests that came after them: those sent within a 429's wait
 * (both rules), and each retry that ended a 429's wait (ERR-4).
 *
 * A request is held to a 429 only when it left after the 429 reached its client; before, the two crossed on the
 * wire. Read from evidence where the capture gives it (CrossingEvidence, certify-client's does): a request that
 * came on the connection that carried the 429, after the 429 was written, cannot have crossed it (HTTP/1.1: the
 * client had read the answer before it sent again); otherwise the client's own clock, when it gives both when
 * the 429 reached the client and when the request left. Only where neither tells (any production log) is it
 * a time allowance (`crossingMs`, a tenth of a second) after the 429's answer. Each request sent within a 429's
 * wait is counted by the reading that judged it, and the report says which readings the capture allowed. A
 * client that resends at once after every 429 is still caught: its requests are held to the 429s before them.
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
import { BackoffGrowth } from './backoff-growth.ts';

const [WAITS, BACKS_OFF] = CLIENT_RULES;


/** Retries in a run of consecutive refusals before whether their waits grow is judged (see above). */
export const GROWTH_RUN = 8;
/**
 * A run's waits grow when its later half waits, beyond Retry-After, at least twice its first half and this
 * much more: what timers that merely wander (a loaded machine, a fast clock) do not add up to once a stall's
 * waits are set aside (backoff-growth.ts).
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

/** What tells whether a request left after a 429 reached its client (see above). */
export type CrossingReading = 'connection' | 'client clock' | 'allowance';
export const CROSSING_READINGS: readonly CrossingReading[] = ['connection', 'client clock', 'allowance'];

/** What a capture may give beyond a ClientExchange to read a crossing from evidence (certify-client's does). */
export interface CrossingEvidence {
  /** The connection the request came on: the same value for the same connection. */
  connection?: number;
  /** When the request left by the client's own clock, on the capture's clock. */
  clientSentAt?: number;
  /** For a 429: when it first reached the client by the client's own clock, on the capture's clock. */
  clientReceivedAt?: number;
}

/** A request sent within the wait of the 429 its key last got, and how it was read. */
export interface RefusedRequest {
  number: number;
  method: string;
  path: string;
  /** The latest 429 of the key answered before it came, whose wait it was sent within. */
  refusal: number;
  /** Ms after that 429's answer it came. */
  afterMs: number;
  reading: CrossingReading;
  /** false: it left before its client had that 429, and is not held to it. */
  held: boolean;
  /** The 429 it was counted early against (ERR-3), if it was. */
  earlyAgainst: number | undefined;
}

type SentWithEvidence = Sent & Pick<CrossingEvidence, 'connection' | 'clientSentAt'>;

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
  connection: number | undefined;
  clientReceivedAt: number | undefined;
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
  /** The key's runs of retries pooled (judged once the capture ends), and those that did not grow by themselves. */
  growth: BackoffGrowth;
  flat: { runs: number; messages: string[]; worst: number };
}

/** Flat runs of one key whose message is kept; the rest are counted. */
const FLAT_MESSAGES = 3;

export class ClientRuleJudge {
  private readonly keys = new Map<string, KeyState>();
  /** Whether any run was long enough to show whether backoff grows. */
  private growthJudged = false;
  /** Requests sent within a 429's wait, by the reading that judged them. */
  private readonly readings: Record<CrossingReading, number> = { connection: 0, 'client clock': 0, allowance: 0 };
  /** Every request sent within a 429's wait, when `keepRefused` asks (certify-client shows them all). */
  readonly refused: RefusedRequest[] = [];

  constructor(
    private readonly tallies: RuleTallies,
    private readonly clockSkewMs: number,
    /**
     * How soon after a 429's answer a request may still have left before its client had the 429: the two cross
     * on the wire, and a client's event loop reads its socket late under load.
     */
    private readonly crossingMs: number = MEASURE_SLACK_MS,
    private readonly keepRefused = false,
  ) {}

  add(exchange: ClientExchange & CrossingEvidence): void {
    const key = this.state(exchange.key);
    key.standing.requests++;
    const sentAt = exchange.sentAt;
    if (sentAt === undefined) this.unknownSend(key, exchange);
    else {
      const sent: SentWithEvidence = { number: exchange.number, method: exchange.method, path: exchange.path, sentAt, connection: exchange.connection, clientSentAt: exchange.clientSentAt };
      const last = this.lastHeld(key.recent, sent);
      const early = last?.wait !== undefined && sentAt < last.answeredAt + last.wait.waitMs - last.wait.slackMs;
      if (last && early) {
        last.early++;
        last.firstEarly ??= sent;
        last.earliestByMs = Math.max(last.earliestByMs, last.answeredAt + (last.wait?.waitMs ?? 0) - sentAt);
      }
      const inWait = this.whileRefused(key, sent, early ? last : undefined);
      const stretch = key.stretch;
      if (stretch && sentAt >= stretch.until) this.closeStretch(key);
      else if (stretch && this.knownRefused(key.recent, stretch.opened, sent)) {
        stretch.sent++;
        stretch.first ??= sent;
      }
      const retry = key.pending !== undefined && this.held(key.pending, sent);
      if (inWait || retry) this.tallies.judged(BACKS_OFF, key.standing.key);
      if (key.pending && retry) {
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
        connection: exchange.connection,
        clientReceivedAt: exchange.clientReceivedAt,
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
      this.judgeRuns(key);
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
    const readText = this.readingsText();
    if (readText !== undefined) for (const rule of CLIENT_RULES) this.tallies.noted(rule, readText);
    return standings;
  }

  private state(name: string): KeyState {
    let key = this.keys.get(name);
    if (!key) {
      key = { standing: { key: name, requests: 0, refusals: 0, unwaited: 0, earlyRequests: 0, bursts: 0, flatRuns: 0, worst: {} }, worst: {}, recent: [], pending: undefined, run: [], stretch: undefined, growth: new BackoffGrowth(), flat: { runs: 0, messages: [], worst: 0 } };
      this.keys.set(name, key);
    }
    return key;
  }

  /** Whether a request left after a 429 reached its client, and what told (see above). */
  private crossing(refusal: Refusal, sent: SentWithEvidence): { held: boolean; reading: CrossingReading } {
    if (refusal.connection !== undefined && sent.connection === refusal.connection && sent.sentAt > refusal.answeredAt) return { held: true, reading: 'connection' };
    if (refusal.clientReceivedAt !== undefined && sent.clientSentAt !== undefined) return { held: sent.clientSentAt > refusal.clientReceivedAt, reading: 'client clock' };
    return { held: sent.sentAt - this.crossingMs > refusal.answeredAt, reading: 'allowance' };
  }

  private held(refusal: Refusal, sent: SentWithEvidence): boolean {
    return refusal.answeredAt < sent.sentAt && this.crossing(refusal, sent).held;
  }

  /**
   * Whether a request left while its client knew the key was refused: after one of the stretch's 429s reached it,
   * within that 429's own wait. A 429 that lengthened the stretch but had not reached the client when the request
   * left (the two crossed) does not make the request one sent while refused: the client kept to what it knew.
   */
  private knownRefused(recent: readonly Refusal[], opened: Refusal, sent: SentWithEvidence): boolean {
    return recent.some((refusal) => refusal.answeredAt >= opened.answeredAt && refusal.wait !== undefined && sent.sentAt < refusal.answeredAt + refusal.wait.waitMs - refusal.wait.slackMs && this.held(refusal, sent));
  }

  /** The key's latest 429 the request left after (the list is in answer order). */
  private lastHeld(recent: readonly Refusal[], sent: SentWithEvidence): Refusal | undefined {
    for (let i = recent.length - 1; i >= 0; i--) {
      const refusal = recent[i] as Refusal;
      if (this.held(refusal, sent)) return refusal;
    }
    return undefined;
  }

  /**
   * A request sent within the wait of its key's latest 429 is put to both rules, counted by the reading that told
   * whether it crossed the 429, and kept when asked.
   */
  private whileRefused(key: KeyState, sent: SentWithEvidence, earlyAgainst: Refusal | undefined): boolean {
    const latest = lastRefusalBefore(key.recent, sent.sentAt);
    if (!latest?.wait || sent.sentAt >= latest.answeredAt + latest.wait.waitMs) return false;
    const { held, reading } = this.crossing(latest, sent);
    this.readings[reading]++;
    this.tallies.judged(WAITS, key.standing.key);
    if (this.keepRefused) this.refused.push({ number: sent.number, method: sent.method, path: sent.path, refusal: latest.number, afterMs: sent.sentAt - latest.answeredAt, reading, held, earlyAgainst: earlyAgainst?.number });
    return true;
  }

  /** Which readings told whether requests crossed a 429, and so which this capture allowed. */
  private readingsText(): string | undefined {
    const total = CROSSING_READINGS.reduce((sum, reading) => sum + this.readings[reading], 0);
    if (total === 0) return undefined;
    const by = CROSSING_READINGS.filter((reading) => this.readings[reading] > 0).map((reading) => `${READING_TEXT[reading](this.crossingMs)} for ${this.readings[reading].toLocaleString('en-US')}`);
    const only = this.readings.allowance === total ? ': the capture gives neither the connection a request came on nor the client\'s own clock, so only the allowance could tell' : '';
    return `${count(total, 'request')} sent within a 429's wait, each read as left after the 429 reached its client or not by ${by.join(', ')}${only}`;
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
    this.tallies.judged(BACKS_OFF, key.standing.key);
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
    this.growthJudged = true;
    const half = Math.floor(run.length / 2);
    const beyond = run.map((wait) => Math.max(0, wait.ms - wait.askedMs));
    key.growth.add(beyond);
    const firstHalf = sum(beyond.slice(0, half));
    const laterHalf = sum(beyond.slice(run.length - half));
    if (laterHalf >= 2 * firstHalf + GROWTH_MARGIN_MS) return;
    const first = run[0] as RunWait;
    const last = run[run.length - 1] as RunWait;
    const message = `key ${name}: ${run.length} retries refused in a row (429s of exchanges ${first.refusal} to ${last.refusal}) waited ${listed(run.map((wait) => seconds(wait.ms)))}; beyond Retry-After, the last ${half} waited ${seconds(laterHalf)} in all and the first ${half} ${seconds(firstHalf)}: the waits do not grow, no backoff`;
    key.flat.runs++;
    key.flat.worst = Math.max(key.flat.worst, run.length);
    if (key.flat.messages.length < FLAT_MESSAGES) key.flat.messages.push(message);
  }

  /**
   * A key breaks ERR-4 when its runs together do not grow (backoff-growth.ts): one flat run of a jittered backoff
   * is luck, and one stretched wait a stalled machine's.
   */
  private judgeRuns(key: KeyState): void {
    const { growth, flat } = key;
    if (growth.runs === 0) return;
    const name = key.standing.key;
    const pooled = `the key's ${growth.runs} runs together waited, beyond Retry-After, ${seconds(growth.laterMs)} in their later halves and ${seconds(growth.firstMs)} in their first, the longest ${growth.setAside === 1 ? 'wait' : `${growth.setAside} waits`} of each set aside (a stalled machine's)`;
    if (growth.grows(GROWTH_MARGIN_MS)) {
      if (flat.runs > 0) this.tallies.noted(BACKS_OFF, `key ${name}: ${count(flat.runs, 'run')} of retries refused in a row did not grow by ${flat.runs === 1 ? 'itself' : 'themselves'}, but ${pooled}: a jittered backoff's run may look flat by chance, so the key is judged over all its runs, and backs off`);
      return;
    }
    key.standing.flatRuns += growth.runs;
    if (growth.runs === 1) {
      for (const message of flat.messages) this.tallies.violated(BACKS_OFF, message, undefined);
      worse(key, BACKS_OFF, flat.worst, flat.messages[0] ?? '');
      return;
    }
    const together = `; over all its runs, ${pooled}: no growth either`;
    const messages = flat.messages.length > 0 ? flat.messages.map((message) => `${message}${together}`) : [`key ${name}: its runs of retries refused in a row grew only by the waits set aside${together}`];
    for (const message of messages) this.tallies.violated(BACKS_OFF, message, undefined);
    worse(key, BACKS_OFF, flat.worst, messages[0] as string);
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

const READING_TEXT: Readonly<Record<CrossingReading, (allowanceMs: number) => string>> = {
  connection: () => 'the connection (sent on the one that carried the 429, after it was written)',
  'client clock': () => "the client's own clock (when the 429 reached it, when the request left)",
  allowance: (ms) => `the allowance (${seconds(ms)} after the 429's answer, where nothing else told)`,
};

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function count(n: number, singular: string): string {
  return `${n.toLocaleString('en-US')} ${singular}${n === 1 ? '' : 's'}`;
}
