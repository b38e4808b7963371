/**
 * One worker of a run, in a process of its own, for refused-key-across-workers.spec.ts: the suite's polite client
 * of a Business key whose lease folder is PETSTORE_LEASES, sending PETSTORE_CREATES creates together to TARGET;
 * prints their statuses as JSON. A client that had to give up, or judged a breach, ends with the reason.
 */
import type { TestInfo } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import { socketTransport } from '../../../specs/support/exchange.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';
import { KeyLeases } from '../../../specs/support/leases.ts';

const baseUrl = process.env.TARGET!;
const creates = Number(process.env.PETSTORE_CREATES);
/** What the judge writes down; a test it would end ends this process instead. */
const notes = {
  annotations: [],
  attachments: [],
  skip: (_: boolean, reason: string): never => {
    throw new Error(reason);
  },
} as unknown as TestInfo;

const sockets = socketTransport(baseUrl, creates);
await sockets.open();
const api = new PetStoreClient({
  transport: sockets,
  baseUrl,
  authorization: 'Bearer demo-business-1',
  plan: 'business',
  judge: new RuleJudge(notes, 'ERR-4', new Redactor(DEMO_KEYS)),
  politeness: 'wait',
  timeLeftMs: () => 30_000,
  rest: new KeyLeases(process.env.PETSTORE_LEASES!).rest('demo-business-1'),
  // No jitter: the waits are the Retry-Afters alone.
  random: () => 0,
});
try {
  const exchanges = await Promise.all(Array.from({ length: creates }, () => api.createPet({ name: 'conformance', categoryId: 1 })));
  process.stdout.write(JSON.stringify(exchanges.map((exchange) => exchange.response.status)));
} finally {
  sockets.close();
}
