/**
 * What the refusing server answers a client, request by request, per key: ordinary traffic, then each case the
 * client rules are about, in a fixed order with a seeded number of admitted requests between them. A request
 * that comes while its key is still refused is refused again with what is left of the wait; the third such
 * request in a run bans the key for a while (the spec: "repeated requests after a 429 can lead to a temporary
 * ban of the API key"). Deterministic: the same seed and the same requests at the same times give the same
 * answers.
 */
import { seededRandom } from '../../lib/random.ts';

export type Scenario = 'delta-seconds' | 'http-date' | 'zero' | 'consecutive' | 'long' | 'ban' | 'still-refused';

export const SCENARIO_TEXT: Readonly<Record<Scenario, string>> = {
  'delta-seconds': 'a 429 with Retry-After in delta-seconds',
  'http-date': 'a 429 with Retry-After as an HTTP-date',
  zero: 'a 429 with Retry-After: 0',
  consecutive: 'consecutive refusals (the waits must grow)',
  long: 'a long Retry-After, to give up on or wait out',
  ban: 'a temporary ban after requests sent while refused',
  'still-refused': 'a request sent while its key was still refused',
};

/** The scenarios the plan puts every client through, in order (a ban only comes to a client that hammers). */
export const PLANNED: readonly Scenario[] = ['delta-seconds', 'http-date', 'zero', 'consecutive', 'long'];

type Step = { admit: true } | { admit: false; scenario: Scenario; seconds: number; asDate: boolean };

/** Refusals in a row of the consecutive case: as many retries as the judge needs to see whether waits grow. */
export const CONSECUTIVE = 8;
/**
 * How many times the consecutive case comes. A jittered backoff's run of eight looks flat by chance now and then,
 * and the judge warns only when a key's runs together do not grow, a stall's waits set aside
 * (harness/judge/backoff-growth.ts): three runs keep a correct client's false warnings below 1 in 10,000, a stall
 * or none (test/clients/backoff-false-warnings.spec.ts), while a client that does not back off is flat in every run.
 */
export const CONSECUTIVE_STRETCHES = 3;
/** Long enough that a retry sent at once is told from one sent on time whatever the client's timers do. */
export const CONSECUTIVE_SECONDS = 5;
export const LONG_SECONDS = 30;
/** Requests sent while refused, in one refused stretch, that get a key banned, and for how long. */
export const BAN_AFTER = 3;
export const BAN_SECONDS = 20;

export function planSteps(seed: number): Step[] {
  const random = seededRandom(seed);
  const ordinary = (): Step[] => Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({ admit: true }));
  const refuse = (scenario: Scenario, seconds: number, asDate = false): Step => ({ admit: false, scenario, seconds, asDate });
  return [
    ...ordinary(),
    refuse('delta-seconds', 2 + Math.floor(random() * 2)),
    ...ordinary(),
    refuse('http-date', 3, true),
    ...ordinary(),
    refuse('zero', 0),
    ...ordinary(),
    ...Array.from({ length: CONSECUTIVE_STRETCHES }, () => [...Array.from({ length: CONSECUTIVE }, () => refuse('consecutive', CONSECUTIVE_SECONDS)), ...ordinary()]).flat(),
    refuse('long', LONG_SECONDS),
    ...ordinary(),
  ];
}

export interface PlannedAnswer {
  admitted: boolean;
  scenario: Scenario | undefined;
  /** Whole seconds to wait, and the Retry-After header when it is not those seconds (an HTTP-date). */
  retryAfterSeconds: number;
  retryAfterHeader: string | undefined;
  banned: boolean;
  /** Ms since the epoch (the server's clock) when the key may send again. */
  until: number;
}

/** One key's way through the plan. */
export class KeyPlan {
  private step = 0;
  private refusedUntil = 0;
  private sentWhileRefused = 0;
  private banned = false;

  constructor(private readonly steps: readonly Step[]) {}

  answer(now: number): PlannedAnswer {
    if (now < this.refusedUntil) {
      this.sentWhileRefused++;
      if (!this.banned && this.sentWhileRefused >= BAN_AFTER) {
        this.banned = true;
        this.refusedUntil = now + BAN_SECONDS * 1000;
        return refused('ban', BAN_SECONDS, undefined, true, this.refusedUntil);
      }
      return refused(this.banned ? 'ban' : 'still-refused', Math.ceil((this.refusedUntil - now) / 1000), undefined, this.banned, this.refusedUntil);
    }
    this.sentWhileRefused = 0;
    this.banned = false;
    const step = this.steps[this.step++] ?? { admit: true };
    if (step.admit) return { admitted: true, scenario: undefined, retryAfterSeconds: 0, retryAfterHeader: undefined, banned: false, until: now };
    if (step.asDate) {
      // An HTTP-date names a whole second: the wait runs to the whole second at least `seconds` away.
      this.refusedUntil = Math.ceil((now + step.seconds * 1000) / 1000) * 1000;
      return refused(step.scenario, Math.ceil((this.refusedUntil - now) / 1000), new Date(this.refusedUntil).toUTCString(), false, this.refusedUntil);
    }
    this.refusedUntil = now + step.seconds * 1000;
    return refused(step.scenario, step.seconds, undefined, false, this.refusedUntil);
  }
}

function refused(scenario: Scenario, seconds: number, header: string | undefined, banned: boolean, until: number): PlannedAnswer {
  return { admitted: false, scenario, retryAfterSeconds: seconds, retryAfterHeader: header, banned, until };
}
