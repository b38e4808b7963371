/**
 * The bytes of each request a key sends, built once: the load client writes them as they are. The key
 * appears only here, in the Authorization header on the wire, and never in anything written down.
 */
import type { LoadOperation } from './scenario.ts';

const NEW_PET = JSON.stringify({ name: 'load-test', categoryId: 1, status: 'available' });
/** Pets the bundled server seeds at start have ids from 1; a target without them answers 404, which counts too. */
const FALLBACK_PET_ID = '1';
const RECENT_IDS = 64;
const ID_IN_BODY = /"id"\s*:\s*(\d+)/;

export class RequestBuilder {
  private readonly prefix: string;
  private readonly headers: string;
  private readonly listBytes: Buffer;
  private readonly createBytes: Buffer;
  private readonly recentIds: string[] = [];
  private nextId = 0;

  constructor(baseUrl: string, key: string) {
    const url = new URL(baseUrl);
    const basePath = url.pathname.replace(/\/+$/, '');
    this.prefix = basePath;
    const common = `Host: ${url.host}\r\nAuthorization: Bearer ${key}\r\nAccept: application/json\r\nUser-Agent: petstore-load\r\n`;
    this.headers = common;
    this.listBytes = Buffer.from(`GET ${basePath}/pets?limit=20 HTTP/1.1\r\n${common}\r\n`, 'latin1');
    this.createBytes = Buffer.from(
      `POST ${basePath}/pets HTTP/1.1\r\n${common}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(NEW_PET)}\r\n\r\n${NEW_PET}`,
      'utf8',
    );
  }

  bytes(operation: LoadOperation): Buffer {
    if (operation === 'list') return this.listBytes;
    if (operation === 'create') return this.createBytes;
    const id = this.recentIds.length === 0 ? FALLBACK_PET_ID : (this.recentIds[this.nextId++ % this.recentIds.length] ?? FALLBACK_PET_ID);
    return Buffer.from(`GET ${this.prefix}/pets/${id} HTTP/1.1\r\n${this.headers}\r\n`, 'latin1');
  }

  /** Remembers the id of a created pet (as exact digits: ids may exceed 2^53) for later gets. */
  learnFromCreated(body: Buffer): void {
    const match = ID_IN_BODY.exec(body.toString('utf8'));
    if (!match?.[1]) return;
    if (this.recentIds.length >= RECENT_IDS) this.recentIds.shift();
    this.recentIds.push(match[1]);
  }
}
