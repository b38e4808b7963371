/**
 * The registered checks that one function judges, bound to it by name (lib/checks/registry.ts): what a part, or a
 * property that transforms traffic and asks whether a verdict changed, runs when it holds a check's input. A pair
 * decided in order is judged by the steps of lib/rate-limiter/steps.ts; one answer by the contract's response checks
 * (lib/response-checks.ts), a check's findings being those that cite its rule.
 */
import type { Reading } from '../rate-limiter/reading.ts';
import { remainingStepProblem, resetStepProblem } from '../rate-limiter/steps.ts';
import { checkResponse, type ResponseToCheck } from '../response-checks.ts';
import { ruleOf, type CheckName, type Judgement } from './registry.ts';

/** Two admitted answers of one Limit the target decided one after the other, and the window that Limit is counted over. */
export interface PairInOrder {
  previous: Reading;
  next: Reading;
  windowMs: number;
  /** The limiter gives its quota back over time (a bucket, a sliding counter): Remaining may rise as it does. */
  refills: boolean;
}

export type PairCheck = Extract<CheckName, 'reset-stable' | 'remaining-steps'>;

export const PAIR_JUDGEMENTS: Readonly<Record<PairCheck, Judgement<PairInOrder>>> = {
  'reset-stable': ({ previous, next, windowMs }) => listed(resetStepProblem(previous, next, windowMs)),
  'remaining-steps': ({ previous, next, windowMs, refills }) => listed(remainingStepProblem(previous, next, windowMs, refills)),
};

/** The one-answer checks every response gets (checkResponse): each judges the findings that cite its rule. */
export const ANSWER_CHECKS = [
  'documented-status',
  'json-body',
  'body-shape',
  'error-body',
  'error-status',
  'rate-limit-headers-present',
  'limit-value',
  'remaining-value',
  'reset-value',
  'retry-after-present',
  'retry-after-format',
] as const satisfies readonly CheckName[];

export type AnswerCheck = (typeof ANSWER_CHECKS)[number];

export function answerJudgement(check: AnswerCheck): Judgement<ResponseToCheck> {
  const rule = ruleOf(check);
  return (response) => checkResponse(response).flatMap((violation) => (violation.rule === rule ? [violation.message] : []));
}

function listed(problem: string | undefined): readonly string[] {
  return problem === undefined ? [] : [problem];
}
