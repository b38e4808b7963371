/**
 * How long a polite client waits before retrying after a 429: never less than the server's Retry-After,
 * and growing exponentially with "full jitter" so that many clients refused together do not return together.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, capMs: 30_000, maxAttempts: 8 };

/**
 * The wait before retry number `attempt` (1 for the first retry).
 * `random` is injectable so that tests can pin the jitter.
 */
export function backoffDelayMs(
  attempt: number,
  retryAfter: number | undefined,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jitter = random() * ceiling;
  return Math.ceil((retryAfter ?? 0) + jitter);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => (clearTimeout(timer), reject(signal?.reason));
    // The listener goes when the sleep ends, so a signal shared by many sleeps does not collect them.
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
