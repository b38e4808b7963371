/**
 * What the traffic showed about each rule: how many exchanges (and windows) put it to the test, of which
 * keys, the violations with the exchanges that prove them (the first few; the rest counted), and what was
 * left unchecked and why. Bounded: a few messages per rule, keys by pseudonym.
 */
import type { Evidence } from '../../lib/verdicts/test-record.ts';
import type { RuleFindings } from '../../lib/request-rules.ts';

/** A reviewer follows a broken rule from a handful of cases; the rest are counted. */
const MAX_MESSAGES = 5;
const MAX_EVIDENCE = 3;

export interface RuleTally {
  exchanges: number;
  windows: number;
  keys: Set<string>;
  violations: number;
  messages: string[];
  evidence: Evidence[];
  /** What of the rule this traffic could not show, by reason, with how often. */
  unchecked: Map<string, number>;
  /** Where the spec is silent: what the target did, the first few kinds, with how often. */
  seen: Map<string, number>;
  /** What the report says of the rule beside its counts (the clients part of a client rule). */
  notes: string[];
}

/** What one exchange showed, rule by rule (the request rules' findings, and more): tallied in one step (RuleTallies.record). */
export interface ExchangeFindings extends RuleFindings {
  /** What of a rule it could not show, and why. */
  unchecked: Array<{ rule: string; reason: string }>;
  /** Where the spec is silent: what the target did. */
  observed: Array<{ rule: string; what: string }>;
}

/** Kinds of what a GAP rule saw kept apart; the rest are counted under the last. */
const MAX_SEEN = 8;

export class RuleTallies {
  private readonly byRule = new Map<string, RuleTally>();
  /**
   * Every key any rule was judged on. A tally that holds as many keys holds every one of them, so a key judged before
   * need not be added to it again: adding a key a Set holds is still a lookup, and an exchange is judged on some fifteen
   * rules.
   */
  private readonly keysJudged = new Set<string>();

  get(rule: string): RuleTally | undefined {
    return this.byRule.get(rule);
  }

  judged(rule: string, key: string | undefined, windows = 0): void {
    this.credit(this.tally(rule), key, this.judgedBefore(key), windows);
  }

  /**
   * One exchange's findings, of `key`: each violation's message says which exchange it was seen in, and carries it
   * as `evidence` (made only for a violation kept as evidence). Nothing is made for an exchange that breaks nothing.
   */
  record<Exchange extends { number: number }>(findings: ExchangeFindings, key: string | undefined, exchange: Exchange, evidence: (exchange: Exchange) => Omit<Evidence, 'rule'>): void {
    const judgedBefore = this.judgedBefore(key);
    // Indexed, not for...of: V8 kept an iterator and a result per step of these loops here (measured alone: 270 bytes
    // and 0.5 µs a call for an exchange's dozen rules; indexed, nothing and 0.15 µs).
    const { judged, unchecked, violations, observed } = findings;
    for (let at = 0; at < judged.length; at++) this.credit(this.tally(judged[at]!), key, judgedBefore, 0);
    for (let at = 0; at < unchecked.length; at++) this.unchecked(unchecked[at]!.rule, unchecked[at]!.reason);
    for (let at = 0; at < violations.length; at++) {
      const violation = violations[at]!;
      const tally = this.tally(violation.rule);
      this.violated(violation.rule, `${violation.message} (exchange ${exchange.number}${key ? `, key ${key}` : ''})`, tally.evidence.length < MAX_EVIDENCE ? evidence(exchange) : undefined);
    }
    for (let at = 0; at < observed.length; at++) this.observed(observed[at]!.rule, observed[at]!.what);
  }

  violated(rule: string, message: string, evidence: Omit<Evidence, 'rule'> | undefined): void {
    const tally = this.tally(rule);
    tally.violations++;
    if (tally.messages.length < MAX_MESSAGES) tally.messages.push(message);
    if (evidence && tally.evidence.length < MAX_EVIDENCE) tally.evidence.push({ rule, ...evidence });
  }

  unchecked(rule: string, reason: string): void {
    const tally = this.tally(rule);
    tally.unchecked.set(reason, (tally.unchecked.get(reason) ?? 0) + 1);
  }

  observed(rule: string, what: string): void {
    const tally = this.tally(rule);
    const kind = tally.seen.has(what) || tally.seen.size < MAX_SEEN ? what : 'other';
    tally.seen.set(kind, (tally.seen.get(kind) ?? 0) + 1);
  }

  noted(rule: string, text: string): void {
    this.tally(rule).notes.push(text);
  }

  /** Rules with a failure so far, for the live summary. */
  failing(): string[] {
    return [...this.byRule].filter(([, tally]) => tally.violations > 0).map(([rule]) => rule);
  }

  /** Whether any rule was judged on the key before; it is counted among them from now on. */
  private judgedBefore(key: string | undefined): boolean {
    if (key === undefined) return false;
    if (this.keysJudged.has(key)) return true;
    this.keysJudged.add(key);
    return false;
  }

  /** One exchange (or `windows` windows) more for the tally, of `key`, judged before on some rule or not. */
  private credit(tally: RuleTally, key: string | undefined, judgedBefore: boolean, windows: number): void {
    if (windows > 0) tally.windows += windows;
    else tally.exchanges++;
    if (key !== undefined && !(judgedBefore && tally.keys.size === this.keysJudged.size)) tally.keys.add(key);
  }

  private tally(rule: string): RuleTally {
    let tally = this.byRule.get(rule);
    if (!tally) {
      tally = { exchanges: 0, windows: 0, keys: new Set(), violations: 0, messages: [], evidence: [], unchecked: new Map(), seen: new Map(), notes: [] };
      this.byRule.set(rule, tally);
    }
    return tally;
  }
}
