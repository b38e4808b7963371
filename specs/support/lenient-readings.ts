/**
 * A success answering a request outside the contract fits only when it is what a lenient reading of the same
 * request means: GET /pets/007 may answer pet 7, never pet 8 or a pet an id past int64 wrapped onto; a list
 * with limit=05 may hold 5 animals (or the default page's 20, the value ignored), never more; a list with
 * status=sold given twice holds sold animals only. Shared by the
 * generated and the hand-written tests, so both judge such successes alike.
 */
import { RULE } from '../../lib/checks/registry.ts';
import { isCanonical, lenientInteger, requestShape, resolveSchema } from '../../lib/contract.ts';
import { idText, type LosslessValue } from '../../lib/lossless-json.ts';
import { PAGE_SIZE } from '../../lib/page-size.ts';
import type { Exchange } from './exchange.ts';
import type { Problem } from './generated/property.ts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** What is wrong with a 200 to GET /pets/{text}, for a `text` outside the contract; undefined when it fits. */
export function petIdSuccessProblem(text: string, exchange: Exchange): Problem | undefined {
  if (exchange.response.status !== 200) return undefined;
  const got = idText((exchange.json as Record<string, LosslessValue> | undefined)?.id ?? null) ?? 'without an id';
  const reading = lenientInteger(text);
  if (reading === undefined || reading < INT64_MIN || reading > INT64_MAX) {
    return { rule: RULE['large-id-exact'], message: `expected a client error for /pets/${JSON.stringify(text)}, which names no int64, got 200 with pet ${got} (an id wrapped or rounded onto another pet)` };
  }
  return got === String(reading) ? undefined : { rule: RULE['large-id-exact'], message: `expected pet ${reading} (read leniently from ${JSON.stringify(text)}) or a client error, got 200 with pet ${got}` };
}

const listParameters = requestShape('listPets').parameters;
const limitSchema = listParameters.find((parameter) => parameter.name === 'limit')!.schema;
const statusSchema = resolveSchema(listParameters.find((parameter) => parameter.name === 'status')!.schema);

/** A list query as sent: a parameter given twice carries its values in order. */
export type SentQuery = Readonly<Record<string, string | readonly string[]>>;

/**
 * What is wrong with a 200 to GET /pets with `query`: a limit outside the contract (05, or given twice) may be
 * read leniently (05 as 5, clamped into 1..100, either of two values) or ignored (the default page); a status
 * outside it read leniently (Sold as sold) or ignored. A canonical value holds as written, and so do canonical
 * values given twice: every reading of ?status=sold&status=pending (the first, the last, either) filters, so
 * an answer with an available pet answers a request that asked for no filter.
 */
export function listSuccessProblems(query: SentQuery, exchange: Exchange): Problem[] {
  if (exchange.response.status !== 200 || !Array.isArray(exchange.json)) return [];
  const pets = exchange.json as Array<Record<string, LosslessValue>>;
  const problems: Problem[] = [];
  const asked = JSON.stringify(query);
  const limits = valuesOf(query.limit);
  const plainLimit = limits.length === 1 && isCanonical(limitSchema, limits[0]!);
  const bound = limits.length === 0 ? PAGE_SIZE.default : plainLimit ? Number(limits[0]) : Math.max(...limits.map(lenientBound));
  if (pets.length > bound) {
    problems.push({ rule: limits.length === 0 ? RULE['list-default-page'] : bound >= PAGE_SIZE.maximum ? RULE['list-largest-page'] : RULE['list-asked-page'], message: `expected at most ${bound} animals for ${asked}${limits.length > 0 && !plainLimit ? ' (its limit read leniently, clamped, or ignored)' : ''}, got ${pets.length}` });
  }
  const statuses = valuesOf(query.status);
  // A status outside the contract may also be ignored: only canonical ones must filter.
  if (statuses.length > 0 && statuses.every((status) => isCanonical(statusSchema, status))) {
    const other = pets.find((pet) => typeof pet.status !== 'string' || !statuses.includes(pet.status));
    const wanted = [...new Set(statuses)].join(' or ');
    if (other) problems.push({ rule: RULE['list-status-filter'], message: `expected only ${wanted} animals for ${asked}${statuses.length > 1 ? ' (each reading of the repeated filter filters)' : ''}, got ${idText(other.id ?? null) ?? 'a pet'} with status ${JSON.stringify(other.status)}` });
  }
  return problems;
}

function valuesOf(value: string | readonly string[] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}

/** The most animals a lenient reading of a limit outside the contract allows: the value clamped into range, or the default when ignored. */
function lenientBound(text: string): number {
  const reading = lenientInteger(text);
  const clamped = reading === undefined ? PAGE_SIZE.default : Number(reading < BigInt(PAGE_SIZE.minimum) ? BigInt(PAGE_SIZE.minimum) : reading > BigInt(PAGE_SIZE.maximum) ? BigInt(PAGE_SIZE.maximum) : reading);
  return Math.max(clamped, PAGE_SIZE.default);
}
