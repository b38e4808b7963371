/**
 * Servers that choose differently where the spec lets them, and so must pass the suite: each is the
 * reference server with one choice changed, in-process (a store or a limiter swapped in) or through the
 * fault proxy (an exchange edited on the way).
 */
import { idText, parseLossless, stringifyLossless, type LosslessValue } from '../../../lib/lossless-json.ts';
import { PetStore } from '../../../reference-server/store.ts';
import type { PetStatus } from '../../../reference-server/pet.ts';
import type { ExchangeTransform } from '../../support/fault-proxy.ts';
import { editJsonBody, eachPet, isErrorBody, isObject, operationOf, pathOf, queryOf, withQuery } from './exchange-edits.ts';

export interface LegitimateVariant {
  id: string;
  /** What the server does differently, for the table. */
  description: string;
  /** The gap (or freedom) of the spec it uses. */
  freedom: string;
}

/** Lists animals newest first: the spec documents no order (LIST-GAP-3). */
export class NewestFirstStore extends PetStore {
  override list(limit: number, status?: PetStatus): ReturnType<PetStore['list']> {
    const all = super.list(Number.MAX_SAFE_INTEGER, status);
    return all.slice(Math.max(0, all.length - limit)).reverse();
  }
}

/** Ids handed out from 2^60 on: int64, above 2^53, so a client that rounds ids to doubles loses the pet. */
export const BIG_ID_OFFSET = 2n ** 60n;

/**
 * Rewrites every id the upstream hands out to id + 2^60, and every id a client sends back the other way.
 * An id a client makes up below 2^60 is one this server never handed out: it is sent on as 0, which no pet has.
 */
export function bigIds(): ExchangeTransform {
  const INT64_MAX = 2n ** 63n - 1n;
  return {
    request(request) {
      const path = pathOf(request);
      const match = /^\/v1\/pets\/(\d+)$/.exec(path);
      if (!match) return request;
      const id = BigInt(match[1]!);
      const upstreamId = id >= BIG_ID_OFFSET && id <= INT64_MAX ? id - BIG_ID_OFFSET : id > INT64_MAX ? id : 0n;
      return { ...request, path: request.path.replace(path, `/v1/pets/${upstreamId}`) };
    },
    response(response) {
      const location = response.headers.location;
      const headers = location ? { ...response.headers, location: location.replace(/\/pets\/(\d+)$/, (_, id: string) => `/pets/${BigInt(id) + BIG_ID_OFFSET}`) } : response.headers;
      const shifted = response.status < 300 ? editJsonBody(response, (body) => eachPet(body, (pet) => ({ ...pet, id: shift(pet.id) }))) : response;
      return { ...shifted, headers };
    },
  };
}

function shift(id: LosslessValue | undefined): LosslessValue {
  if (typeof id === 'number' && Number.isInteger(id)) return BigInt(id) + BIG_ID_OFFSET;
  if (typeof id === 'bigint') return id + BIG_ID_OFFSET;
  return id ?? null;
}

/** Adds fields the contract does not list to every JSON object the server sends (pets and errors alike). */
export function extraFields(): ExchangeTransform {
  let serial = 0;
  return {
    response(response) {
      const trace = `trace-${++serial}`;
      if (isErrorBody(response)) {
        return editJsonBody(response, (body) => (isObject(body) ? { ...body, traceId: trace, details: [{ hint: 'see the documentation' }] } : body));
      }
      return editJsonBody(response, (body) =>
        eachPet(body, (pet) => ({ ...pet, createdAt: '2026-11-22T00:00:00Z', tags: ['friendly'], _links: { self: { href: `/v1/pets/${String(pet.id)}` } } })),
      );
    },
  };
}

/** Sends Retry-After as an HTTP-date (RFC 9110 section 10.2.3), rounded up to the next whole second. */
export function retryAfterAsDate(): ExchangeTransform {
  return {
    response(response) {
      const seconds = response.headers['retry-after'];
      if (response.status !== 429 || seconds === undefined || !/^\d+$/.test(seconds)) return response;
      const at = Math.ceil((Date.now() + Number(seconds) * 1000) / 1000) * 1000;
      return { ...response, headers: { ...response.headers, 'retry-after': new Date(at).toUTCString() } };
    },
  };
}

/** Error codes of its own: the spec shows no set of values for `code` (ERR-GAP-2). */
export function ownErrorCodes(): ExchangeTransform {
  return {
    response(response) {
      if (!isErrorBody(response)) return response;
      return editJsonBody(response, (body) => (isObject(body) ? { ...body, code: `PS-${response.status}-${String(body.code ?? 'x').toUpperCase()}` } : body));
    },
  };
}

/** Clamps an out-of-range `limit` into 1..100 instead of rejecting it: the spec shows no answer for it (LIST-GAP-2). */
export function clampedLimit(): ExchangeTransform {
  return {
    request(request) {
      if (operationOf(request) !== 'listPets') return request;
      const query = queryOf(request);
      const limit = query.get('limit');
      if (limit === null || !/^-?\d+$/.test(limit)) return request;
      const value = Number(limit);
      if (value >= 1 && value <= 100) return request;
      query.set('limit', String(Math.min(100, Math.max(1, value))));
      return withQuery(request, query);
    },
  };
}

/** The categories `knownCategoriesOnly` says exist. */
export const KNOWN_CATEGORIES = 1_000n;

/**
 * Refuses a pet whose categoryId is not one of its categories (1 to 1,000) with 400 and an Error, as a store that
 * checks categories would: which categories exist the spec does not say (RES-GAP-1). The upstream answers the
 * refusal itself (the categoryId is sent on as text it refuses), so the 400 carries every header a 400 does.
 */
export function knownCategoriesOnly(): ExchangeTransform {
  return {
    request(request) {
      if (operationOf(request) !== 'createPet') return request;
      let body: LosslessValue;
      try {
        body = parseLossless(request.body);
      } catch {
        return request;
      }
      if (!isObject(body) || body.categoryId === undefined) return request;
      const category = idText(body.categoryId);
      if (category !== undefined && BigInt(category) >= 1n && BigInt(category) <= KNOWN_CATEGORIES) return request;
      return { ...request, body: stringifyLossless({ ...body, categoryId: `no category ${String(category ?? body.categoryId)}` }) };
    },
  };
}

/**
 * Another client of the same service, creating pets of every status and listing them while the suite runs,
 * with a key of its own. Returns a stop function that resolves once its last request has finished.
 */
export function otherClients(baseUrl: string, key: string, everyMs = 40): { stop(): Promise<number> } {
  const statuses = ['available', 'pending', 'sold'] as const;
  let stopped = false;
  let created = 0;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      try {
        const response = await fetch(`${baseUrl}/pets`, {
          method: 'POST',
          headers,
          body: stringifyLossless({ name: `neighbour ${i}`, categoryId: 1 + (i % 7), status: statuses[i % 3]! }),
        });
        if (response.status === 201) created++;
        await response.arrayBuffer();
        if (i % 5 === 0) await (await fetch(`${baseUrl}/pets?limit=100`, { headers })).arrayBuffer();
      } catch {
        // The upstream is going away at the end of the run; the other client just stops.
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return created;
    },
  };
}
