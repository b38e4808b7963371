/**
 * Servers that choose differently where the spec lets them, and so must pass the suite: each is the
 * reference server with one choice changed, in-process (a store or a limiter swapped in) or through the
 * fault proxy (an exchange edited on the way).
 */
import { idText, stringifyLossless, tryParseLossless, type LosslessValue } from '../../../lib/lossless-json.ts';
import { PetStore } from '../../../reference-server/store.ts';
import type { PetStatus } from '../../../reference-server/pet.ts';
import type { ExchangeTransform, ProxyRequest, ProxyResponse } from '../../support/fault-proxy.ts';
import { BASE_PATH, editJsonBody, eachPet, isErrorBody, isObject, operationOf, pathOf, petIdOf, queryOf, withQuery, type JsonObject } from './exchange-edits.ts';

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

/**
 * Sends the standard fields of draft-ietf-httpapi-ratelimit-headers beside X-RateLimit-*, saying the same: one
 * policy whose quota is the X-RateLimit-Limit, and what is left of it (r) and the seconds until it resets (t).
 */
export function standardRateLimitFields(): ExchangeTransform {
  return {
    response(response) {
      const { 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': reset } = response.headers;
      if (limit === undefined || remaining === undefined || reset === undefined || !/^\d+$/.test(reset)) return response;
      const seconds = Math.max(0, Number(reset) - Math.round(Date.now() / 1000));
      return { ...response, headers: { ...response.headers, 'ratelimit-policy': `"quota";q=${limit}`, ratelimit: `"quota";r=${remaining};t=${seconds}` } };
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

/** The categories `knownCategoriesOnly` says exist by default. */
export const KNOWN_CATEGORIES = 1_000n;

/**
 * Refuses a pet whose categoryId is not one of its categories (1 to `known`) with 400 and an Error, as a store
 * that checks categories would: which categories exist the spec does not say (RES-GAP-1).
 */
export function knownCategoriesOnly(known: bigint = KNOWN_CATEGORIES): () => ExchangeTransform {
  return () => ({
    request(request) {
      const body = createdPetOf(request);
      if (!body || body.categoryId === undefined) return request;
      const category = idText(body.categoryId);
      if (category !== undefined && BigInt(category) >= 1n && BigInt(category) <= known) return request;
      return refusedUpstream(request, 400, 'unknown_category');
    },
    response: answerRefusal,
  });
}

/** The NewPet a POST /pets carries, when it carries a JSON object. */
function createdPetOf(request: ProxyRequest): JsonObject | undefined {
  if (operationOf(request) !== 'createPet') return undefined;
  const body = tryParseLossless(request.body);
  return isObject(body) ? body : undefined;
}

const REFUSAL_HEADER = 'x-variant-refusal';

/**
 * Sends the request on as one the upstream refuses (a name that is not a string), marked with the status and
 * code the variant answers instead: the refusal then carries every header the upstream gives a 400.
 */
function refusedUpstream(request: ProxyRequest, status: number, code: string): ProxyRequest {
  return { ...request, headers: { ...request.headers, 'content-type': 'application/json', [REFUSAL_HEADER]: `${status} ${code}` }, body: '{"name":0,"categoryId":1}' };
}

/** Gives a refusal marked by refusedUpstream the variant's own status and code. */
function answerRefusal(response: ProxyResponse, request: ProxyRequest): ProxyResponse {
  const mark = request.headers[REFUSAL_HEADER];
  if (!mark || response.status !== 400) return response;
  const [status, code] = mark.split(' ');
  return asError(response, Number(status), code!);
}

function asError(response: ProxyResponse, status: number, code: string): ProxyResponse {
  const edited = editJsonBody(response, (body) => (isObject(body) ? { ...body, status, code } : body));
  return { ...edited, status };
}

/** What `limitedNames` refuses: names a store with its own rules on names would not take (RES-GAP-2). */
const REFUSED_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/^\s*$/u, 'name_empty'],
  [/^[\s\S]{101,}$/u, 'name_too_long'],
  [/[\u0000-\u001f\u007f]/u, 'name_control_characters'],
  [/^\s|\s$/u, 'name_surrounding_spaces'],
  // A database whose text columns hold only the Basic Multilingual Plane (MySQL's utf8mb3).
  [/[\u{10000}-\u{10FFFF}]/u, 'name_unsupported_characters'],
];

/** Refuses with 400 and an Error a name that is empty or blank, over 100 characters, with control characters, surrounding spaces or characters outside the BMP. */
export function limitedNames(): ExchangeTransform {
  return {
    request(request) {
      const body = createdPetOf(request);
      if (!body || typeof body.name !== 'string') return request;
      const name = body.name;
      const refusal = REFUSED_NAMES.find(([pattern]) => pattern.test(name));
      return refusal ? refusedUpstream(request, 400, refusal[1]) : request;
    },
    response: answerRefusal,
  };
}

/**
 * Answers a petId that is not an int64 with `status` and an Error where the upstream answers 404 (as its route
 * finds no pet): 400 as express-openapi-validator or Spring, 422 as FastAPI; with `lenient`, +5, " 5" and 5.0
 * are read as pet 5 first, as a lax integer parser does.
 */
export function malformedIdsAnswered(status: 400 | 422, lenient = false): ExchangeTransform {
  return {
    request(request) {
      const id = operationOf(request) === 'getPet' ? petIdOf(request) : undefined;
      const reading = lenient && id !== undefined ? /^\s*\+?(\d+)(?:\.0+)?\s*$/.exec(id)?.[1] : undefined;
      return reading === undefined ? request : { ...request, path: request.path.replace(pathOf(request), `${BASE_PATH}/pets/${reading}`) };
    },
    response(response, request) {
      const id = operationOf(request) === 'getPet' ? petIdOf(request) : undefined;
      if (id === undefined || response.status !== 404 || isInt64Text(id)) return response;
      return asError(response, status, 'validation_error');
    },
  };
}

function isInt64Text(text: string): boolean {
  return /^-?(0|[1-9]\d*)$/.test(text) && BigInt(text) >= -(2n ** 63n) && BigInt(text) < 2n ** 63n;
}

/**
 * FastAPI's answers to requests outside the contract: 422 for a query value of the wrong type, 415 for a body
 * that is not JSON or no body at all, 413 for one over 64 KiB, each with an Error; a status filter read
 * case-insensitively.
 */
export function frameworkRefusals(): ExchangeTransform {
  return {
    request(request) {
      if (operationOf(request) === 'listPets') {
        const query = queryOf(request);
        const status = query.get('status');
        const folded = status?.trim().toLowerCase();
        if (status !== null && folded !== undefined && folded !== status && ['available', 'pending', 'sold'].includes(folded)) {
          query.set('status', folded);
          return withQuery(request, query);
        }
        return request;
      }
      if (operationOf(request) !== 'createPet') return request;
      if (Buffer.byteLength(request.body) > 64 * 1024) return refusedUpstream(request, 413, 'payload_too_large');
      const type = request.headers['content-type'];
      // No body at all is no JSON either: 415, as express-openapi-validator answers it.
      if (!/^application\/json\s*(;|$)/i.test(type ?? '')) return refusedUpstream(request, 415, 'unsupported_media_type');
      return request;
    },
    response(response, request) {
      if (operationOf(request) === 'listPets' && response.status === 400) return asError(response, 422, 'validation_error');
      return answerRefusal(response, request);
    },
  };
}

const RUNTIME_KEY = /"(__proto__|constructor|prototype|toString|valueOf|hasOwnProperty)"\s*:/;
const SPELLED_INTEGER = /:\s*(-0|-?\d+\.\d+|-?\d+(\.\d+)?[eE][+-]?\d+)\s*[,}\]]/;
const LARGEST_DOUBLE_INTEGER = 2n ** 53n - 1n;

/**
 * A strict JSON front, as Fastify's schema or a web application firewall: refuses with 400 and an Error a body
 * with a key special in JavaScript runtimes or an integer written 1e2, 100.0 or -0 (outside the contract,
 * CREATE-GAP-2), and a categoryId beyond 2^53 - 1, which its parser's doubles cannot hold (which categories exist
 * is not shown, RES-GAP-1).
 */
export function strictJsonRefusals(): ExchangeTransform {
  return {
    request(request) {
      if (operationOf(request) !== 'createPet') return request;
      if (RUNTIME_KEY.test(request.body) || SPELLED_INTEGER.test(request.body)) return refusedUpstream(request, 400, 'FST_ERR_VALIDATION');
      const category = idText(createdPetOf(request)?.categoryId);
      const beyondDoubles = category !== undefined && (BigInt(category) > LARGEST_DOUBLE_INTEGER || BigInt(category) < -LARGEST_DOUBLE_INTEGER);
      return beyondDoubles ? refusedUpstream(request, 400, 'FST_ERR_VALIDATION') : request;
    },
    response: answerRefusal,
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

/**
 * Another party (an admin, the store-orders area) sells every pet the moment its creation has been answered: the
 * creation's 201 shows the status sent, and every answer after it shows the pet sold. getPet answers it sold, a list
 * by its old status leaves it out, one by sold holds it where the page has room, and one without a filter shows it
 * sold. The spec shows no transitions (STATE-GAP-1), so a server whose pets are moved so conforms.
 */
export function soldByAnotherParty(): ExchangeTransform {
  /** Every pet created through this server, as created but sold, by id. */
  const sold = new Map<string, JsonObject>();
  const asSold = (pet: LosslessValue): LosslessValue => (isObject(pet) && sold.has(idText(pet.id) ?? '') ? { ...pet, status: 'sold' } : pet);
  return {
    response(response, request) {
      const operation = operationOf(request);
      if (operation === 'createPet' && response.status === 201) {
        const pet = tryParseLossless(response.body);
        const id = isObject(pet) ? idText(pet.id) : undefined;
        if (id !== undefined) sold.set(id, { ...(pet as JsonObject), status: 'sold' });
        return response;
      }
      if (response.status !== 200 || (operation !== 'getPet' && operation !== 'listPets')) return response;
      return editJsonBody(response, (body) => {
        if (!Array.isArray(body)) return asSold(body);
        const query = queryOf(request);
        const status = query.get('status');
        const listed = body.map(asSold).filter((pet) => status === null || !isObject(pet) || !sold.has(idText(pet.id) ?? '') || pet.status === status);
        if (status !== 'sold') return listed;
        const limit = Number(query.get('limit') ?? 20);
        const shown = new Set(listed.map((pet) => (isObject(pet) ? idText(pet.id) : undefined)));
        for (const [id, pet] of sold) if (listed.length < limit && !shown.has(id)) listed.push(pet);
        return listed;
      });
    },
  };
}

/**
 * A gateway in front of a single worker: it forwards one request at a time, each once the one before it was
 * answered, so the server behind never has two creates at once, whatever the client sends together. (A request
 * the upstream never answers would hold up the rest: the reference server answers every one.)
 */
export function oneAtATime(): ExchangeTransform {
  let turns: Promise<void> = Promise.resolve();
  const turnOver = new WeakMap<ProxyRequest, () => void>();
  return {
    async request(request) {
      const before = turns;
      let over = (): void => {};
      turns = new Promise((resolve) => (over = resolve));
      await before;
      const forwarded = { ...request };
      turnOver.set(forwarded, over);
      return forwarded;
    },
    response(response, request) {
      turnOver.get(request)?.();
      return response;
    },
  };
}
