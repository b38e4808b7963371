import { expect, test } from '@playwright/test';
import { lostConnectionsUnmeasured } from '../../../specs/support/lost-connections.ts';

const request = { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} } as const;

test('a measuring request the target cut short stops the measurement; any other error is left to the test', async () => {
  const stops: string[] = [];
  const failing = (message: string) => lostConnectionsUnmeasured({ send: () => Promise.reject(new Error(message)) }, (reason) => void stops.push(reason));
  await expect(failing('GET http://127.0.0.1/v1/pets failed: the server closed the connection before answering').send(request)).rejects.toThrow();
  expect(stops).toEqual([expect.stringContaining('the target cut a measuring request short')]);
  await expect(failing('GET /pets failed: refused to send to http://elsewhere').send(request)).rejects.toThrow();
  expect(stops).toHaveLength(1);
});
