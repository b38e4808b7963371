/**
 * The scheduling priority of the calling thread, where the system gives a thread one of its own (Linux: each thread
 * has its niceness, set through its thread id). Elsewhere, or where the system refuses, nothing changes: a thread's
 * priority is a preference for a busy machine, never what a result depends on.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The most a thread can yield: niceness runs from -20 to 19. */
const NICEST = 19;

/**
 * Makes the calling thread, not its process, `steps` nicer than it was (it yields that much more to the process's other
 * threads), never raising its priority: a command run under `nice` keeps the order between its threads.
 */
export function lowerThisThreadsPriority(steps: number): void {
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>" on Linux 3.17 and later; setpriority() given a thread id sets that thread's.
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId)) setPriority(threadId, Math.min(NICEST, getPriority(threadId) + steps));
  } catch {
    // Not Linux, or the system refuses: the thread keeps its priority.
  }
}
