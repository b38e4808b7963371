/**
 * No missing result counts as success in a generated property: a value whose judging throws (fast-check takes the
 * throw for a failure, and no judged value explains it) leaves the property's rule partly checked with the cause
 * and the seed, as a request without an answer does; what values say they could not check (a pet's status another
 * party may have moved) leaves its rule partly checked, said once; a property whose every value is judged leaves no
 * note.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { classifyRequest } from '../../../lib/contract.ts';
import { Redactor } from '../../../lib/redact.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import type { Exchange } from '../../../specs/support/exchange.ts';
import { checkProperty, type Checked } from '../../../specs/support/generated/property.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';

/** A judge that keeps its unchecked notes (with their rule, where it is not the test's) instead of annotating this test. */
class NotingJudge extends RuleJudge {
  readonly notes: string[] = [];
  override unchecked(what: string, rule?: string): void {
    this.notes.push(rule === undefined ? what : `[${rule}] ${what}`);
  }
}

const answered = (value: number): Exchange => ({
  operation: 'listPets',
  request: { method: 'GET', url: `http://127.0.0.1:9/v1/pets?limit=${value}`, headers: {} },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' },
  json: [],
  plan: undefined,
  sentAt: 0,
  receivedAt: 0,
  kind: classifyRequest({ operation: 'listPets', method: 'GET', path: `/pets?limit=${value}` }),
  violations: [],
});

function run(send: (value: number) => Promise<Checked>, examples: number[] = []): Promise<{ notes: string[]; sent: number }> {
  const judge = new NotingJudge(test.info(), 'LIST-3', new Redactor(DEMO_KEYS));
  const client = new PetStoreClient({ transport: { send: () => Promise.reject(new Error('unused')) }, baseUrl: 'http://127.0.0.1:9/v1', authorization: undefined, plan: undefined, judge, politeness: 'wait', timeLeftMs: () => 60_000 });
  return checkProperty(judge, client, 'listPets: limit', fc.integer({ min: 1, max: 100 }), send, { seed: 42, runs: 30 }, examples).then((sent) => ({ notes: judge.notes, sent }));
}

test('a value whose judging throws leaves the rule partly checked, with the cause and the seed that replays it', async () => {
  const { notes } = await run(async (value) => {
    if (value > 50) throw new TypeError("Cannot read properties of null (reading 'status')");
    return { exchange: answered(value), problems: [] };
  });
  expect(notes).toEqual([expect.stringMatching(/^listPets: limit: the answer to \d+ could not be judged \(Cannot read properties of null \(reading 'status'\)\); PETSTORE_GENERATED_SEED=42 replays the run$/)]);
});

test('an example whose judging throws is noted too, and the seeded values are still sent', async () => {
  const { notes, sent } = await run(async (value) => {
    if (value === 7) throw new Error('unreadable');
    return { exchange: answered(value), problems: [] };
  }, [7]);
  expect(notes).toEqual([expect.stringContaining('the answer to 7 could not be judged (unreadable)')]);
  expect(sent).toBe(30);
});

test('a property whose every value is judged leaves no note', async () => {
  const { notes, sent } = await run(async (value) => ({ exchange: answered(value), problems: [] }));
  expect(notes).toEqual([]);
  expect(sent).toBe(30);
});

test('what values say they could not check leaves each rule partly checked once, with how many values said so', async () => {
  const { notes, sent } = await run(async (value) => ({
    exchange: answered(value),
    problems: [],
    ...(value % 2 === 0 ? { unchecked: [{ rule: 'GET-1', message: `that pet ${value} keeps its status: status transitions are a gap of the spec (STATE-GAP-1)` }] } : {}),
  }));
  expect(sent).toBe(30);
  expect(notes).toEqual([expect.stringMatching(/^\[GET-1\] listPets: limit: that pet \d+ keeps its status: status transitions are a gap of the spec \(STATE-GAP-1\) \(and \d+ more like it\)$/)]);
});
