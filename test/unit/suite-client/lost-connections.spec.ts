import { expect, test } from '@playwright/test';
import { socketTransport } from '../../../specs/support/exchange.ts';
import { lostConnectionsUnmeasured } from '../../../specs/support/lost-connections.ts';
import { resetOnceServer } from '../../support/reset-once-server.ts';

const request = { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} } as const;

test('a measuring request the target cut short stops the measurement; any other error is left to the test', async () => {
  const stops: string[] = [];
  const failing = (message: string) => lostConnectionsUnmeasured({ send: () => Promise.reject(new Error(message)) }, (reason) => void stops.push(reason));
  await expect(failing('GET http://127.0.0.1/v1/pets failed: the server closed the connection before answering').send(request)).rejects.toThrow();
  expect(stops).toEqual([expect.stringContaining('the target cut a measuring request short')]);
  await expect(failing('GET /pets failed: refused to send to http://elsewhere').send(request)).rejects.toThrow();
  expect(stops).toHaveLength(1);
});

test('a measuring request the shared client sent again, its connection closed unanswered, stops the measurement: the target may have counted it twice', async () => {
  const server = await resetOnceServer('/v1/pets?limit=2', () => '[]');
  const base = `${server.origin}/v1`;
  const sockets = socketTransport(base, 1, 2_000);
  const stops: string[] = [];
  const measuring = lostConnectionsUnmeasured(sockets, (reason) => void stops.push(reason));
  try {
    await sockets.open();
    expect((await measuring.send({ method: 'GET', url: `${base}/pets?limit=1`, headers: {} })).status).toBe(200);
    expect(stops).toEqual([]);
    const again = await measuring.send({ method: 'GET', url: `${base}/pets?limit=2`, headers: {} });
    expect(again.status, 'answered the second time').toBe(200);
    expect(server.seen.get('/v1/pets?limit=2'), 'the target received it twice').toBe(2);
    expect(stops).toEqual([expect.stringMatching(/^the connection of a measuring request \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=2\) closed before any answer and the request was sent again, so the target may have counted it twice/)]);
  } finally {
    sockets.close();
    server.close();
  }
});
