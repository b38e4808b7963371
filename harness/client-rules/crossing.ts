/**
 * The client's own side of each exchange, for reading whether a request crossed a 429 on the wire rather than
 * guessing it from a time allowance (harness/judge/client-rule-judge.ts reads it). fast-clock.mjs, loaded into
 * every Node process of the client, stamps each request with the real time it left (CLIENT_SENT_HEADER) and
 * writes each 429 that reaches the process, named by the REFUSAL_HEADER the refusing server put on it, with the
 * real time it came, into a file per process in the evidence folder (PETSTORE_CLIENT_EVIDENCE).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Names shared with fast-clock.mjs, which is plain JavaScript and cannot import them. */
export const CLIENT_SENT_HEADER = 'x-petstore-client-sent';
export const REFUSAL_HEADER = 'x-petstore-refusal';

export class ClientEvidence {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'petstore-client-evidence-'));

  /** When each 429 (by its REFUSAL_HEADER) first reached any process of the client, real ms since the epoch. */
  received(): Map<string, number> {
    const first = new Map<string, number>();
    for (const file of listed(this.dir)) {
      let text = '';
      try {
        text = readFileSync(path.join(this.dir, file), 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        const [id, at] = line.split(' ');
        const ms = Number(at);
        if (id === undefined || id === '' || !Number.isFinite(ms)) continue;
        const known = first.get(id);
        if (known === undefined || ms < known) first.set(id, ms);
      }
    }
    return first;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
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
