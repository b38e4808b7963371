/**
 * The client's own side of each exchange, for reading whether a request crossed a 429 on the wire rather than
 * guessing it from a time allowance (harness/judge/client-rule-judge.ts reads it). fast-clock.mjs, loaded into
 * every Node process of the client, names each request as it is made (CLIENT_REQUEST_HEADER) and writes, into a
 * file per process in the evidence folder (PETSTORE_CLIENT_EVIDENCE), the real time each request was written to
 * its socket, and each 429 that reaches the process, named by the REFUSAL_HEADER the refusing server put on it,
 * with the real time it came. This project's raw-socket client carries the time it was written in the request
 * itself (CLIENT_SENT_HEADER). Written, not made: a request made while its pool's connections are busy waits,
 * and may go out after a 429 that reached its client meanwhile.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Names shared with fast-clock.mjs, which is plain JavaScript and cannot import them. */
export const CLIENT_SENT_HEADER = 'x-petstore-client-sent';
export const CLIENT_REQUEST_HEADER = 'x-petstore-client-request';
export const REFUSAL_HEADER = 'x-petstore-refusal';

export interface ClientSide {
  /** When each request (by its CLIENT_REQUEST_HEADER) was written to its socket, real ms since the epoch. */
  sent: Map<string, number>;
  /** When each 429 (by its REFUSAL_HEADER) first reached any process of the client, real ms since the epoch. */
  received: Map<string, number>;
}

export class ClientEvidence {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'petstore-client-evidence-'));

  read(): ClientSide {
    const side: ClientSide = { sent: new Map(), received: new Map() };
    for (const file of listed(this.dir)) {
      let text = '';
      try {
        text = readFileSync(path.join(this.dir, file), 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        const [what, id, at] = line.split(' ');
        const ms = Number(at);
        const into = what === 'sent' ? side.sent : what === 'received' ? side.received : undefined;
        if (into === undefined || id === undefined || id === '' || !Number.isFinite(ms)) continue;
        const known = into.get(id);
        if (known === undefined || ms < known) into.set(id, ms);
      }
    }
    return side;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The name fast-clock.mjs gave a request (CLIENT_REQUEST_HEADER), if the header holds one. */
export function clientRequestName(header: string | string[] | undefined): string | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  return text !== undefined && /^\d{1,10}\.\d{1,15}$/.test(text) ? text : undefined;
}

/** The real ms since the epoch a request's CLIENT_SENT_HEADER gives, if it is one. */
export function clientSentAt(header: string | string[] | undefined): number | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (text === undefined || !/^\d{10,16}(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/** A folder's entries, or none when it is gone. */
export function listed(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
