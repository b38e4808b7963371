/**
 * The kinds of rate limiter a target may run (the spec leaves windows open, RL-GAP-2), each with what its
 * headers mean. The model recognises them from outside (recognise.ts) and judges every header by the meaning of
 * the kind it saw, so a legitimate limiter of any kind passes and a header that contradicts itself fails.
 */
export const LIMITER_KINDS = ['fixed-clock', 'fixed-first-use', 'sliding-log', 'sliding-counter', 'bucket', 'unknown'] as const;
export type LimiterKind = (typeof LIMITER_KINDS)[number];

/** What X-RateLimit-Remaining and -Reset say under each kind, for reports and messages. */
export const KIND_MEANING: Readonly<Record<LimiterKind, string>> = {
  'fixed-clock': 'fixed windows on clock minutes: Remaining counts down, Reset stays at the window end, everything comes back at Reset',
  'fixed-first-use': 'fixed windows opened by the first request: Remaining counts down, Reset stays at the window end, everything comes back at Reset',
  'sliding-log': 'a sliding log: Reset is when the oldest counted request leaves the window, and only what left comes back',
  'sliding-counter': 'a sliding counter: the last window counts less as it ages, so Remaining may rise before Reset, no faster than the quota refills',
  bucket: 'a token bucket or GCRA (the same from outside): Remaining is the whole tokens left, Reset when the bucket is full again; tokens come back evenly',
  unknown: 'not enough readings to tell',
};

/** A kind, with the readings that showed it. */
export interface RecognisedLimiter {
  kind: LimiterKind;
  /** Minute and day limiters stacked, each naming itself in X-RateLimit-Limit when it binds. */
  stacked: boolean;
  evidence: string[];
  /** No two admitted answers it is told by were decided one after the other (always in flight together): none could show it. */
  unordered?: true;
}
