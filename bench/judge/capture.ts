/**
 * A generated capture for the judge's benchmark, in the NDJSON exchange format a gateway writes: `keys` Pro
 * keys, each behind a correct fixed-window limiter (300 a minute), sending faster than that, so every window
 * runs out and refuses; lists filtered by status, fetches and creations with their bodies, a thousand
 * exchanges a second of the capture's clock while some key may send. Its clients are correct too: a key
 * refused sends nothing more until its Retry-After has passed (ERR-3, ERR-4), the other keys go on; when every
 * key is resting, the clock moves on to the first that may send again. The same arguments give the same file.
 */
import { createWriteStream, existsSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { seededRandom } from '../../lib/random.ts';
import { countLines } from '../replay/capture.ts';

const PER_MINUTE = 300;
const PER_SECOND = 1_000;
export const START_MS = Date.UTC(2026, 10, 1, 0, 0, 0);
const STATUSES = ['available', 'pending', 'sold'] as const;

interface KeyState {
  windowEnd: number;
  admitted: number;
  /** When the key's client may send again: after its last 429's Retry-After, plus the time a request takes. */
  restsUntil: number;
}

/** Beyond Retry-After, what a client's timer and its request's way to the gateway take. */
const RESUME_SLACK_MS = 20;

export async function ensureJudgeCapture(path: string, exchanges: number, keys: number, log: (line: string) => void): Promise<void> {
  if (existsSync(path) && (await countLines(path)) === exchanges) {
    log(`using ${path} (${exchanges.toLocaleString('en-US')} exchanges)`);
    return;
  }
  log(`generating ${exchanges.toLocaleString('en-US')} exchanges to ${path} ...`);
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  const clients = new CorrectClients(keys);
  let chunk: string[] = [];
  let at = START_MS;
  for (let n = 0; n < exchanges; n++, at += 1000 / PER_SECOND) {
    let line = clients.exchangeAt(at, n);
    if (line === undefined) {
      at = clients.nextAwake;
      line = clients.exchangeAt(at, n) as object;
    }
    chunk.push(JSON.stringify(line));
    if (chunk.length === 10_000) {
      if (!out.write(`${chunk.join('\n')}\n`)) await once(out, 'drain');
      chunk = [];
    }
  }
  out.end(chunk.length > 0 ? `${chunk.join('\n')}\n` : '');
  await once(out, 'finish');
  renameSync(partial, path);
}

/**
 * The capture's keys and their clients, one exchange at a time at the time asked: a correct limiter's answers,
 * and clients that rest out each Retry-After. What the live benchmark writes as a log grows (bench/watch/).
 */
export class CorrectClients {
  private readonly random = seededRandom(7);
  private readonly states: KeyState[];
  private nextId = 1;

  constructor(private readonly keys: number) {
    this.states = Array.from({ length: keys }, () => ({ windowEnd: 0, admitted: 0, restsUntil: 0 }));
  }

  /** When the first resting key may send again. */
  get nextAwake(): number {
    return Math.min(...this.states.map((key) => key.restsUntil));
  }

  /** The `n`th exchange (0-based), answered at `at` ms, as a line of the exchange format; undefined when every key rests. */
  exchangeAt(at: number, n: number): object | undefined {
    const keyIndex = firstAwake(this.states, Math.floor(this.random() * this.keys), at);
    if (keyIndex === undefined) return undefined;
    const state = this.states[keyIndex] as KeyState;
    if (at >= state.windowEnd) {
      state.windowEnd = at + 60_000;
      state.admitted = 0;
    }
    const admitted = state.admitted < PER_MINUTE;
    if (admitted) state.admitted++;
    const reset = Math.ceil(state.windowEnd / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-ratelimit-limit': String(PER_MINUTE),
      'x-ratelimit-remaining': String(PER_MINUTE - state.admitted),
      'x-ratelimit-reset': String(reset),
    };
    const base = { time: (at / 1000).toFixed(3), duration: '0.003', key: `pro-${keyIndex + 1}`, plan: 'pro' };
    const authorization = { authorization: 'Bearer <gateway-redacted>' };
    if (!admitted) {
      const retryAfterS = Math.max(1, reset - Math.floor(at / 1000));
      headers['retry-after'] = String(retryAfterS);
      state.restsUntil = at + retryAfterS * 1000 + RESUME_SLACK_MS;
      return { ...base, method: 'GET', url: '/v1/pets?limit=3', status: 429, requestHeaders: authorization, responseHeaders: headers, responseBody: '{"code":"rate_limited","message":"Too many requests","status":429}' };
    }
    const pick = this.random();
    const statusIndex = Math.floor(this.random() * 3);
    if (pick < 0.6) {
      // A full page (3 of limit 3) of the status's pets: another page may hold the ones it leaves out (LIST-7).
      const pets = [0, 1, 2].map((i) => petWithId(3 * ((this.nextId + i * 7) % 1_666) + 1 + statusIndex));
      return { ...base, method: 'GET', url: `/v1/pets?status=${STATUSES[statusIndex]}&limit=3`, status: 200, requestHeaders: authorization, responseHeaders: headers, responseBody: JSON.stringify(pets) };
    }
    if (pick < 0.9) {
      const id = 1 + (n % 5_000);
      return { ...base, method: 'GET', url: `/v1/pets/${id}`, status: 200, requestHeaders: authorization, responseHeaders: { ...headers, sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', deprecation: '@1767225600' }, responseBody: JSON.stringify(petWithId(id)) };
    }
    const { id, ...pet } = petWithId(this.nextId++);
    return { ...base, method: 'POST', url: '/v1/pets', status: 201, requestHeaders: { ...authorization, 'content-type': 'application/json' }, requestBody: JSON.stringify(pet), responseHeaders: headers, responseBody: JSON.stringify({ id, ...pet }) };
  }
}

/**
 * The pet a correct store holds under `id`: the same whether created, fetched or listed (GET-1), so a pet is told
 * from its id alone and nothing is kept per pet. Its status is the id's, in turn.
 */
function petWithId(id: number): { id: number; name: string; categoryId: number; status: string } {
  return { id, name: `pet ${id}`, categoryId: 1 + (id % 3), status: STATUSES[(id - 1) % 3] as string };
}

/** The first key from `start` on (round the ring) whose client may send at `at`. */
function firstAwake(states: readonly KeyState[], start: number, at: number): number | undefined {
  for (let step = 0; step < states.length; step++) {
    const index = (start + step) % states.length;
    if ((states[index] as KeyState).restsUntil <= at) return index;
  }
  return undefined;
}
