/**
 * Reading what a client sent into values the routes can trust, each problem becoming one sentence that names
 * the field. Schemas come from the contract (lib/contract.ts); bodies are parsed losslessly so an int64
 * beyond 2^53 is judged (and echoed) exactly rather than rounded.
 */
import { schemaProblems } from '../lib/contract.ts';
import { JsonSyntaxError, parseLossless, type LosslessValue } from '../lib/lossless-json.ts';
import { PAGE_SIZE } from '../lib/page-size.ts';
import { DEFAULT_STATUS, type NewPetInput, type PetStatus } from './pet.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (problem: string): Parsed<never> => ({ ok: false, problem });

export interface ListQuery {
  limit: number;
  status: PetStatus | undefined;
}

const DIGITS = /^\d{1,3}$/;

/** The query of GET /pets. Parameters the operation does not have are ignored. */
export function parseListQuery(search: string): Parsed<ListQuery> {
  const query = new URLSearchParams(search);
  const limits = query.getAll('limit');
  const statuses = query.getAll('status');
  if (limits.length > 1) return bad('limit must be given at most once');
  if (statuses.length > 1) return bad('status must be given at most once');

  let limit = PAGE_SIZE.default;
  const limitText = limits[0];
  if (limitText !== undefined) {
    limit = DIGITS.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= PAGE_SIZE.minimum && limit <= PAGE_SIZE.maximum)) {
      return bad(`limit must be a whole number from ${PAGE_SIZE.minimum} to ${PAGE_SIZE.maximum}, got ${JSON.stringify(limitText)}`);
    }
  }

  const status = statuses[0];
  if (status !== undefined) {
    const problems = schemaProblems('PetStatus', status);
    if (problems.length > 0) return bad(`status ${problems[0]?.replace(/^value /, '')}, got ${JSON.stringify(status)}`);
  }
  return ok({ limit, status: status as PetStatus | undefined });
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INTEGER = /^-?\d{1,25}$/;

/** petId of GET /pets/{petId} as an exact int64. */
export function parsePetId(text: string): Parsed<bigint> {
  const id = INTEGER.test(text) ? BigInt(text) : undefined;
  if (id === undefined || id < INT64_MIN || id > INT64_MAX) {
    return bad(`petId must be an int64 (a whole number from ${INT64_MIN} to ${INT64_MAX}), got ${JSON.stringify(truncate(text))}`);
  }
  return ok(id);
}

const JSON_MEDIA_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** Content-Type of a request body: application/json, with no charset or UTF-8. */
export function checkJsonContentType(contentType: string | undefined): Parsed<true> {
  if (contentType === undefined || contentType.trim() === '') return bad('Content-Type must be application/json; the request has none');
  if (!JSON_MEDIA_TYPE.test(contentType.trim())) return bad(`Content-Type must be application/json (UTF-8), got ${JSON.stringify(truncate(contentType))}`);
  return ok(true);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body of POST /pets as a NewPet. Fields NewPet does not have, a client-supplied id among them, are
 * ignored: the service assigns ids. A missing status becomes the default status.
 */
export function parseNewPet(body: Uint8Array): Parsed<NewPetInput> {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return bad('the request body is not valid UTF-8');
  }
  if (text.trim() === '') return bad('the request body is required: a JSON object with name and categoryId');
  let value: LosslessValue;
  try {
    value = parseLossless(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return bad(`the request body is not valid JSON: ${error.message}`);
    return bad('the request body is not valid JSON: it is nested too deeply');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return bad(`the request body must be a JSON object with name and categoryId, got ${describe(value)}`);
  }
  const problems = schemaProblems('NewPet', value);
  const categoryId = value.categoryId;
  if (problems.length === 0 && typeof categoryId === 'number' && !Number.isSafeInteger(categoryId)) {
    // 1e18 or 9007199254740993.0: integral as a double, but the digits the client meant may already be lost.
    problems.push(
      Math.abs(categoryId) >= 2 ** 63
        ? 'categoryId is outside the int64 range'
        : 'categoryId beyond 2^53 must be written as a plain integer (no exponent or fraction)',
    );
  }
  if (problems.length > 0) return bad(problems.join('; '));
  return ok({
    name: value.name as string,
    categoryId: categoryId as number | bigint,
    status: (value.status as PetStatus | undefined) ?? DEFAULT_STATUS,
  });
}

function describe(value: LosslessValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value === 'bigint' ? 'number' : typeof value}`;
}

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
