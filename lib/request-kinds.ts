/**
 * Every request the suite sends is of one of three kinds, read off the contract (fixtures/openapi.yaml), never
 * decided by a test:
 * - within the contract: the spec says what happens, and the rule is judged as written;
 * - outside the contract: a parameter the schema refuses or given twice (x-outside-contract: GET /pets/abc,
 *   limit=05, status=sold&status=available), no body where one is required, or a body beyond plain JSON (another
 *   media type, hundreds of kilobytes, a name given twice, deep nesting, a key special in JavaScript runtimes, an
 *   integer written 1e2 or 100.0). Any client error with an Error body is a fitting answer, and so is a success
 *   that is a lenient reading of the request; a server error is not. The GAP rule named there is where the
 *   target's choice is observed;
 * - at a gap: a valid body whose acceptance the spec leaves open (x-acceptance-open: an empty name, category
 *   2^63 - 1). Accepting it exactly or refusing it with 400 and an Error are both fitting; refusing an ordinary
 *   value (a short plain name, category 1) is not.
 */
import { compileSchema, matchOperation, requestShape, resolveSchema, schemaProblems, type ContractSchema, type OperationId } from './contract.ts';
import { tryParseLossless, type LosslessValue } from './lossless-json.ts';

export type RequestKind = 'within' | 'outside' | 'gap';

export interface Classification {
  kind: RequestKind;
  /** The GAP rule where the target's choice is observed (outside or at a gap). */
  gap?: string;
  /** What puts the request there, in a few words ("petId \"abc\" is not an int64"). */
  why?: string;
}

/** A JSON body larger than this is beyond what the contract speaks of: parsers and proxies set their own limits. */
export const LARGEST_PLAIN_BODY = 64 * 1024;
/** Nesting deeper than this is beyond plain JSON: parsers refuse it in their own ways. */
export const DEEPEST_PLAIN_NESTING = 64;

const WITHIN: Classification = { kind: 'within' };
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const INT32 = { min: -(2n ** 31n), max: 2n ** 31n - 1n };

export interface RequestToClassify {
  operation: OperationId;
  method: string;
  /** Below the base URL, query included (/pets/7, /pets?limit=5). */
  path: string;
  contentType?: string;
  body?: string;
}

export function classifyRequest(request: RequestToClassify): Classification {
  const shape = requestShape(request.operation);
  const at = request.path.indexOf('?');
  const pathOnly = at === -1 ? request.path : request.path.slice(0, at);
  const pathParams = matchOperation(request.method, pathOnly)?.pathParams ?? {};
  const query = new URLSearchParams(at === -1 ? '' : request.path.slice(at + 1));
  for (const parameter of shape.parameters) {
    if (parameter.in === 'query' && query.getAll(parameter.name).length > 1 && parameter['x-outside-contract']) {
      return { kind: 'outside', gap: parameter['x-outside-contract'], why: `${parameter.name} given ${query.getAll(parameter.name).length} times` };
    }
    const raw = parameter.in === 'path' ? pathParams[parameter.name] : parameter.in === 'query' ? query.get(parameter.name) : undefined;
    if (raw === undefined || raw === null) continue;
    const text = parameter.in === 'path' ? safeDecode(raw) : raw;
    if (!isCanonical(parameter.schema, text) && parameter['x-outside-contract']) {
      return { kind: 'outside', gap: parameter['x-outside-contract'], why: `${parameter.name} ${JSON.stringify(text.slice(0, 40))} is not ${describeSchema(parameter.schema)}` };
    }
  }
  if (!shape.body) return WITHIN;
  // The contract's requests carry JSON: a request without any body is no request of it, whatever the method.
  if (request.body === undefined) return shape.bodyOutsideContract ? { kind: 'outside', gap: shape.bodyOutsideContract, why: 'a request with no body' } : WITHIN;
  return classifyBody(shape, request.contentType, request.body);
}

function classifyBody(shape: ReturnType<typeof requestShape>, contentType: string | undefined, body: string): Classification {
  const outsideGap = shape.bodyOutsideContract;
  const outside = (why: string): Classification => (outsideGap ? { kind: 'outside', gap: outsideGap, why } : WITHIN);
  if (contentType === undefined) return outside('a body without a Content-Type');
  if (!JSON_MEDIA_TYPE.test(contentType.trim())) return outside(`a body of Content-Type ${contentType}`);
  if (Buffer.byteLength(body) > LARGEST_PLAIN_BODY) return outside(`a body of ${Buffer.byteLength(body).toLocaleString('en')} bytes`);
  const { repeatedName, depth, specialKey, unusualInteger } = jsonShape(body);
  if (repeatedName) return outside(`a body that gives the name ${repeatedName} twice`);
  if (depth > DEEPEST_PLAIN_NESTING) return outside(`a body nested ${depth} levels deep`);
  const value = tryParseLossless(body);
  // Only JSON is read for its keys and spellings: 007 or +5 make a body malformed, which the spec answers 400.
  if (value !== undefined && specialKey) return outside(`a body with the key ${specialKey}, special in JavaScript runtimes`);
  if (value !== undefined && unusualInteger) return outside(`a body with the integer ${unusualInteger.value} written ${unusualInteger.written}`);
  // A body the schema refuses is within the contract: the spec answers it 400, whatever else it holds.
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !shape.bodySchemaName || schemaProblems(shape.bodySchemaName, value).length > 0) return WITHIN;
  const unusual = unusualOpenFields(shape.body!, value);
  return unusual.length === 0 ? WITHIN : { kind: 'gap', gap: unusual[0]!.gap, why: unusual.map((field) => `${field.name} ${describeValue(value[field.name])}`).join(', ') };
}

/** A field whose valid values the spec leaves open to refuse, with the ordinary ones it does not. */
export interface OpenField {
  name: string;
  gap: string;
  isOrdinary(value: LosslessValue): boolean;
  /** An ordinary value, sent in place of a refused one. */
  example: LosslessValue;
}

const openFieldsBySchema = new WeakMap<ContractSchema, OpenField[]>();

export function openFields(raw: ContractSchema): OpenField[] {
  const schema = resolveSchema(raw);
  let fields = openFieldsBySchema.get(schema);
  if (!fields) {
    fields = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
      const open = property['x-acceptance-open'];
      return open ? [{ name, gap: open.gap, isOrdinary: compileSchema(open.ordinary), example: open.example }] : [];
    });
    openFieldsBySchema.set(schema, fields);
  }
  return fields;
}

/** The open fields of a valid body that hold a value other than an ordinary one: what may rightly be refused. */
export function unusualOpenFields(schema: ContractSchema, body: Readonly<Record<string, LosslessValue>>): OpenField[] {
  return openFields(schema).filter((field) => body[field.name] !== undefined && !field.isOrdinary(body[field.name]!));
}

/** Whether `text` is how a careful client writes a value of the schema (7, not 007 or +7). */
export function isCanonical(raw: ContractSchema, text: string): boolean {
  const schema = resolveSchema(raw);
  if (schema.enum) return schema.enum.includes(text);
  if (schema.type === 'integer') {
    if (!CANONICAL_INTEGER.test(text)) return false;
    const { min, max } = rangeOf(schema);
    const value = BigInt(text);
    return value >= min && value <= max;
  }
  return true;
}

export function rangeOf(schema: ContractSchema): { min: bigint; max: bigint } {
  const wide = schema.format === 'int32' ? INT32 : INT64;
  return { min: schema.minimum !== undefined ? BigInt(schema.minimum) : wide.min, max: schema.maximum !== undefined ? BigInt(schema.maximum) : wide.max };
}

/**
 * The integer a lenient reader takes `text` for: 007 and +7 and " 7" and 7.0 and 7e0 and 0x7 are 7. Undefined
 * when no integer reading exists (abc, 1.5): then no success is a fitting answer.
 */
export function lenientInteger(text: string): bigint | undefined {
  const trimmed = text.trim();
  if (/^[+-]?\d+$/.test(trimmed)) return BigInt(trimmed.replace(/^\+/, ''));
  if (/^0x[0-9a-f]+$/i.test(trimmed)) return BigInt(trimmed);
  const decimal = /^([+-]?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(trimmed);
  if (!decimal) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = decimal;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > 400) return undefined;
  const digits = `${whole}${fraction}`;
  const point = whole!.length + exponent;
  if (point < 0 || /[1-9]/.test(digits.slice(Math.max(point, 0)))) return undefined;
  const integerDigits = point >= digits.length ? digits + '0'.repeat(point - digits.length) : digits.slice(0, point);
  return BigInt(`${sign === '-' ? '-' : ''}${integerDigits || '0'}`);
}

function describeSchema(raw: ContractSchema): string {
  const schema = resolveSchema(raw);
  if (schema.enum) return `one of ${schema.enum.join(', ')}`;
  if (schema.type === 'integer') {
    const { min, max } = rangeOf(schema);
    const named = schema.minimum === undefined && schema.maximum === undefined;
    return named ? `an ${schema.format ?? 'integer'} written plainly` : `an integer from ${min} to ${max} written plainly`;
  }
  return `a ${schema.type ?? 'value'}`;
}

function describeValue(value: LosslessValue | undefined): string {
  if (typeof value === 'string') return value.length > 30 ? `of ${value.length} characters` : JSON.stringify(value);
  return String(value);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Keys a JavaScript runtime reads as more than data (prototype pollution, OWASP's mass assignment): a parser
 * that assigns them, or a merge that follows them, changes objects the body never named.
 */
export const RUNTIME_SPECIAL_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];
const SPECIAL_KEYS = new Set(RUNTIME_SPECIAL_KEYS.map((key) => JSON.stringify(key)));
const JSON_NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * What a JSON text holds beyond its value: the first name an object gives twice (as written), how deep it
 * nests, the first key special in JavaScript runtimes, and the first integer written otherwise than plainly
 * (1e2, 100.0, -0: the same value to JSON, another text to a parser that reads integers only). A scan of the
 * text, as parsers that keep the last of two names never show it.
 */
export function jsonShape(text: string): { repeatedName: string | undefined; depth: number; specialKey: string | undefined; unusualInteger: { written: string; value: bigint } | undefined } {
  const open: Array<Set<string> | undefined> = [];
  let depth = 0;
  let repeatedName: string | undefined;
  let specialKey: string | undefined;
  let unusualInteger: { written: string; value: bigint } | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const name = text.slice(at, end + 1);
      at = end;
      let next = end + 1;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      const names = open.at(-1);
      if (text[next] === ':' && names) {
        if (names.has(name)) repeatedName ??= name;
        names.add(name);
        if (SPECIAL_KEYS.has(name)) specialKey ??= name;
      }
    } else if (char === '{' || char === '[') {
      open.push(char === '{' ? new Set() : undefined);
      depth = Math.max(depth, open.length);
    } else if (char === '}' || char === ']') {
      open.pop();
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      JSON_NUMBER.lastIndex = at;
      const written = JSON_NUMBER.exec(text)?.[0];
      if (!written) continue;
      at += written.length - 1;
      const value = CANONICAL_INTEGER.test(written) ? undefined : lenientInteger(written);
      if (value !== undefined) unusualInteger ??= { written, value };
    }
  }
  return { repeatedName, depth, specialKey, unusualInteger };
}
