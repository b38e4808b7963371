/**
 * The bytes of each request a key sends, built once: the load client writes them as they are. The key
 * appears only here, in the Authorization header on the wire, and never in anything written down.
 */
import type { LoadOperation } from './scenario.ts';

export interface PlannedRequest {
  method: string;
  /** Below the target's base path; {petId} is a pet the key created, else 1. */
  path: string;
  /** Locust's statistics name: one per operation. */
  name: string;
  body: string | null;
  headers: Record<string, string>;
}

const NEW_PET = JSON.stringify({ name: 'load-test', categoryId: 1, status: 'available' });

/** What each operation sends, below the key's Authorization: the one table both engines build requests from. */
export const LOAD_REQUESTS: Record<LoadOperation, PlannedRequest> = {
  list: { method: 'GET', path: '/pets?limit=20', name: 'GET /pets', body: null, headers: { Accept: 'application/json', 'User-Agent': 'petstore-load' } },
  create: { method: 'POST', path: '/pets', name: 'POST /pets', body: NEW_PET, headers: { Accept: 'application/json', 'User-Agent': 'petstore-load', 'Content-Type': 'application/json' } },
  get: { method: 'GET', path: '/pets/{petId}', name: 'GET /pets/{petId}', body: null, headers: { Accept: 'application/json', 'User-Agent': 'petstore-load' } },
};
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
    const head = (operation: LoadOperation): string =>
      `Host: ${url.host}\r\nAuthorization: Bearer ${key}\r\n${Object.entries(LOAD_REQUESTS[operation].headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}`;
    this.headers = head('get');
    const { list, create } = LOAD_REQUESTS;
    this.listBytes = Buffer.from(`${list.method} ${basePath}${list.path} HTTP/1.1\r\n${head('list')}\r\n`, 'latin1');
    this.createBytes = Buffer.from(`${create.method} ${basePath}${create.path} HTTP/1.1\r\n${head('create')}Content-Length: ${Buffer.byteLength(NEW_PET)}\r\n\r\n${NEW_PET}`, 'utf8');
  }

  bytes(operation: LoadOperation): Buffer {
    if (operation === 'list') return this.listBytes;
    if (operation === 'create') return this.createBytes;
    const id = this.recentIds.length === 0 ? FALLBACK_PET_ID : (this.recentIds[this.nextId++ % this.recentIds.length] ?? FALLBACK_PET_ID);
    return Buffer.from(`${LOAD_REQUESTS.get.method} ${this.prefix}${LOAD_REQUESTS.get.path.replace('{petId}', id)} HTTP/1.1\r\n${this.headers}\r\n`, 'latin1');
  }

  /** Remembers the id of a created pet (as exact digits: ids may exceed 2^53) for later gets. */
  learnFromCreated(body: Buffer): void {
    const match = ID_IN_BODY.exec(body.toString('utf8'));
    if (!match?.[1]) return;
    if (this.recentIds.length >= RECENT_IDS) this.recentIds.shift();
    this.recentIds.push(match[1]);
  }
}
