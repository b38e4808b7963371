/**
 * Turns "this expectation of rule X did not hold" into what the rule's level calls for, so a spec never
 * chooses between failing and warning itself: a MUST violation fails the test (softly, so one test reports
 * every violation it sees), a SHOULD violation is a warning, a GAP finding is an observation. Messages start
 * with `[RULE-ID]` and come with the exchange that proved them as `evidence`; the conformance reporter
 * depends on both.
 */
import { expect, type TestInfo } from '@playwright/test';
import type { Redactor } from '../../lib/redact.ts';
import type { GeneratedSummary } from '../../lib/verdicts/test-record.ts';
import { ruleById } from '../../lib/rules.ts';
import { breachVerdict } from '../../lib/verdicts/level.ts';
import { evidenceOf } from './evidence.ts';
import { isIncidental } from './incidental-findings.ts';
import type { Exchange } from './exchange.ts';

/** A burst of a thousand bad responses should read as one finding, not a thousand. */
export const MAX_REPORTED_PER_RULE = 5;

const ruleExpect = expect.extend({
  toHold(received: { holds: boolean; message: string }) {
    return { pass: received.holds, message: () => received.message, name: 'toHold' };
  },
});

export interface Judgement {
  /** The rule judged; the test's primary rule when omitted. */
  rule?: string;
  /** The exchange that shows the violation, or the exchanges that show it together (a promise and what broke it). */
  evidence?: Exchange | readonly Exchange[];
  /** Found by the contract check every response gets, not by the test's own logic (see incidental-findings.ts). */
  byContractCheck?: boolean;
}


export class RuleJudge {
  private readonly reported = new Map<string, number>();
  private readonly cited: string[];
  private failures = 0;
  private incidentalFailures = 0;
  private readonly judgedWholeRules = new Set<string>();

  constructor(
    private readonly testInfo: TestInfo,
    /** The rule the test's title cites first. */
    readonly primary: string,
    private readonly redactor: Redactor,
  ) {
    this.cited = testInfo.annotations.filter((annotation) => annotation.type === 'rule').map((annotation) => annotation.description ?? primary);
  }

  /**
   * Judges one expectation; returns whether it held, so a spec can stop where going on makes no sense.
   * `message` says what was expected and what came: "expected 201, got 400".
   */
  expect(holds: boolean, message: string, judgement: Judgement = {}): boolean {
    if (holds) return true;
    const rule = judgement.rule ?? this.primary;
    const count = (this.reported.get(rule) ?? 0) + 1;
    this.reported.set(rule, count);
    if (count > MAX_REPORTED_PER_RULE) return false;
    const more = count === MAX_REPORTED_PER_RULE ? ' (further violations of this rule in this test are not repeated)' : '';
    const text = `[${rule}] ${message}${more}`;
    for (const exchange of [judgement.evidence ?? []].flat()) this.attachEvidence(rule, exchange);
    switch (breachVerdict(ruleById(rule).level)) {
      case 'fail':
        ruleExpect.soft({ holds: false, message: text }).toHold();
        this.failures++;
        if (judgement.byContractCheck && this.incidental(rule)) this.incidentalFailures++;
        break;
      case 'warn':
        this.testInfo.annotations.push({ type: 'warning', description: text });
        break;
      case 'observed':
        this.testInfo.annotations.push({ type: 'observation', description: text });
        break;
    }
    return false;
  }

  /** Records what the target did where the spec is silent. */
  observe(message: string, rule: string = this.primary): void {
    ruleById(rule);
    this.testInfo.annotations.push({ type: 'observation', description: `[${rule}] ${message}` });
  }

  /**
   * Says in a few words what the target does where the spec is silent ("fixed windows", "ids ascending"): the
   * matrix shows it side by side with other implementations'. Words that name a behaviour, never a count or a
   * time, so two runs of one implementation say the same.
   */
  gist(words: string, rule: string = this.primary): void {
    ruleById(rule);
    this.testInfo.annotations.push({ type: 'gist', description: `[${rule}] ${words}` });
  }

  /**
   * Records that part of a rule was not exercised by this run (too little data, read-only mode, a plan
   * without a key): the rule is then reported "partly checked", never "pass". `what` names the part and why.
   */
  unchecked(what: string, rule: string = this.primary): void {
    ruleById(rule);
    this.testInfo.annotations.push({ type: 'unchecked', description: `[${rule}] ${what}` });
  }

  /**
   * Says that this test judged `rules` (every rule it cites, when none are named) whole: what it concluded of them
   * rests on nothing the target got wrong elsewhere (a quota counted from what was admitted and refused, not read
   * from a header that failed). A failure of another rule in the same test then leaves their verdicts standing.
   */
  judgedWhole(...rules: string[]): void {
    for (const rule of rules.length > 0 ? rules : this.cited) this.judgedWholeRules.add(ruleById(rule).id);
  }

  /** Whether the contract check's finding of `rule` leaves this test's own rules checked whole. */
  incidental(rule: string): boolean {
    return isIncidental(rule, this.cited);
  }

  /**
   * When the test's body has ended: if every failure it judged was incidental, it ran through and checked its own
   * rules whole; otherwise the rules it said it judged whole are. The reporter trusts either only when the test
   * has no error besides those `count` failures.
   */
  finish(): void {
    if (this.failures === 0) return;
    if (this.failures === this.incidentalFailures) this.testInfo.annotations.push({ type: 'ran-through', description: String(this.failures) });
    else if (this.judgedWholeRules.size > 0) this.testInfo.annotations.push({ type: 'judged-whole', description: `${this.failures} ${[...this.judgedWholeRules].join(' ')}` });
  }

  /**
   * What one property of the generated project sent and got: its kind of request, how many, from which input
   * classes, and the answers (the report's table of generated properties).
   */
  generated(summary: GeneratedSummary): void {
    this.testInfo.annotations.push({ type: 'generated', description: JSON.stringify(summary) });
  }

  /**
   * Ends the test where the target gave no answer to judge by (no-answer.ts): nothing contradicts the rule, so
   * it is not failed. The test is skipped with the cause, its rule then skipped or, where other tests judged it,
   * partly checked; a violation this test judged before still fails its rule.
   */
  couldNotComplete(cause: string): never {
    this.testInfo.skip(true, `could not complete, so not judged: ${cause}`);
    throw new Error(cause);
  }

  /** Notes that a 429 was waited out (the report counts throttled tests). */
  throttled(message: string): void {
    this.testInfo.annotations.push({ type: 'throttled', description: message });
  }

  /** How many violations of each rule this test found, reported or not. */
  get violations(): ReadonlyMap<string, number> {
    return this.reported;
  }

  private attachEvidence(rule: string, exchange: Exchange): void {
    const evidence = evidenceOf(rule, exchange, this.redactor);
    this.testInfo.attachments.push({ name: 'evidence', contentType: 'application/json', body: Buffer.from(JSON.stringify(evidence, null, 2)) });
  }
}
