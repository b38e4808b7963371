import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { KeyLeases } from '../../../specs/support/leases.ts';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'leases-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Two "processes" sharing one lease folder, as two workers do. */
const worker = (pid: number, alive: Set<number> = new Set([1, 2, 3])) => new KeyLeases(dir, { pid, pollMs: 5, isAlive: (other) => alive.has(other) });

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

test('an exclusive lease keeps a second exclusive lease on the same key waiting until it is released', async () => {
  const first = await worker(1).exclusive(['k1']);
  const second = worker(2).exclusive(['k1']);
  expect(await settlesWithin(second, 60)).toBe(false);
  first.release();
  expect((await second).key).toBe('k1');
});

test('an exclusive lease takes the first free candidate in order of preference', async () => {
  const a = worker(1);
  const held = await a.exclusive(['k1', 'k2']);
  const other = await worker(2).exclusive(['k1', 'k2']);
  expect([held.key, other.key]).toEqual(['k1', 'k2']);
});

test('a measurement waits for functional tests holding the key in common, and new ones wait for it', async () => {
  const functional = await worker(1).common('k1');
  const measuring = worker(2).exclusive(['k1']);
  expect(await settlesWithin(measuring, 60)).toBe(false);
  // While the measurement waits, no new common holder gets in: it cannot be starved.
  const late = worker(3).common('k1');
  expect(await settlesWithin(late, 60)).toBe(false);
  functional.release();
  const lease = await measuring;
  expect(await settlesWithin(late, 60)).toBe(false);
  lease.release();
  expect(await settlesWithin(late, 200)).toBe(true);
});

test('common leases do not wait for each other', async () => {
  const one = await worker(1).common('k1');
  expect(await settlesWithin(worker(2).common('k1'), 100)).toBe(true);
  one.release();
});

test('a lease left by a process that died is taken back', async () => {
  await worker(1).exclusive(['k1']);
  const survivor = worker(2, new Set([2]));
  expect(await settlesWithin(survivor.exclusive(['k1']), 200)).toBe(true);
});

test('a common lease left by a process that died does not hold a measurement back', async () => {
  await worker(1).common('k1');
  expect(await settlesWithin(worker(2, new Set([2])).exclusive(['k1']), 200)).toBe(true);
});

test('asking exclusively for a key this test holds in common fails at once instead of waiting for itself', async () => {
  const leases = worker(1);
  await leases.common('k1');
  await expect(leases.exclusive(['k1'])).rejects.toThrow(/held in common/);
  expect((await leases.exclusive(['k1', 'k2'])).key).toBe('k2');
});

test('keys whose day is used up are leased only when no other candidate is left', async () => {
  const leases = worker(1);
  leases.markExhausted('k1');
  expect(leases.isExhausted('k1')).toBe(true);
  expect((await leases.exclusive(['k1', 'k2'])).key).toBe('k2');
  expect((await worker(2).exclusive(['k1', 'k2'])).key).toBe('k1');
});

test('the lease folder never holds a key in clear', async () => {
  const { readdirSync } = await import('node:fs');
  await worker(1).exclusive(['secret-key-value']);
  expect(readdirSync(dir).join()).not.toContain('secret-key-value');
});

test('a key left alone longest is leased first: the one a test just gave back is likeliest to have no fresh window', async () => {
  const leases = worker(1);
  (await leases.exclusive(['k1', 'k2', 'k3'])).release();
  await new Promise((resolve) => setTimeout(resolve, 5));
  (await leases.exclusive(['k2', 'k3'])).release();
  expect((await leases.exclusive(['k1', 'k2', 'k3'])).key, 'never used comes first').toBe('k3');
  expect((await worker(2).exclusive(['k1', 'k2'])).key, 'then the one used longest ago').toBe('k1');
});

test('a single request takes a key in common that no measurement holds (the one used last), instead of waiting for the one that does', async () => {
  const measurement = await worker(1).exclusive(['k1']);
  const single = await settlesWithin(worker(2).commonOnAny(['k1', 'k2']), 100);
  expect(single).toBe(true);
  expect((await worker(2).commonOnAny(['k1', 'k2'])).key).toBe('k2');
  measurement.release();
});

test('a key found spent is remembered for the run, with when it comes back', () => {
  const leases = worker(1);
  expect(leases.spentUntil('k1')).toBeUndefined();
  leases.markSpent('k1', 1_800_000_000_000);
  expect(worker(2).spentUntil('k1')).toBe(1_800_000_000_000);
});

test('a single request spends the key used last, leaving the one left alone longest fresh for a measurement', async () => {
  const leases = worker(1);
  (await leases.exclusive(['k1'])).release();
  await new Promise((resolve) => setTimeout(resolve, 5));
  (await leases.exclusive(['k2'])).release();
  expect((await leases.commonOnAny(['k1', 'k2', 'k3'])).key).toBe('k2');
});

test("the run's admissions on a key are counted with when the first of them was, across workers, once each lease is given back", async () => {
  const [one, two] = [worker(1), worker(2)];
  const first = await one.exclusive(['k1']);
  expect(one.firstAdmittedInRun('k1')).toBeUndefined();
  const before = Date.now();
  one.countAdmitted('k1');
  await new Promise((resolve) => setTimeout(resolve, 5));
  const later = Date.now();
  one.countAdmitted('k1');
  first.release();
  const second = await two.exclusive(['k1']);
  two.countAdmitted('k1');
  second.release();
  expect(one.admittedInRun('k1')).toBe(3);
  const firstAt = two.firstAdmittedInRun('k1')!;
  expect(firstAt).toBeGreaterThanOrEqual(before);
  expect(firstAt).toBeLessThan(later);
});
