/**
 * The real captures the invariance properties start from, made by running the real parts: Debian's nginx with the
 * how-to's configuration in front of the reference server (15-second windows), driven past a Free key's quota by
 * three clients at once (answers overlapping in time) across two windows, then one at a time, with a Pro key's other operations
 * (the deprecated getPet among them) and an unknown key; and the recording proxy's HAR of a load run on the same
 * server. `npx tsx test/judge/invariance/record-captures.ts` writes them to test/judge/invariance/captures/; the
 * field tier records fresh ones each run (invariance-field.spec.ts).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { startVariant } from '../../suite/support/variant-target.ts';
import { h2Request, startNginx, type Answer, type Gateway } from '../nginx.ts';
import { recordLoad } from '../support.ts';
import { runLoad, type KeyResult } from '../../../harness/load/runner.ts';
import { createReferenceServer } from '../../../reference-server/server.ts';
import { runKeys, scenarioOf, type KeyPlan } from '../../load/support/run.ts';
import { CLOCK_SKEW_MS } from './transformations.ts';

/** 15-second windows: a minute four times faster, as the gateways ran. */
export const CAPTURE_TIME_SCALE = 4;
const FREE = DEMO_KEYS.free[0] as string;
const PRO = DEMO_KEYS.pro[0] as string;
const NAMED = { [FREE]: 'free-1', [PRO]: 'pro-1' };

export const CAPTURES_DIR = new URL('./captures/', import.meta.url).pathname;
export const NGINX_CAPTURE = join(CAPTURES_DIR, 'nginx-two-windows.log');
export const LOAD_CAPTURE = join(CAPTURES_DIR, 'load-run.har.ndjson');
export const LOAD_RESULT = join(CAPTURES_DIR, 'load-run-free.json');

/** A key's answers as the built-in load engine recorded them, with when the run started. */
export interface RecordedKey {
  startedAtEpochMs: number;
  key: KeyResult;
}

/**
 * How long after a window's Reset the next window's first request leaves: past the latest that window may end (Reset
 * is its end rounded up), by more than a node's Reset rounded a second later and a clock off by the skew, so that the
 * capture shows the whole quota back at a new Reset whatever the field's transformations do to it (faults.ts).
 */
const PAST_RESET_MS = 2 * CLOCK_SKEW_MS + 500;

/** `count` requests on `authorization`, `clients` at a time: their answers. */
async function burst(gateway: Gateway, count: number, clients: number, path = '/pets?limit=5', authorization = `Bearer ${FREE}`): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) {
        next++;
        answers.push(await h2Request(gateway.baseUrl, gateway.ca, { path, authorization }));
      }
    }),
  );
  return answers;
}

/** The gateway's log of a correct server, as the field writes it: returns its path (in a temporary folder). */
export async function recordGatewayLog(): Promise<string> {
  const server = await startVariant({ timeScale: CAPTURE_TIME_SCALE });
  const gateway = await startNginx(server.baseUrl, NAMED);
  try {
    const first = await burst(gateway, 66, 3);
    const refusals = first.filter((answer) => answer.status === 429);
    if (refusals.length === 0) throw new Error('the first window refused nothing: the capture would show no quota');
    const send = (request: Parameters<typeof h2Request>[2]) => h2Request(gateway.baseUrl, gateway.ca, request);
    const created = await send({ method: 'POST', path: '/pets', authorization: `Bearer ${PRO}`, body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' }) });
    const id = (JSON.parse(created.body) as { id?: number }).id ?? 1;
    await send({ path: `/pets/${id}`, authorization: `Bearer ${PRO}` });
    await send({ path: '/store/orders', authorization: `Bearer ${PRO}` });
    await send({ path: '/pets', authorization: 'Bearer a-key-no-one-issued' });
    // Into the next window, once the refusals' Reset has come: sent before it, the burst would be refused (and the
    // key banned for hammering through its 429s), or show the window's end only within the clock skew.
    const reset = Math.max(...refusals.map((answer) => Number(answer.headers['x-ratelimit-reset'])));
    await new Promise((resolve) => setTimeout(resolve, reset * 1000 + PAST_RESET_MS - Date.now()));
    await burst(gateway, 30, 2);
    // One at a time, more than the clock skew apart: answers decided one after the other whatever the clocks.
    for (let i = 0; i < 6; i++) {
      await burst(gateway, 1, 1);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
    }
    await burst(gateway, 5, 1, '/pets?limit=2', `Bearer ${PRO}`);
  } finally {
    await gateway.stop();
    await server.close();
  }
  return gateway.accessLog;
}

/** The recording proxy's capture of a load run (a Free key offered twice its quota, a Pro key within it). */
export async function recordLoadRun(): Promise<string> {
  return recordLoad({
    timeScale: CAPTURE_TIME_SCALE,
    durationMs: 20_000,
    keys: [
      { plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: { kind: 'ofLimit', multiple: 2 } },
      { plan: 'pro', keyNumber: 1, behaviour: 'compliant', rate: { kind: 'ofLimit', multiple: 0.5 } },
    ],
  });
}

/** The built-in load engine's own record of a run: a compliant Free key offered twice its quota, over two windows. */
export async function recordLoadResult(): Promise<RecordedKey> {
  const server = await createReferenceServer({ timeScale: CAPTURE_TIME_SCALE });
  try {
    const keys: KeyPlan[] = [{ plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: { kind: 'ofLimit', multiple: 2 } }];
    const scenario = scenarioOf(keys, 35_000, CAPTURE_TIME_SCALE, 8);
    const run = await runLoad({ baseUrl: server.baseUrl, durationMs: 35_000, concurrency: 8, seed: 1, keys: runKeys(scenario, CAPTURE_TIME_SCALE, DEMO_KEYS) });
    return { startedAtEpochMs: run.startedAtEpochMs, key: run.keys[0]! };
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  mkdirSync(CAPTURES_DIR, { recursive: true });
  const [log, load, result] = await Promise.all([recordGatewayLog(), recordLoadRun(), recordLoadResult()]);
  copyFileSync(log, NGINX_CAPTURE);
  copyFileSync(load, LOAD_CAPTURE);
  writeFileSync(LOAD_RESULT, `${JSON.stringify(result)}\n`);
  for (const file of [NGINX_CAPTURE, LOAD_CAPTURE]) process.stdout.write(`${file}: ${readFileSync(file, 'utf8').split('\n').filter(Boolean).length} exchanges\n`);
}
