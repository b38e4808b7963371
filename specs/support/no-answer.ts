/**
 * A request the target gave no answer to judge by: a connection closed or timed out, a 429 whose wait is longer
 * than the test may take, refusals that went on after every Retry-After was waited out. Nothing in it contradicts
 * the rule being checked, so it never fails that rule: the check says what it could not see, and why.
 */
export class NoAnswer extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'NoAnswer';
  }
}
