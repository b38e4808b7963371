/**
 * Whether the client's requests come from processes whose clock runs as fast as the refusing server's. At
 * --clock-rate N a Node client's clock runs N times faster (fast-clock.mjs, which writes its process id into
 * `dir`); any other client (Python, Go, curl, a Node client whose NODE_OPTIONS was dropped) waits in real time,
 * so each of its waits would look N times longer than it was, and a client that waits too little would pass.
 * The connections of the first requests are traced to the process that holds them (Linux: /proc/net/tcp names
 * the socket, /proc/<pid>/fd its holder), among the processes that loaded the fast clock. It is done while the
 * request is being answered, when the client's socket is sure to be open; where /proc cannot say, the answer is
 * only whether any process loaded the fast clock.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listed } from './crossing.ts';

/** Connections traced: enough to know the client, few enough to cost nothing at a naive client's thousands. */
const TRACED = 20;

export type ClockFollowing = 'followed' | 'not-followed' | 'unknown';

export class ClockFollowers {
  /** Where fast-clock.mjs writes the id of each process it runs in (PETSTORE_CLIENT_CLOCK_PIDS). */
  readonly dir = mkdtempSync(path.join(tmpdir(), 'petstore-client-clock-'));
  private readonly traced = new WeakSet<Socket>();
  private readonly found: ClockFollowing[] = [];

  watch(server: Server): void {
    const port = (server.address() as AddressInfo).port;
    server.on('request', (req: IncomingMessage) => {
      const socket = req.socket;
      if (this.found.length >= TRACED || this.traced.has(socket) || socket.remotePort === undefined) return;
      this.traced.add(socket);
      this.found.push(this.trace(socket.remotePort, port));
    });
  }

  /** Whether the client's connections came from processes on the fast clock: every traced one, or none. */
  following(): ClockFollowing {
    const traced = this.found.filter((found) => found !== 'unknown');
    if (traced.includes('not-followed')) return 'not-followed';
    if (traced.length > 0) return 'followed';
    // Nothing traced (no /proc here): whether any process loaded the fast clock at all.
    return this.pids().length > 0 ? 'unknown' : 'not-followed';
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private pids(): string[] {
    try {
      return readdirSync(this.dir);
    } catch {
      return [];
    }
  }

  private trace(clientPort: number, serverPort: number): ClockFollowing {
    const inode = socketInode(clientPort, serverPort);
    if (inode === undefined) return 'unknown';
    const held = `socket:[${inode}]`;
    for (const pid of this.pids()) {
      for (const fd of listed(`/proc/${pid}/fd`)) if (linkOf(`/proc/${pid}/fd/${fd}`) === held) return 'followed';
    }
    // A client may close its end before its answer comes (an aborted request): then nobody holds it any more.
    return socketInode(clientPort, serverPort) === inode ? 'not-followed' : 'unknown';
  }
}

/** The inode of the client's end of a connection to the server (Linux), from the kernel's table of TCP sockets. */
function socketInode(clientPort: number, serverPort: number): string | undefined {
  const local = `:${clientPort.toString(16).toUpperCase().padStart(4, '0')}`;
  const remote = `:${serverPort.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(local) && fields[2]?.endsWith(remote) && fields[9] !== undefined && fields[9] !== '0') return fields[9];
    }
  }
  return undefined;
}

function linkOf(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '';
  }
}
