/**
 * Being a good client while replaying: after a 429, nothing more is sent with that key until the wait
 * asked for (Retry-After, with backoff and jitter on repeated refusals) is over. Other keys go on.
 */
import { sleep } from '../../lib/backoff.ts';

export class ThrottleGates {
  private readonly openAt = new Map<string, number>();

  /** Whether requests with this credential may be sent now: then there is nothing to wait for. */
  isOpen(credential: string): boolean {
    const at = this.openAt.get(credential);
    return at === undefined || at <= Date.now();
  }

  /** Resolves when requests with this credential may be sent again; the milliseconds it waited. */
  async pass(credential: string): Promise<number> {
    let waited = 0;
    for (;;) {
      const at = this.openAt.get(credential);
      const now = Date.now();
      if (at === undefined || at <= now) return waited;
      await sleep(at - now);
      waited += at - now;
    }
  }

  /** Holds requests with this credential until the given time (never shortens an earlier hold). */
  hold(credential: string, untilMs: number): void {
    const at = this.openAt.get(credential);
    if (at === undefined || at < untilMs) this.openAt.set(credential, untilMs);
  }
}
