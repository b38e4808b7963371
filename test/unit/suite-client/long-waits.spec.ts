import { expect, test } from '@playwright/test';
import { WALL_CLOCK } from '../../../lib/target-clock.ts';
import type { ReceivedResponse } from '../../../specs/support/exchange.ts';
import { longWaitsUnchecked } from '../../../specs/support/long-waits.ts';
import { lostConnectionsUnmeasured } from '../../../specs/support/lost-connections.ts';

const request = { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} } as const;
const answering = (...answers: ReceivedResponse[]) => {
  let index = 0;
  return { send: async () => answers[index++]! };
};
const refused = (retryAfter: string): ReceivedResponse => ({ status: 429, headers: { 'retry-after': retryAfter }, body: '{}' });

test('a 429 asking for more than the test has left stops it with the wait and the remedy; one it can wait out passes through', async () => {
  const stops: string[] = [];
  const transport = longWaitsUnchecked(answering(refused('1'), { status: 200, headers: {}, body: '[]' }, refused('30')), WALL_CLOCK, () => 10_000, (reason) => void stops.push(reason));
  for (let sent = 0; sent < 3; sent++) await transport.send(request);
  expect(stops).toEqual([expect.stringMatching(/^a 429 asked for a wait of 31 s \(Retry-After: 30\), longer than the 10 s this test had left/)]);
});

test("the backoff's jitter grows with refusals in a row, as the polite client's attempts do", async () => {
  const stops: string[] = [];
  const transport = longWaitsUnchecked(answering(...Array.from({ length: 6 }, () => refused('0'))), WALL_CLOCK, () => 5_000, (reason) => void stops.push(reason));
  for (let sent = 0; sent < 6; sent++) await transport.send(request);
  expect(stops, 'jitter ceilings 250, 500, 1,000, 2,000, 4,000, then 8,000 ms').toHaveLength(1);
});

test('a measuring request the target cut short stops the measurement; any other error is left to the test', async () => {
  const stops: string[] = [];
  const failing = (message: string) => lostConnectionsUnmeasured({ send: () => Promise.reject(new Error(message)) }, (reason) => void stops.push(reason));
  await expect(failing('GET http://127.0.0.1/v1/pets failed: the server closed the connection before answering').send(request)).rejects.toThrow();
  expect(stops).toEqual([expect.stringContaining('the target cut a measuring request short')]);
  await expect(failing('GET /pets failed: refused to send to http://elsewhere').send(request)).rejects.toThrow();
  expect(stops).toHaveLength(1);
});
