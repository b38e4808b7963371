/**
 * ERR-4 counts a request as sent while refused only when its client knew: it left after one of the refused
 * stretch's 429s reached the client, within that 429's own wait. A 429 that lengthened the stretch (a ban for the
 * requests that crossed an earlier 429) but had not reached the client yet does not make the client's next
 * scheduled request a repeat while refused; once it has, a request within its wait is one. Seen on the load
 * script's compliant client in certify-client on a busy machine: every request of a ban was read, by the client's
 * own clock, as sent before that 429 reached it, and ERR-4 still warned.
 */
import { expect, test } from '@playwright/test';
import { ClientRuleJudge, type CrossingEvidence } from '../../harness/judge/client-rule-judge.ts';
import type { ClientExchange } from '../../harness/judge/client-exchange.ts';
import { RuleTallies } from '../../harness/judge/rule-tally.ts';

type Exchange = ClientExchange & CrossingEvidence;

/** A request on the key, sent at `sentAt` (the client's clock says the same), answered 5 ms later. */
function request(number: number, sentAt: number, status = 200, retryAfter?: string, clientReceivedAt?: number): Exchange {
  return { number, key: 'client', method: 'GET', path: '/pets', sentAt, answeredAt: sentAt + 5, status, retryAfter, date: undefined, connection: number, clientSentAt: sentAt, clientReceivedAt };
}

/** ERR-4's violations when the judge reads these exchanges, as certify-client does (crossings kept). */
function err4Violations(exchanges: readonly Exchange[]): number {
  const tallies = new RuleTallies();
  const judge = new ClientRuleJudge(tallies, 0, undefined, true);
  for (const exchange of exchanges) judge.add(exchange);
  judge.finish();
  return tallies.get('ERR-4')?.violations ?? 0;
}

// A 429 asking 2 s reaches the client at once; two requests the client's schedule had sent before it came crossed
// it, and the second got the key banned for 20 s. The client's event loop is slow: each later 429 reaches it only
// after its next scheduled request has left.
const opened = request(1, 0, 429, '2', 10);
const crossed = request(2, 6, 429, '2', 600);
const banned = request(3, 7, 429, '20', 4_000);
// Sent after the 2 s the client knew of had passed, before the ban reached it.
const scheduled = [request(4, 3_000, 429, '18', 4_100), request(5, 3_500, 429, '17', 4_200)];

test('ERR-4 requests sent after the 429s the client knew of had passed, before a later ban reached it, are not repeats while refused', () => {
  expect(err4Violations([opened, crossed, banned, ...scheduled])).toBe(0);
});

test('ERR-4 once the ban has reached the client, requests within its wait are repeats while refused', () => {
  const afterBan = [request(6, 4_500, 429, '16'), request(7, 4_600, 429, '16')];
  expect(err4Violations([opened, crossed, banned, ...scheduled, ...afterBan])).toBe(1);
  // Read only by the allowance (a production log), the first two are held to the 429 before them, as ever.
  const noEvidence = [opened, crossed, banned, ...scheduled].map(({ connection, clientSentAt, clientReceivedAt, ...exchange }) => exchange);
  expect(err4Violations(noEvidence)).toBe(1);
});
