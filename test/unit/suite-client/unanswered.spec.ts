/**
 * RESP-3 in the suite's client: a request sent that got no answer fails RESP-3 with the unanswered exchange (status
 * 0) beside the answer to the same request sent again, and the test goes on with that answer; a measurement stops;
 * a failure to send at all (a refused connection) and a target that answers nothing fail no rule.
 */
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import { PetStoreClient, type Politeness } from '../../../specs/support/client.ts';
import type { Exchange, ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { RuleJudge, type Judgement } from '../../../specs/support/judge.ts';
import { sendFailure, Unanswered } from '../../../specs/support/unanswered.ts';

const limits = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 30) };
const ok: ReceivedResponse = { status: 200, headers: { 'content-type': 'application/json', ...limits }, body: '[]' };
const request = { method: 'GET', url: 'http://127.0.0.1:9/v1/pets', headers: {} } as const;

/** A judge that keeps what it found instead of failing this test, and ends a test by throwing what it would skip with. */
class RecordingJudge extends RuleJudge {
  readonly findings: Array<{ message: string; rule: string | undefined; evidence: readonly Exchange[] }> = [];
  override expect(holds: boolean, message: string, judgement: Judgement = {}): boolean {
    if (!holds) this.findings.push({ message, rule: judgement.rule, evidence: [judgement.evidence ?? []].flat() });
    return holds;
  }
  override couldNotComplete(cause: string): never {
    throw new Error(`could not complete: ${cause}`);
  }
}

function scripted(...answers: Array<ReceivedResponse | Error>): Transport & { sent: number } {
  return {
    sent: 0,
    async send() {
      const next = answers[this.sent++];
      if (next === undefined) throw new Error('the script ran out of answers');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

function over(transport: Transport, politeness: Politeness = 'wait'): { client: PetStoreClient; judge: RecordingJudge } {
  const judge = new RecordingJudge(test.info(), 'LIST-1', new Redactor(DEMO_KEYS));
  const client = new PetStoreClient({ transport, baseUrl: 'http://127.0.0.1:9/v1', authorization: undefined, plan: undefined, judge, politeness, timeLeftMs: () => 60_000, answeredOperations: new Set() });
  return { client, judge };
}

const closed = (): Unanswered => new Unanswered('GET http://127.0.0.1:9/v1/pets failed: read ECONNRESET', 'connection closed');
const silent = (): Unanswered => new Unanswered('GET http://127.0.0.1:9/v1/pets failed: Timeout 3000ms exceeded.', 'no answer in time');

test('the transports say which failures are requests without an answer: a timeout or a closed connection, not a refused one', () => {
  for (const reason of ['apiRequestContext.fetch: socket hang up (ECONNRESET)', 'apiRequestContext.fetch: read ECONNRESET', 'http://127.0.0.1:1 reset the connection', 'the server closed the connection before answering']) {
    expect(sendFailure(request, reason), reason).toMatchObject({ how: 'connection closed' });
  }
  for (const reason of ['apiRequestContext.fetch: Timeout 3000ms exceeded.', 'no answer within 15 s']) expect(sendFailure(request, reason), reason).toMatchObject({ how: 'no answer in time' });
  for (const reason of ['apiRequestContext.fetch: connect ECONNREFUSED 127.0.0.1:1', 'connection refused by http://127.0.0.1:1', 'unreadable response: bad status line']) {
    expect(sendFailure(request, reason), reason).not.toBeInstanceOf(Unanswered);
  }
});

test('a request that got no answer fails RESP-3 with it and the answer to it sent again, and the test goes on with that answer', async () => {
  for (const lost of [closed(), silent()]) {
    const transport = scripted(lost, ok);
    const { client, judge } = over(transport);
    const exchange = await client.listPets({ limit: 3 });
    expect(exchange.response.status).toBe(200);
    expect(transport.sent).toBe(2);
    expect(judge.findings).toHaveLength(1);
    const [finding] = judge.findings;
    expect(finding?.rule).toBe('RESP-3');
    expect(finding?.message).toContain(`got none (${lost.how})`);
    expect(finding?.evidence.map((each) => each.response.status)).toEqual([0, 200]);
    expect(finding?.evidence[0]?.request.url).toBe('http://127.0.0.1:9/v1/pets?limit=3');
  }
});

test('a request unanswered twice fails RESP-3 once its operation has answered others, and ends the test; a target that never answered fails nothing', async () => {
  const { client: fresh, judge: freshJudge } = over(scripted(closed(), closed()));
  await expect(fresh.listOrders()).rejects.toThrow(/could not complete: no answer to GET \/v1\/store\/orders, sent twice/);
  expect(freshJudge.findings, 'no answer to listOrders was ever seen: a target gone, not a dropped request').toEqual([]);

  const { client, judge } = over(scripted(ok, silent(), silent()));
  await client.listOrders();
  await expect(client.listOrders()).rejects.toThrow(/could not complete/);
  expect(judge.findings.map((finding) => finding.rule)).toEqual(['RESP-3']);
  expect(judge.findings[0]?.evidence.map((each) => each.response.status)).toEqual([0]);
});

test('a measurement is not sent again: a request without an answer fails RESP-3 and stops it; a refused connection fails nothing', async () => {
  const transport = scripted(ok, closed());
  const { client, judge } = over(transport, 'measure');
  await client.listPets();
  await expect(client.listPets()).rejects.toThrow(/could not complete: the target gave a measuring request no answer/);
  expect(transport.sent).toBe(2);
  expect(judge.findings.map((finding) => finding.rule)).toEqual(['RESP-3']);

  const { client: refusedClient, judge: refusedJudge } = over(scripted(ok, new Error('GET http://127.0.0.1:9/v1/pets failed: connect ECONNREFUSED 127.0.0.1:9')));
  await refusedClient.listPets();
  await expect(refusedClient.listPets()).rejects.toThrow(/could not complete: no answer: .*ECONNREFUSED/);
  expect(refusedJudge.findings).toEqual([]);
});
