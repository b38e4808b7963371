/**
 * One property of the generated project: requests drawn from an arbitrary, each sent through the validating
 * client and judged by a check of its own, paced by the target's X-RateLimit-Remaining. A failing request is
 * shrunk by fast-check to the smallest one that still fails, and only that one is judged, with its evidence,
 * its rule and the seed that replays the run. A request that gets no answer to judge by (NoAnswer) ends the
 * property without a verdict on it: its rule is left partly checked, with the cause. So does a value whose
 * judging threw (fast-check counts the throw as a failure with no finding to report): never a silent pass. What a
 * value says it could not check leaves its rule partly checked too, said once a rule with how many values said so.
 */
import fc from 'fast-check';
import { readRateLimit } from '../../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from '../client.ts';
import type { Exchange } from '../exchange.ts';
import type { RuleJudge } from '../judge.ts';
import { NoAnswer } from '../no-answer.ts';

export interface Problem {
  rule: string;
  message: string;
}

export interface Checked {
  /** Undefined only when nothing was sent (an empty sequence). */
  exchange: Exchange | undefined;
  /** Beyond the contract check the client ran (its findings are on the exchange). */
  problems: Problem[];
  /** Requests this value cost, when more than one (a sequence). */
  requests?: number;
  /** What of a rule the value could not check, and why (a pet's status another party may have moved). */
  unchecked?: Problem[];
}

export interface PropertyRun {
  seed: number;
  /** Seeded random requests, after the examples. */
  runs: number;
}

/** The input class the report files shrinking's requests under: how many the time bound allows is the target's speed. */
export const SHRINKING_CLASS = 'shrinking a failure';

/** Requests left in the window below which the next one waits for the window to end. */
const RESERVE = 3;
/** A failing property stops shrinking after this long: each try is a request to the target. */
const SHRINK_TIME_MS = 8_000;
/** The longest wait for a window's end that pacing takes on (the target's time): a minute window and some. */
const MAX_PACING_WAIT_MS = 65_000;

/**
 * Runs the property and returns how many requests it sent. First every example (the input classes' values,
 * sent every run whatever the seed), each judged on its own: the first failure of each rule among them is
 * reported as it was sent, and the examples after it are still sent. Then the seeded random values, whose
 * smallest failure is judged once fast-check has shrunk it. `path` names the property in messages
 * ("createPet: status differing from its enum only in case").
 */
export async function checkProperty<T>(
  check: RuleJudge,
  client: PetStoreClient,
  path: string,
  values: fc.Arbitrary<T>,
  /** `shrinking`: a failure was found, and this value is a smaller candidate for it. */
  send: (value: T, shrinking: boolean) => Promise<Checked>,
  { seed, runs }: PropertyRun,
  examples: readonly T[] = [],
): Promise<number> {
  let sent = 0;
  let unanswered: NoAnswer | undefined;
  /** The first value whose judging threw, and what it threw: the property then checked less than it says. */
  let unjudged: { value: T; error: unknown } | undefined;
  /** By rule, the first thing a value could not check, and how many values said so. */
  const partly = new Map<string, { message: string; times: number }>();
  /** The value's findings beyond the incidental ones, which are judged at once; undefined when nothing was sent. */
  const judge = async (value: T, shrinking: boolean): Promise<{ problems: Problem[]; exchange: Exchange } | undefined> => {
    if (unanswered) return undefined;
    let checked: Checked;
    try {
      checked = await send(value, shrinking);
    } catch (error) {
      if (error instanceof NoAnswer) unanswered = error;
      else unjudged ??= { value, error };
      return undefined;
    }
    const { exchange, problems, requests = 1, unchecked = [] } = checked;
    for (const { rule, message } of unchecked) {
      const seen = partly.get(rule);
      if (seen) seen.times++;
      else partly.set(rule, { message, times: 1 });
    }
    if (!exchange) return undefined;
    sent += requests;
    await paceByRemaining(client, exchange);
    // A rate-limit header finding does not fail the property: it says nothing of the value sent.
    const found = exchange.violations ?? [];
    for (const violation of found.filter((item) => check.incidental(item.rule))) {
      check.expect(false, violation.message, { rule: violation.rule, evidence: exchange, byContractCheck: true });
    }
    return { problems: [...found.filter((item) => !check.incidental(item.rule)), ...problems], exchange };
  };

  const firstByRule = new Map<string, { problem: Problem; exchange: Exchange }>();
  for (const example of examples) {
    const judged = await judge(example, false);
    for (const problem of judged?.problems ?? []) if (!firstByRule.has(problem.rule)) firstByRule.set(problem.rule, { problem, exchange: judged!.exchange });
  }
  for (const { problem, exchange } of firstByRule.values()) {
    check.expect(false, `${problem.message} (generated by ${path}, one of the input classes every run sends)`, { rule: problem.rule, evidence: exchange });
  }

  let smallest: { problems: Problem[]; exchange: Exchange } | undefined;
  let shrinkUntil = Number.POSITIVE_INFINITY;
  const result = await fc.check(
    fc.asyncProperty(values, async (value) => {
      // Only shrinking is bounded in time: every value of the run itself is sent, however slow the target, so
      // every run of one target sends the same requests. A candidate past the bound is let pass unsent.
      if (smallest && Date.now() > shrinkUntil) return true;
      const judged = await judge(value, smallest !== undefined);
      if (!judged || judged.problems.length === 0) return true;
      if (!smallest) shrinkUntil = Date.now() + SHRINK_TIME_MS;
      smallest = judged;
      return false;
    }),
    { seed, numRuns: runs, endOnFailure: false },
  );
  if (result.failed && smallest) {
    const replay = `generated by ${path}, the smallest of ${result.numShrinks + 1} failing requests; PETSTORE_GENERATED_SEED=${seed} replays the run (seed ${seed})`;
    for (const problem of smallest.problems) check.expect(false, `${problem.message} (${replay})`, { rule: problem.rule, evidence: smallest.exchange });
  }
  for (const [rule, { message, times }] of partly) check.unchecked(`${path}: ${message}${times > 1 ? ` (and ${times - 1} more like it)` : ''}`, rule);
  if (unanswered) check.unchecked(`${path}: stopped after ${sent} requests, as one got no answer to judge by (${unanswered.message})`);
  if (unjudged) {
    const cause = unjudged.error instanceof Error ? unjudged.error.message : String(unjudged.error);
    check.unchecked(`${path}: the answer to ${fc.stringify(unjudged.value)} could not be judged (${cause}); PETSTORE_GENERATED_SEED=${seed} replays the run`);
  } else if (result.failed && !smallest) {
    // A failure fast-check found that no judged value explains: said, never taken for a pass.
    check.unchecked(`${path}: the property failed without a judged request (${String(result.errorInstance ?? 'no cause given')}); PETSTORE_GENERATED_SEED=${seed} replays the run`);
  }
  return sent;
}

/** Waits for the window's end when the target says only a few requests are left in it. */
async function paceByRemaining(client: PetStoreClient, exchange: Exchange): Promise<void> {
  const headers = readRateLimit(exchange.response.headers);
  if (headers?.remaining === undefined || headers.reset === undefined || headers.remaining > RESERVE) return;
  const waitMs = Math.max(0, headers.reset * 1000 - client.clock.now());
  // A longer wait is a day's window: the polite client waits out the 429 that may come, or says why it cannot.
  if (waitMs <= MAX_PACING_WAIT_MS) await client.clock.sleep(waitMs + client.clock.toTargetMs(20));
}
