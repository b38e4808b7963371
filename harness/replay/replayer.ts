/**
 * The replay loop: reads the capture a second time, entry by entry (never all of it at once), and sends
 * each Pet Store exchange at its recorded pace scaled by `speed` (0: as fast as the target answers), with
 * up to `concurrency` in flight while keeping causality (ordering.ts).
 *
 * Creations and the lists between them run one group after the other (about one group per ten exchanges),
 * so the round trip of that chain sets the pace: an exchange later ones may wait for is written at once
 * rather than with the turn's other writes, and what waits for it goes as soon as its answer is in, before
 * that answer is checked (run-exchange.ts).
 */
import { basename } from 'node:path';
import { sleep } from '../../lib/backoff.ts';
import { matchOperation, type Operation } from '../../lib/contract.ts';
import { readCapture } from '../../lib/capture/read.ts';
import { startedMs, toRecordedExchange, type RecordedExchange } from './exchange.ts';
import { createdIdIn, namedIds } from './id-map.ts';
import { CausalOrder, type CausalNeeds } from './ordering.ts';
import type { ReplayResults } from './results.ts';
import { replayExchange, type ReplayContext } from './run-exchange.ts';

export interface ReplayLoopOptions {
  speed: number;
  concurrency: number;
  /** Called after every exchange; cheap, so it may decide itself whether to draw. */
  onProgress?(): void;
  /** Stops sending (Ctrl-C): exchanges in flight finish, and the outcome says why it stopped. */
  signal?: AbortSignal;
}

/** This many transport failures in a row mean the target is gone, not that one exchange failed. */
const MAX_CONSECUTIVE_ERRORS = 20;

export interface ReplayOutcome {
  /** Why the replay stopped before the end of the capture, if it did. */
  aborted: string | undefined;
}

export async function replayCapture(path: string, context: ReplayContext, results: ReplayResults, options: ReplayLoopOptions): Promise<ReplayOutcome> {
  const file = basename(path);
  const order = new CausalOrder();
  const slots = new Slots(options.concurrency);
  const inFlight = new Set<Promise<void>>();
  const startedAt = performance.now();
  let firstRecordedMs: number | undefined;
  let sequence = 0;
  let consecutiveErrors = 0;
  let aborted: string | undefined;

  const interrupted = (): boolean => {
    if (options.signal?.aborted) aborted ??= `interrupted (${String(options.signal.reason)}) after ${sequence} exchange(s)`;
    return aborted !== undefined;
  };
  for await (const raw of readCapture(path)) {
    if (interrupted()) break;
    const recorded = toRecordedExchange(raw, file);
    if (recorded.response.status === 0) continue;
    const pathBelow = context.base.below(recorded.url);
    if (pathBelow === undefined) continue;

    const recordedStart = options.speed > 0 ? startedMs(recorded) : undefined;
    if (recordedStart !== undefined) {
      firstRecordedMs ??= recordedStart;
      const due = startedAt + (recordedStart - firstRecordedMs) / options.speed;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait, options.signal).catch(() => undefined);
    }
    await slots.take();
    if (interrupted()) {
      slots.give();
      break;
    }
    // Its own copy: the loop has moved on when an exchange that waited for another runs.
    const number = ++sequence;
    const operation = matchOperation(recorded.method, pathBelow)?.operation;
    const needs = causalNeeds(recorded, pathBelow, operation);
    const ordered = order.enter(needs);
    const task = ordered.ready
      .then(() => replayExchange(recorded, number, pathBelow, operation, context, ordered))
      .then((result) => {
        results.add(result);
        consecutiveErrors = result.error ? consecutiveErrors + 1 : 0;
        if (consecutiveErrors >= MAX_CONSECUTIVE_ERRORS && !aborted) {
          aborted = `the target stopped answering (${result.error}) at exchange ${result.sequence} (entry ${result.entry}); ${MAX_CONSECUTIVE_ERRORS} failed in a row`;
        }
        options.onProgress?.();
      })
      .finally(() => {
        ordered.finish();
        slots.give();
        inFlight.delete(task);
      });
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  return { aborted };
}

/**
 * A request the recording shows refused (4xx) changed nothing when recorded, so it is ordered like a read:
 * after the writes recorded before it, before the writes recorded after it. A target that wrongly writes
 * on it is found at that exchange, which answers other than recorded.
 */
export function causalNeeds(recorded: RecordedExchange, pathBelow: string, operation: Operation | undefined): CausalNeeds {
  const refusedWhenRecorded = recorded.response.status >= 400 && recorded.response.status < 500;
  const writes = !['GET', 'HEAD', 'OPTIONS'].includes(recorded.method) && !refusedWhenRecorded;
  const creates = recorded.method === 'POST' && recorded.response.status >= 200 && recorded.response.status < 300 ? createdIdIn(recorded.response.json) : undefined;
  // A single pet is ordered by its id alone; whole collections (lists, creations) by reads and writes.
  const collection = operation?.id === 'getPet' ? undefined : operation ? operation.pathTemplate : pathBelow;
  const credential = recorded.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return { creates, names: namedIds(pathBelow, recorded.json), collection, writes, credential, refused: recorded.response.status === 429 };
}

/** At most `size` exchanges in flight; the rest wait their turn in order. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
