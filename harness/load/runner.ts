/**
 * Drives a load run: one arrival schedule and client behaviour per key, a shared cap on requests in flight
 * (p-limit), one pacer that wakes when the next arrival is due, and a record of every request for the
 * verdicts. Times are milliseconds since the run started (performance.now), turned into Unix time only
 * where the target's headers need comparing.
 */
import { windowKind } from '../../lib/rate-limiter/window-of-limit.ts';
import pLimit from 'p-limit';
import { operation as operationById } from '../../lib/contract.ts';
import { keyVariable } from '../../lib/keys.ts';
import { plans } from '../../lib/plans.ts';
import { readRateLimit } from '../../lib/rate-limit-headers.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import { WindowAccountant, type AccountedAnswer, type AccountedWindow } from '../../lib/rate-limiter/window-accountant.ts';
import { ArrivalSchedule } from './arrival-schedule.ts';
import { KeyDriver, type Dispatch } from './client-behaviour.ts';
import { HttpClient, RequestError } from '../../lib/http/client.ts';
import type { HttpResponse } from '../../lib/http/response-parser.ts';
import { InputError } from './input-error.ts';
import { LatencyRecorder, type LatencySummary } from './latency.ts';
import { outcomeOf, type Observation } from './observation.ts';
import { seededRandom } from '../../lib/random.ts';
import { noteRefusal } from './refusal-check.ts';
import type { Finding } from './finding.ts';
import { RequestBuilder } from './request-builder.ts';
import type { SummedKey } from './summed.ts';
import { LOAD_OPERATIONS, type LoadOperation, type Mix, type ScenarioKey } from './scenario.ts';

export interface RunKey {
  spec: ScenarioKey;
  /** The API key itself: used on the wire, never stored in a result. */
  key: string;
  /** Requests per real second; undefined for "max" (a closed loop at the concurrency cap). */
  perSecond: number | undefined;
}

export interface RunOptions {
  baseUrl: string;
  keys: RunKey[];
  durationMs: number;
  concurrency: number;
  requestTimeoutMs?: number;
  /** Keep every request for the verdicts (default). A pure throughput measurement turns it off. */
  record?: boolean;
  /** Seeds the operation mix and the backoff jitter, for repeatable runs. */
  seed?: number;
  onProgress?: (progress: Progress) => void;
  progressIntervalMs?: number;
  /** Ends the run early (Ctrl-C); what was measured so far is still returned. */
  signal?: AbortSignal;
}

export type { Finding } from './finding.ts';

/** What one key's traffic came to: the same figures in a run's result and in the summary. */
export interface KeyCounts {
  sent: number;
  admitted: number;
  refused: number;
  errors: number;
  /** Arrivals a compliant client did not send because it was waiting out a 429. */
  heldBack: number;
  statusCounts: Record<string, number>;
  latency: { admitted: LatencySummary; refused: LatencySummary };
}

export interface KeyResult extends KeyCounts {
  spec: ScenarioKey;
  perSecond: number | undefined;
  observations: Observation[];
  /** Rate-limit rule findings of the shared response check on every 429, by rule id. */
  refusalFindings: Record<string, Finding>;
  /** Answers that lacked a readable X-RateLimit-Limit/-Remaining/-Reset. */
  withoutRateLimitHeaders: number;
  /** The first few errors, for the report. */
  errorExamples: string[];
  /** A generator's per-window sums (the Locust engine): the windows, judged from them, are not in `observations`. */
  summed?: SummedKey;
}

export interface RunResult {
  startedAtEpochMs: number;
  elapsedMs: number;
  stoppedEarly: string | undefined;
  /** Answers the run knows it lost, and why (a Locust worker's last report that never came); undefined when none. */
  lostAnswers?: string;
  keys: KeyResult[];
}

export interface ProgressKey {
  label: string;
  sent: number;
  admitted: number;
  refused: number;
  errors: number;
  waiting: boolean;
  /** Windows seen so far (by X-RateLimit-Limit and -Reset) and how many admitted more than their limit. */
  windows: number;
  windowsOverLimit: number;
}

export interface Progress {
  elapsedMs: number;
  durationMs: number;
  /** Requests sent per second over the last second or so. */
  currentRate: number;
  inFlight: number;
  keys: ProgressKey[];
}

const DEFAULT_TIMEOUT_MS = 10_000;
const FATAL_401_COUNT = 3;
const MAX_ERROR_EXAMPLES = 5;

const OPERATION_IDS = { list: 'listPets', create: 'createPet', get: 'getPet' } as const;

class KeyState {
  readonly observations: Observation[] = [];
  readonly latencyAdmitted = new LatencyRecorder();
  readonly latencyRefused = new LatencyRecorder();
  readonly statusCounts: Record<string, number> = {};
  readonly refusalFindings: Record<string, Finding> = {};
  readonly errorExamples: string[] = [];
  /** The live view's windows, grouped as every other account groups them; answers come in the order they came back. */
  private readonly liveWindows = new WindowAccountant({ order: 'input', reorderMs: 0, slackMs: 0 }, { released: (answer, window) => this.judgeLive(answer, window) });
  /** Per live window: admissions that said limit - 1 were left, and whether it was counted over its limit. */
  private readonly liveTops = new WeakMap<AccountedWindow<AccountedAnswer>, number>();
  private readonly liveOver = new WeakSet<AccountedWindow<AccountedAnswer>>();
  readonly requests: RequestBuilder;
  readonly pickOperation: () => LoadOperation;
  sent = 0;
  admitted = 0;
  refused = 0;
  errors = 0;
  withoutRateLimitHeaders = 0;
  windowsOverLimit = 0;
  leading401 = 0;
  answeredOther = false;

  constructor(
    readonly run: RunKey,
    readonly driver: KeyDriver,
    baseUrl: string,
    random: () => number,
  ) {
    this.requests = new RequestBuilder(baseUrl, run.key);
    this.pickOperation = operationPicker(run.spec.mix, random);
  }

  /** Windows seen so far: in a run's own order none closes before the run ends. */
  get windowsSeen(): number {
    return this.liveWindows.openWindows;
  }

  /**
   * The live view of the quota: a window (X-RateLimit-Limit and -Reset) seen from its start that admits
   * more than its limit before any refusal. Windows too short for Reset's whole seconds, which share one
   * Reset, show the top Remaining value twice and are not counted (the report says why).
   */
  countLive(observation: Observation): void {
    const { limit, remaining, reset, outcome } = observation;
    if (limit === undefined || reset === undefined || outcome === 'error') return;
    this.liveWindows.add({ id: this.sent, outcome, limit, remaining, reset, sentAt: observation.sentAt, receivedAt: observation.doneAt });
  }

  private judgeLive(answer: AccountedAnswer, window: AccountedWindow<AccountedAnswer>): void {
    if (answer.outcome !== 'admitted') return;
    const tops = (this.liveTops.get(window) ?? 0) + (answer.remaining === answer.limit - 1 ? 1 : 0);
    this.liveTops.set(window, tops);
    const documented = plans[this.run.spec.plan].documented;
    const isQuota = documented && windowKind(answer, documented) !== 'neither';
    if (isQuota && !this.liveOver.has(window) && window.refused === 0 && tops === 1 && window.admitted > answer.limit) {
      this.liveOver.add(window);
      this.windowsOverLimit++;
    }
  }
}

export function operationPicker(mix: Mix, random: () => number): () => LoadOperation {
  const total = mix.list + mix.create + mix.get;
  const bounds = LOAD_OPERATIONS.map((operation, index) => [operation, LOAD_OPERATIONS.slice(0, index + 1).reduce((sum, name) => sum + mix[name], 0) / total] as const);
  return () => {
    const roll = random();
    return bounds.find(([, bound]) => roll < bound)?.[0] ?? 'list';
  };
}

export async function runLoad(options: RunOptions): Promise<RunResult> {
  const record = options.record ?? true;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = new HttpClient(new URL(options.baseUrl), { maxConnections: options.concurrency, timeoutMs });
  const limit = pLimit(options.concurrency);
  const seed = options.seed ?? Date.now();
  const t0 = performance.now();
  const startedAtEpochMs = Date.now();
  const clock = (): number => performance.now() - t0;
  const endAt = options.durationMs;
  let fatal: Error | undefined;
  let stopped = false;
  let stoppedEarly: string | undefined;

  const states = options.keys.map((run, index) => {
    const random = seededRandom(seed + index);
    // A "max" key has no schedule to speak of; its driver only keeps the backoff state.
    const schedule = new ArrivalSchedule(run.perSecond ?? 1, 0, run.perSecond === undefined ? 0 : endAt);
    return new KeyState(run, new KeyDriver(run.spec.behaviour, schedule, undefined, random), options.baseUrl, random);
  });

  const stop = (reason?: string): void => {
    if (stopped) return;
    stopped = true;
    stoppedEarly = reason;
    wakeUp();
  };
  options.signal?.addEventListener('abort', () => stop('stopped by the user'), { once: true });

  function observe(state: KeyState, dispatch: Dispatch, operation: LoadOperation, sentAt: number, response: HttpResponse | undefined, error: RequestError | undefined): Observation {
    const doneAt = clock();
    const status = response?.status ?? 0;
    const rateLimit = response ? readRateLimit(response.headers) : undefined;
    const doneEpoch = startedAtEpochMs + doneAt;
    const observation: Observation = {
      operation,
      intendedAt: dispatch.intendedAt,
      sentAt,
      doneAt,
      status,
      outcome: response ? outcomeOf(status) : 'error',
      limit: rateLimit?.limit,
      remaining: rateLimit?.remaining,
      reset: rateLimit?.reset,
      retryAfterMs: status === 429 ? retryAfterMs(response?.headers['retry-after'], doneEpoch) : undefined,
      retry: dispatch.retry,
      error: error ? `${error.code}: ${error.message}` : status >= 500 || status === 401 ? `HTTP ${status}` : undefined,
      ...(response?.sentAgain ? { sentAgain: true } : {}),
    };
    state.sent++;
    state.statusCounts[status === 0 ? 'no answer' : String(status)] = (state.statusCounts[status === 0 ? 'no answer' : String(status)] ?? 0) + 1;
    const latency = doneAt - dispatch.intendedAt;
    if (observation.outcome === 'admitted') {
      state.admitted++;
      state.latencyAdmitted.recordMs(latency);
      if (operation === 'create' && response) state.requests.learnFromCreated(response.body);
    } else if (observation.outcome === 'refused') {
      state.refused++;
      state.latencyRefused.recordMs(latency);
      if (response && record) checkRefusal(state, operation, response, doneEpoch);
    } else {
      state.errors++;
      if (observation.error && state.errorExamples.length < MAX_ERROR_EXAMPLES) state.errorExamples.push(observation.error);
    }
    if (response && !rateLimit) state.withoutRateLimitHeaders++;
    if (status === 401 && !state.answeredOther) {
      if (++state.leading401 >= FATAL_401_COUNT) {
        const { plan, keyNumber } = state.run.spec;
        fatal = new InputError(`the target answered 401 to ${plans[plan].name} key #${keyNumber}: check ${keyVariable(plan)} (is the key valid on this target?)`);
        stop('a key was not accepted');
      }
    } else if (response) state.answeredOther = true;
    state.countLive(observation);
    if (record) state.observations.push(observation);
    return observation;
  }

  function checkRefusal(state: KeyState, operation: LoadOperation, response: HttpResponse, doneEpoch: number): void {
    noteRefusal(state.refusalFindings, { operation: operationById(OPERATION_IDS[operation]), status: 429, headers: response.headers, body: response.body.toString('utf8'), plan: state.run.spec.plan, now: doneEpoch });
  }

  function launch(state: KeyState, dispatch: Dispatch): Promise<void> {
    return limit(async () => {
      const operation = state.pickOperation();
      const sentAt = clock();
      let response: HttpResponse | undefined;
      let failure: RequestError | undefined;
      try {
        response = await client.send(state.requests.bytes(operation));
      } catch (error) {
        failure = error instanceof RequestError ? error : new RequestError(String(error), 'EUNKNOWN');
      }
      state.driver.settled(observe(state, dispatch, operation, sentAt, response, failure));
      if (state.driver.waiting) wakeUp();
    });
  }

  // The pacer: one timer for all keys, set for the earliest next arrival (at least 1 ms away, so it never spins).
  let timer: NodeJS.Timeout | undefined;
  let finishPacing: () => void = () => {};
  const pacingDone = new Promise<void>((resolve) => (finishPacing = resolve));
  function wakeUp(): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(pace, 0);
  }
  function pace(): void {
    timer = undefined;
    if (stopped) return finishPacing();
    const now = clock();
    let next = Infinity;
    // Every arrival meant for before the end goes out, even when the pacer itself ran late (a busy machine).
    for (const state of states) {
      if (state.run.perSecond === undefined) continue;
      for (const dispatch of state.driver.due(now, startedAtEpochMs)) void launch(state, dispatch);
      next = Math.min(next, state.driver.nextDueAt() ?? Infinity);
    }
    if (now >= endAt) return finishPacing();
    const wait = Math.min(next, endAt) - clock();
    timer = setTimeout(pace, Math.max(0, wait));
  }

  // Keys at "max" rate: a closed loop per connection slot, each sending as soon as its last answer came.
  const maxKeys = states.filter((state) => state.run.perSecond === undefined);
  const loops = maxKeys.flatMap((state, index) => {
    const slots = Math.max(1, Math.floor(options.concurrency / maxKeys.length) + (index < options.concurrency % maxKeys.length ? 1 : 0));
    return Array.from({ length: slots }, async () => {
      while (!stopped && clock() < endAt) {
        const turn = state.driver.loopTurn(clock());
        if ('send' in turn) await launch(state, turn.send);
        else if ('untilAnswered' in turn) await turn.untilAnswered;
        else await new Promise((resolve) => setTimeout(resolve, Math.min(turn.waitMs, endAt - clock())));
      }
    });
  });

  let lastSent = 0;
  let lastAt = 0;
  const progress = options.onProgress
    ? setInterval(() => {
        const now = clock();
        const sent = states.reduce((sum, state) => sum + state.sent, 0);
        const currentRate = now > lastAt ? ((sent - lastSent) * 1000) / (now - lastAt) : 0;
        lastSent = sent;
        lastAt = now;
        options.onProgress?.({
          elapsedMs: Math.min(now, endAt),
          durationMs: endAt,
          currentRate,
          inFlight: limit.activeCount + limit.pendingCount,
          keys: states.map((state) => ({
            label: state.run.spec.label,
            sent: state.sent,
            admitted: state.admitted,
            refused: state.refused,
            errors: state.errors,
            waiting: state.driver.waiting,
            windows: state.windowsSeen,
            windowsOverLimit: state.windowsOverLimit,
          })),
        });
      }, options.progressIntervalMs ?? 1_000)
    : undefined;

  pace();
  await Promise.all([pacingDone, ...loops]);
  // Requests already sent are allowed to finish (each is bounded by the request timeout).
  while (limit.activeCount + limit.pendingCount > 0) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (progress) clearInterval(progress);
  if (timer) clearTimeout(timer);
  client.close();
  if (fatal) throw fatal;

  return {
    startedAtEpochMs,
    elapsedMs: clock(),
    stoppedEarly,
    keys: states.map((state) => ({
      spec: state.run.spec,
      perSecond: state.run.perSecond,
      observations: state.observations,
      sent: state.sent,
      admitted: state.admitted,
      refused: state.refused,
      errors: state.errors,
      heldBack: state.driver.heldBack,
      statusCounts: state.statusCounts,
      latency: { admitted: state.latencyAdmitted.summary(), refused: state.latencyRefused.summary() },
      refusalFindings: state.refusalFindings,
      withoutRateLimitHeaders: state.withoutRateLimitHeaders,
      errorExamples: state.errorExamples,
    })),
  };
}
