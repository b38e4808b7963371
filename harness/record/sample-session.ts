/**
 * The scripted session behind fixtures/traffic/sample.har: a client using every operation the way a real
 * one does (creations, filtered lists, fetches), making the documented mistakes (400, 404, 401), and
 * running a Free key into its quota (429). Recorded through the recording proxy against the reference
 * server, it is the sample newcomers replay, and the record -> replay round trip the tests check.
 */
import { DEMO_KEYS } from '../../lib/keys.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { CaptureWriter } from '../../lib/capture/write.ts';
import { knownKeys } from './credentials.ts';
import { RECORDER } from './recorder-info.ts';
import { startRecordingProxy } from './proxy.ts';

export interface SessionKeys {
  pro: string;
  free: string;
}

const DEFAULT_KEYS: SessionKeys = { pro: DEMO_KEYS.pro[0] ?? '', free: DEMO_KEYS.free[0] ?? '' };

/** The Free plan's quota per minute is 60: the 61st request in a window is refused. */
const FREE_BURST_LIMIT = 100;

/** Runs the session against a base URL (the recording proxy's, when recording). Returns how many requests it sent. */
export async function runSampleSession(baseUrl: string, keys: SessionKeys = DEFAULT_KEYS): Promise<number> {
  let sent = 0;
  const call = async (method: string, path: string, options: { key?: string | null; body?: string } = {}): Promise<{ status: number; text: string }> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const key = options.key === undefined ? keys.pro : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    sent++;
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: options.body, redirect: 'manual' });
    return { status: response.status, text: await response.text() };
  };
  // The id as text, straight from the JSON: an id above 2^53 must not pass through a double.
  const create = async (body: string): Promise<string> => {
    const { status, text } = await call('POST', '/pets', { body });
    const id = /"id"\s*:\s*(\d+)/.exec(text)?.[1];
    if (status !== 201 || id === undefined) throw new Error(`sample session: creating a pet answered ${status}: ${text}`);
    return id;
  };

  const rex = await create('{"name":"Rex junior","categoryId":1,"status":"available"}');
  const whiskers = await create('{"name":"Whiskers","categoryId":2,"status":"pending"}');
  const goldie = await create('{"name":"Goldie","categoryId":3}');
  // A category id above 2^53 must come back exact.
  const big = await create('{"name":"Atlas","categoryId":9007199254740993,"status":"sold"}');

  await call('GET', '/pets');
  await call('GET', '/pets?status=available');
  await call('GET', '/pets?status=pending&limit=1');
  await call('GET', '/pets?status=sold');
  await call('GET', '/pets?limit=2');
  for (const id of [rex, whiskers, goldie, big]) await call('GET', `/pets/${id}`);
  await call('GET', '/store/orders');

  // Documented mistakes.
  await call('GET', '/pets/999999');
  await call('GET', '/pets/9223372036854775807');
  await call('POST', '/pets', { body: '{"categoryId":1}' });
  await call('POST', '/pets', { body: '{"name":"Nemo","categoryId":"fish"}' });
  await call('POST', '/pets', { body: '{"name":"Nemo","categoryId":4,"status":"adopted"}' });
  await call('GET', '/pets', { key: null });
  await call('GET', '/pets/1', { key: 'not-a-key-of-this-server' });

  // A Free key used past its quota: the recording ends its use of that key at the first 429, as a
  // client that honours Retry-After would stop until the window ends.
  for (let i = 0; i < FREE_BURST_LIMIT; i++) {
    const response = await call('GET', '/pets?limit=1', { key: keys.free });
    if (response.status === 429) break;
  }
  await call('GET', `/pets/${rex}`);
  return sent;
}

/**
 * Records the session into `out`: a reference server of its own (time scaled, so windows are short), the
 * recording proxy in front of it, the session through the proxy.
 */
export async function recordSampleSession(out: string, env: Record<string, string> = {}): Promise<{ exchanges: number }> {
  const server = await spawnReferenceServer({ env: { PETSTORE_TIME_SCALE: '10', ...env } });
  const writer = await CaptureWriter.open(out, RECORDER);
  try {
    const proxy = await startRecordingProxy({ upstream: server.baseUrl, port: 0, writer, keys: knownKeys(process.env) });
    try {
      await runSampleSession(proxy.baseUrl);
    } finally {
      await proxy.close();
    }
  } finally {
    await writer.close();
    await server.stop();
  }
  return { exchanges: writer.count };
}
