import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 with nothing listening now: taken from the system, then released, for a server to be
 * started on (or, in tests, for a target that must not answer). Another process may take it in between; the
 * server that then cannot listen says so.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('the system gave no port'))));
    });
  });
}
