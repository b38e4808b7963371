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

const DEFAULT_QUERY: Parsed<ListQuery> = ok({ limit: PAGE_SIZE.default, status: undefined });

/** The query of GET /pets. Parameters the operation does not have are ignored. */
export function parseListQuery(search: string): Parsed<ListQuery> {
  if (search === '') return DEFAULT_QUERY;
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
  if (nestingDepth(text) > MAX_NESTING) return bad(`the request body is nested deeper than ${MAX_NESTING} levels`);
  let value: LosslessValue;
  try {
    value = parseLossless(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return bad(`the request body is not valid JSON: ${error.message}`);
    throw error;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return bad(`the request body must be a JSON object with name and categoryId, got ${describe(value)}`);
  }
  const categoryId = value.categoryId;
  const inexact = inexactInteger(categoryId);
  const problems = schemaProblems('NewPet', value).filter((problem) => !inexact || !problem.startsWith('categoryId '));
  if (inexact) problems.push(`categoryId ${inexact}`);
  if (problems.length > 0) return bad(problems.join('; '));
  return ok({
    name: value.name as string,
    categoryId: categoryId as number | bigint,
    status: (value.status as PetStatus | undefined) ?? DEFAULT_STATUS,
  });
}

/** Parsing and validating recurse; a NewPet needs two levels, so a body nested far deeper is refused up front. */
const MAX_NESTING = 32;

/** How deeply arrays and objects nest in JSON text (brackets inside strings do not count). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}

/**
 * A number the lossless parse could not keep exact: written with an exponent or fraction (1e19, 1e400,
 * 9007199254740993.0) and beyond 2^53, where the digits the client meant may already be lost.
 */
function inexactInteger(value: LosslessValue | undefined): string | undefined {
  if (typeof value !== 'number' || Number.isSafeInteger(value) || (Number.isFinite(value) && !Number.isInteger(value))) return undefined;
  return Math.abs(value) >= 2 ** 63 ? 'is outside the int64 range' : 'beyond 2^53 must be written as a plain integer (no exponent or fraction)';
}

function describe(value: LosslessValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value === 'bigint' ? 'number' : typeof value}`;
}

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
