/**
 * The first pass over a capture, before anything is sent: every entry is validated (so a malformed file
 * fails at once, not halfway through a replay), the Pet Store's base URL is found, and the credentials
 * the replay will need are collected. Memory holds counts, not entries.
 */
import { basename } from 'node:path';
import { splitAuthorization } from '../../lib/capture/credentials.ts';
import { readCapture } from '../../lib/capture/read.ts';
import { CaptureBase, operationBase } from '../../lib/capture/base.ts';
import { InputError } from '../../lib/cli/command-line.ts';
import { toRecordedExchange, type RecordedExchange } from './exchange.ts';

export interface CredentialUse {
  count: number;
  /** The entry where it first appears. */
  firstNumber: number;
}

export interface Survey {
  base: CaptureBase;
  /** Entries under the base that will be replayed. */
  exchanges: number;
  /** Entries outside the base, by host. */
  otherHosts: Map<string, number>;
  /** Entries the recording tool saw fail (status 0): nothing to compare against. */
  unanswered: number;
  /** Authorization tokens (placeholders, or literal keys in a foreign capture) of the entries to replay. */
  credentials: Map<string, CredentialUse>;
}

interface Bucket {
  /** A URL of the bucket, to tell its host and whether it lies under the base. */
  url: URL;
  count: number;
  credentials: Map<string, CredentialUse>;
}

export function authorizationToken(exchange: Pick<RecordedExchange, 'headers'>): string | undefined {
  const header = exchange.headers.find(([name]) => name.toLowerCase() === 'authorization');
  return header ? splitAuthorization(header[1]).token || undefined : undefined;
}

export async function surveyCapture(path: string): Promise<Survey> {
  const file = basename(path);
  const byBase = new Map<string, Bucket>();
  // Requests that address no operation are kept by path, to count them in when the base is known.
  const byPath = new Map<string, Bucket>();
  let unanswered = 0;
  let total = 0;

  for await (const raw of readCapture(path)) {
    total++;
    const exchange = toRecordedExchange(raw, file);
    if (exchange.response.status === 0) {
      unanswered++;
      continue;
    }
    const base = operationBase(exchange.method, exchange.url);
    const key = base ?? `${exchange.url.origin}${exchange.url.pathname}`;
    const buckets = base ? byBase : byPath;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { count: 0, credentials: new Map(), url: exchange.url };
      buckets.set(key, bucket);
    }
    bucket.count++;
    const token = authorizationToken(exchange);
    if (token !== undefined) {
      const use = bucket.credentials.get(token);
      if (use) use.count++;
      else bucket.credentials.set(token, { count: 1, firstNumber: exchange.number });
    }
  }

  const chosen = [...byBase].reduce<[string, Bucket] | undefined>((best, candidate) => (!best || candidate[1].count > best[1].count ? candidate : best), undefined);
  if (!chosen) {
    throw new InputError(
      `${file}: none of its ${total} entries is a Pet Store request (GET or POST /pets, GET /pets/{petId}, GET /store/orders under a base URL such as http://host/v1)`,
    );
  }
  const base = new CaptureBase(chosen[0]);
  const credentials = new Map<string, CredentialUse>();
  const otherHosts = new Map<string, number>();
  let exchanges = 0;
  const take = (bucket: Bucket): void => {
    exchanges += bucket.count;
    for (const [token, use] of bucket.credentials) {
      const known = credentials.get(token);
      if (!known) credentials.set(token, { ...use });
      else {
        known.count += use.count;
        known.firstNumber = Math.min(known.firstNumber, use.firstNumber);
      }
    }
  };
  for (const [url, bucket] of byBase) {
    if (url === chosen[0]) take(bucket);
    else count(otherHosts, bucket.url.host, bucket.count);
  }
  for (const bucket of byPath.values()) {
    if (base.below(bucket.url) !== undefined) take(bucket);
    else count(otherHosts, bucket.url.host, bucket.count);
  }
  return { base, exchanges, otherHosts, unanswered, credentials };
}

function count(counts: Map<string, number>, key: string, by: number): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}
