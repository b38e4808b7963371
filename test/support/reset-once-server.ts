/**
 * A target behind a middlebox that passes a request on and then resets its connection, the first time a given path
 * is asked only: the client sends it again, and the target has received it twice.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ResetOnceServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** How many times each path (with its query) was received. */
  seen: Map<string, number>;
  close(): void;
}

export async function resetOnceServer(resetPath: string, answer: (path: string) => string = (path) => path): Promise<ResetOnceServer> {
  const seen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const times = (seen.get(req.url!) ?? 0) + 1;
    seen.set(req.url!, times);
    if (req.url === resetPath && times === 1) return void req.socket.destroy();
    res.end(answer(req.url!));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
