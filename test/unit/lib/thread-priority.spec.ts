import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { expect, test } from '@playwright/test';

/** The niceness /proc gives a thread's stat (its 19th field). */
function nicenessOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

test("lowerThisThreadsPriority lowers the calling thread's priority only, not its process's", async () => {
  test.skip(process.platform !== 'linux', 'a thread has a niceness of its own on Linux');
  const moduleUrl = new URL('../../../lib/processes/thread-priority.ts', import.meta.url).href;
  const worker = new Worker(
    `(async () => {
      const { register } = await import('tsx/esm/api');
      register();
      const { lowerThisThreadsPriority } = await import(${JSON.stringify(moduleUrl)});
      lowerThisThreadsPriority(5);
      const { readlinkSync } = await import('node:fs');
      const { parentPort } = require('node:worker_threads');
      parentPort.postMessage(readlinkSync('/proc/thread-self').split('/').pop());
      parentPort.on('message', () => {}); // listening keeps the thread alive until it is terminated
    })();`,
    { eval: true },
  );
  const before = nicenessOf('/proc/thread-self/stat');
  const workerThread = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // Read while the worker lives: its thread's entry goes when it ends.
  const workerNiceness = nicenessOf(`/proc/self/task/${workerThread}/stat`);
  await worker.terminate();
  expect(workerNiceness).toBe(Math.min(19, before + 5));
  expect(nicenessOf('/proc/thread-self/stat')).toBe(before);
  expect(nicenessOf('/proc/self/stat')).toBe(before);
});
