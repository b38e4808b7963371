/**
 * A large capture for the replay benchmark, recorded for real: a workload of clients runs through the
 * recording proxy against the bundled reference server, and every exchange lands in a .har.ndjson file.
 * The workload is what a busy store sees: mostly fetches and filtered lists, some creations, and the
 * documented mistakes (404, 400), all with an Enterprise key (its quota is generous, so nothing is refused).
 */
import { createReadStream, existsSync, renameSync } from 'node:fs';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { CaptureWriter } from '../../lib/capture/write.ts';
import { knownKeys } from '../../harness/record/credentials.ts';
import { startRecordingProxy } from '../../harness/record/proxy.ts';
import { RECORDER } from '../../harness/record/recorder-info.ts';
import { seededRandom } from '../../lib/random.ts';

/** Pets created one by one before the mixed traffic, so that lists (first pets by creation) stay stable after. */
const WARM_UP_CREATIONS = 120;
const CLIENTS = 8;
const STATUSES = ['available', 'pending', 'sold'] as const;

export async function countLines(path: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(path)) {
    for (const byte of chunk as Buffer) if (byte === 10) lines++;
  }
  return lines;
}

/** The capture of `exchanges` exchanges at `path`, recorded now unless a complete one is there already. */
export async function ensureCapture(path: string, exchanges: number, log: (line: string) => void): Promise<void> {
  if (existsSync(path) && (await countLines(path)) === exchanges) {
    log(`using ${path} (${exchanges} exchanges)`);
    return;
  }
  log(`recording ${exchanges} exchanges to ${path} ...`);
  const started = performance.now();
  const server = await spawnReferenceServer({ env: { PETSTORE_LOG: 'off' } });
  const partial = `${path}.partial.har.ndjson`;
  const writer = await CaptureWriter.open(partial, RECORDER);
  const proxy = await startRecordingProxy({ upstream: server.baseUrl, port: 0, writer, keys: knownKeys(process.env) });
  const key = DEMO_KEYS.enterprise[0] ?? '';
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created: string[] = [];
  let sent = 0;

  const send = async (method: string, path: string, body?: string): Promise<void> => {
    const response = await fetch(`${proxy.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    if (method === 'POST' && response.status === 201) created.push(/"id":(\d+)/.exec(text)?.[1] ?? '');
  };

  try {
    for (let i = 0; i < Math.min(WARM_UP_CREATIONS, exchanges); i++, sent++) {
      await send('POST', '/pets', JSON.stringify({ name: `Pet ${i}`, categoryId: 1 + (i % 7), status: STATUSES[i % 3] }));
    }
    const client = async (seed: number): Promise<void> => {
      const random = seededRandom(seed);
      while (sent < exchanges) {
        sent++;
        const roll = random();
        if (roll < 0.05) await send('POST', '/pets', JSON.stringify({ name: `Pet ${sent}`, categoryId: 1 + (sent % 7), status: STATUSES[sent % 3] }));
        else if (roll < 0.55) await send('GET', `/pets/${created[Math.floor(random() * created.length)]}`);
        else if (roll < 0.85) {
          const status = STATUSES[Math.floor(random() * 3)];
          const limit = 1 + Math.floor(random() * 30);
          await send('GET', random() < 0.5 ? `/pets?status=${status}&limit=${limit}` : `/pets?limit=${limit}`);
        } else if (roll < 0.9) await send('GET', '/pets');
        else if (roll < 0.95) await send('GET', `/pets/${1_000_000_000 + Math.floor(random() * 1000)}`);
        else await send('POST', '/pets', '{"categoryId":"not a number"}');
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index + 1)));
  } finally {
    await proxy.close();
    await writer.close();
    await server.stop();
  }
  renameSync(partial, path);
  log(`recorded ${writer.count} exchanges in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
