import { expect, test } from '@playwright/test';
import { FINGERPRINT_BYTES } from '../../lib/capture/har-entry-bytes.ts';
import { FingerprintQueue } from '../../harness/judge/fingerprint-queue.ts';

/**
 * Fingerprints that share their first bytes (the table's hash) in a few groups, so that probing runs long and the
 * cells moved back on forgetting are exercised; the rest of each differs.
 */
function fingerprint(number: number): Uint8Array {
  const bytes = new Uint8Array(FINGERPRINT_BYTES);
  bytes[0] = number % 7;
  bytes[1] = number % 3 === 0 ? 0 : number & 0xff;
  bytes.set([number & 0xff, (number >> 8) & 0xff, (number >> 16) & 0xff], 10);
  return bytes;
}

test('fingerprints are remembered and forgotten oldest first as a Set and a queue would, however they collide and the ring grows', () => {
  const queue = new FingerprintQueue();
  const held = new Set<number>();
  const order: number[] = [];
  const times: number[] = [];
  const wrong: string[] = [];
  let most = 0;
  let random = 12_345;
  const next = (): number => (random = (random * 48_271) % 2_147_483_647);
  for (let step = 0; step < 18_000; step++) {
    const number = next() % 5_000;
    // Inside a larger array, as a chunk's fingerprints sit.
    const chunk = new Uint8Array(FINGERPRINT_BYTES * 3);
    chunk.set(fingerprint(number), FINGERPRINT_BYTES);
    if (queue.remembers(chunk, FINGERPRINT_BYTES, step) !== held.has(number)) wrong.push(`step ${step}: ${number} ${held.has(number) ? 'forgotten' : 'remembered unasked'}`);
    if (!held.has(number)) {
      held.add(number);
      order.push(number);
      times.push(step);
      most = Math.max(most, order.length);
    }
    // Forget in bursts, so the queue both grows past its first capacity and shrinks.
    const forget = step % 6_000 < 3_000 ? (next() % 8 === 0 ? 1 : 0) : next() % 4;
    for (let count = 0; count < forget && order.length > 0; count++) {
      if (queue.oldestTime !== times.shift()) wrong.push(`step ${step}: oldest time ${queue.oldestTime}`);
      queue.forgetOldest();
      held.delete(order.shift() as number);
    }
  }
  expect(queue.oldestTime).toBe(times[0]);
  for (let number = 0; number < 5_000; number++) if (queue.remembers(fingerprint(number), 0, 0) !== held.has(number)) wrong.push(`at the end: ${number}`);
  expect(wrong).toEqual([]);
  expect(most, 'past the ring\'s first capacity').toBeGreaterThan(1_024);
  expect(order.length, 'and down again').toBeLessThan(most / 2);
});
