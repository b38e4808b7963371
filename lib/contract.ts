/**
 * The interface contract (fixtures/openapi.yaml), loaded and compiled once per process.
 * Suite, reference server and replay harness all ask it the same questions: which operation is this
 * request, where does it stand against the contract (within it, outside it, at a gap: below), is this response
 * one the contract allows, is this body a valid NewPet.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import * as compiled from './generated/contract-validators.ts';
import { ordinaryKey, schemasDigest } from './contract-digest.ts';
import { readFixtureYaml } from './fixtures.ts';
import { JsonBody } from './json-body.ts';
import type { LosslessValue } from './lossless-json.ts';

export const OPERATION_IDS = ['listPets', 'createPet', 'getPet', 'listOrders'] as const;
export type OperationId = (typeof OPERATION_IDS)[number];

export interface Operation {
  id: OperationId;
  method: 'GET' | 'POST';
  /** Path below the base URL, as in the contract: /pets/{petId}. */
  pathTemplate: string;
  deprecated: boolean;
  sunset: string | undefined;
  stability: string | undefined;
  /** Documented response statuses, 401 and 429 included. */
  statuses: ReadonlySet<number>;
}

interface OpenApiResponse {
  $ref?: string;
  content?: { 'application/json'?: { schema?: unknown } };
}
/** The part of JSON Schema the contract uses; what request generators read. */
export interface ContractSchema {
  $ref?: string;
  type?: 'object' | 'string' | 'integer' | 'array' | 'number' | 'boolean';
  format?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  required?: string[];
  properties?: Record<string, ContractSchema>;
  items?: ContractSchema;
  /** A field whose values the spec leaves open to refuse (below). */
  'x-acceptance-open'?: AcceptanceOpen;
}

/** Where the spec leaves a valid value's acceptance open: which gap, and the values every service must accept. */
export interface AcceptanceOpen {
  gap: string;
  /** A schema of the ordinary values: a refusal of one of them breaks the rule, not the gap. */
  ordinary: object;
  /** An ordinary value, to send in place of a refused one. */
  example: string | number;
}

export interface ContractParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema: ContractSchema;
  /** The GAP rule where the answer to a value the schema refuses is observed: such a request is outside the contract. */
  'x-outside-contract'?: string;
}

interface OpenApiOperation {
  operationId: string;
  parameters?: ContractParameter[];
  requestBody?: { required?: boolean; 'x-outside-contract'?: string; content?: { 'application/json'?: { schema?: ContractSchema } } };
  deprecated?: boolean;
  'x-sunset'?: string;
  'x-stability'?: string;
  responses: Record<string, OpenApiResponse>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, object>; responses: Record<string, OpenApiResponse> };
}

const document = readFixtureYaml('openapi.yaml') as OpenApiDocument;

/*
 * The schemas' validators, compiled ahead by ajv (npm run contract:validators): compiling them here took ajv's
 * compiler, 86 modules, at every process's start-up. Compiled from other schemas than these, they are refused.
 */
if (compiled.SCHEMAS_DIGEST !== schemasDigest(document.components.schemas)) {
  throw new Error('fixtures/openapi.yaml: its schemas changed since lib/generated/contract-validators.ts was compiled from them: run npm run contract:validators');
}

/** A compiled schema, as ajv makes it: true for a valid value; else false, with what was wrong in `errors`. */
interface Validator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

function schemaValidator(name: string): Validator {
  const validate = (compiled as Record<string, unknown>)[name];
  if (typeof validate !== 'function') throw new Error(`fixtures/openapi.yaml: schema ${name} is missing`);
  return validate as Validator;
}

const validators = {
  NewPet: schemaValidator('NewPet'),
  Pet: schemaValidator('Pet'),
  Pets: schemaValidator('Pets'),
  Error: schemaValidator('Error'),
  PetStatus: schemaValidator('PetStatus'),
} as const;

export type SchemaName = keyof typeof validators;

/** A schema of components/schemas as the contract states it. */
export function componentSchema(name: SchemaName): ContractSchema {
  return document.components.schemas[name] as ContractSchema;
}

function resolveResponse(response: OpenApiResponse): OpenApiResponse {
  if (!response.$ref) return response;
  const name = response.$ref.replace('#/components/responses/', '');
  const resolved = document.components.responses[name];
  if (!resolved) throw new Error(`fixtures/openapi.yaml: response ${name} is missing`);
  return resolved;
}

/** The named schema a documented response body must match, or undefined where any JSON is allowed. */
function responseSchema(response: OpenApiResponse): SchemaName | undefined {
  const schema = resolveResponse(response).content?.['application/json']?.schema as { $ref?: string } | undefined;
  const name = schema?.$ref?.replace('#/components/schemas/', '');
  return name && name in validators ? (name as SchemaName) : undefined;
}

const bodySchemas = new Map<string, SchemaName | undefined>();

function loadOperations(): Operation[] {
  const operations: Operation[] = [];
  for (const [pathTemplate, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const id = operation.operationId as OperationId;
      if (!OPERATION_IDS.includes(id)) throw new Error(`fixtures/openapi.yaml: unexpected operation ${id}`);
      for (const [status, response] of Object.entries(operation.responses)) bodySchemas.set(`${id} ${status}`, responseSchema(response));
      operations.push({
        id,
        method: method.toUpperCase() as Operation['method'],
        pathTemplate,
        deprecated: operation.deprecated === true,
        sunset: operation['x-sunset'],
        stability: operation['x-stability'],
        statuses: new Set(Object.keys(operation.responses).map(Number)),
      });
    }
  }
  return operations;
}

export const operations: readonly Operation[] = loadOperations();

/** A schema of components/schemas with its $ref (one level) resolved: what a generator builds values from. */
export function resolveSchema(schema: ContractSchema): ContractSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const resolved = document.components.schemas[name] as ContractSchema | undefined;
  if (!resolved) throw new Error(`fixtures/openapi.yaml: schema ${name} is missing`);
  return resolveSchema(resolved);
}

/** What a request to an operation may carry, as the contract states it. */
export interface RequestShape {
  parameters: readonly ContractParameter[];
  body: ContractSchema | undefined;
  /** The named schema of the body, for validating one (schemaProblems). */
  bodySchemaName: SchemaName | undefined;
  bodyOutsideContract: string | undefined;
}

/** Read once per operation (the contract has four): placing a request asks for its operation's shape each time. */
const requestShapes = new Map<OperationId, RequestShape>();

export function requestShape(id: OperationId): RequestShape {
  let shape = requestShapes.get(id);
  if (!shape) {
    shape = readRequestShape(id);
    requestShapes.set(id, shape);
  }
  return shape;
}

function readRequestShape(id: OperationId): RequestShape {
  for (const methods of Object.values(document.paths)) {
    for (const entry of Object.values(methods)) {
      if (entry.operationId !== id) continue;
      const body = entry.requestBody?.content?.['application/json']?.schema;
      const name = body?.$ref?.replace('#/components/schemas/', '');
      return {
        parameters: entry.parameters ?? [],
        body: body ? resolveSchema(body) : undefined,
        bodySchemaName: name && name in validators ? (name as SchemaName) : undefined,
        bodyOutsideContract: entry.requestBody?.['x-outside-contract'],
      };
    }
  }
  throw new Error(`fixtures/openapi.yaml: no operation ${id}`);
}
const operationsById = new Map(operations.map((operation) => [operation.id, operation]));

export function operation(id: OperationId): Operation {
  const found = operationsById.get(id);
  if (!found) throw new Error(`fixtures/openapi.yaml has no operation ${id}`);
  return found;
}

/** The body schema for a documented status of an operation; undefined when the body is open or undocumented. */
export function bodySchemaFor(id: OperationId, status: number): SchemaName | undefined {
  return bodySchemas.get(`${id} ${status}`);
}

export interface MatchedOperation {
  operation: Operation;
  pathParams: Record<string, string>;
}

const templates = operations.map((op) => ({
  op,
  regex: new RegExp(`^${op.pathTemplate.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));

/** The operation a request addresses, by method and by path below the base URL (e.g. /pets/7). */
export function matchOperation(method: string, path: string): MatchedOperation | undefined {
  const upper = method.toUpperCase();
  for (const { op, regex } of templates) {
    if (op.method !== upper) continue;
    const match = regex.exec(path);
    if (match) return { operation: op, pathParams: { ...match.groups } };
  }
  return undefined;
}

/** The methods the contract allows on a path, for a 405's Allow header; empty when no route has the path. */
export function allowedMethods(path: string): string[] {
  return templates.filter(({ regex }) => regex.test(path)).map(({ op }) => op.method);
}

/**
 * Ajv sees plain numbers: an exact BigInt within int64 becomes the nearest double (still an integer, which
 * is all the schema asks), one outside int64 becomes Infinity, which no integer schema accepts.
 */
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const INT32 = { min: -(2n ** 31n), max: 2n ** 31n - 1n };

export function toValidatable(value: LosslessValue): unknown {
  if (typeof value === 'bigint') return value >= INT64.min && value <= INT64.max ? Number(value) : Infinity;
  if (Array.isArray(value)) return value.map(toValidatable);
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) result[key] = toValidatable(inner);
    return result;
  }
  return value;
}

/** Looking is cheaper than the copy toValidatable makes, and almost no body holds a BigInt. */
function holdsBigInt(value: LosslessValue): boolean {
  if (typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(holdsBigInt);
  if (value !== null && typeof value === 'object') {
    for (const key in value) if (holdsBigInt(value[key] as LosslessValue)) return true;
  }
  return false;
}

/** Readable problems of a value against a named schema ("categoryId must be an integer (int64)"); empty when valid. */
export function schemaProblems(name: SchemaName, value: LosslessValue): string[] {
  const validate = validators[name];
  if (validate(holdsBigInt(value) ? toValidatable(value) : value)) return [];
  return describeErrors(validate.errors ?? [], value);
}

/** One problem per field, the first ajv found (a wrong type, not also the format the type implies). */
function describeErrors(errors: readonly ErrorObject[], original: LosslessValue): string[] {
  const problems = new Map<string, string>();
  for (const error of errors) {
    // "must match a schema in allOf" adds nothing for a reader: the branch's own error says what is wrong.
    if (error.keyword === 'allOf') continue;
    const field = error.keyword === 'required' ? `${error.instancePath}/${String(error.params.missingProperty)}` : error.instancePath;
    if (!problems.has(field)) problems.set(field, describeError(error, original));
  }
  return [...problems.values()];
}

function describeError(error: ErrorObject, original: LosslessValue): string {
  const where = fieldName(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const isInt64Check = error.keyword === 'type' || error.keyword === 'format';
  if (isInt64Check && typeof valueAt(original, error.instancePath) === 'bigint') return `${where || 'value'} is outside the int64 range`;
  switch (error.keyword) {
    case 'required':
      return `${joinField(where, String(params.missingProperty))} is required`;
    case 'type':
      return `${where || 'body'} must be ${article(String(params.type))}${params.type === 'integer' ? ' (int64)' : ''}`;
    case 'enum':
      return `${where || 'value'} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${where || 'body'} ${error.message ?? 'is invalid'}`;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function fieldName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : segment))
    .join('.')
    .replace(/\.\[/g, '[');
}

function joinField(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function valueAt(root: LosslessValue, pointer: string): LosslessValue | undefined {
  let current: LosslessValue | undefined = root;
  for (const segment of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, LosslessValue>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

/** The validator of an open field's schema of ordinary values, compiled with the contract's. */
function ordinaryValidator(schema: object): (value: LosslessValue) => boolean {
  const validate = (compiled.ordinaryValidators as ReadonlyMap<string, Validator>).get(ordinaryKey(schema));
  if (!validate) throw new Error(`fixtures/openapi.yaml: an open field's ordinary values (${ordinaryKey(schema)}) have no compiled validator: run npm run contract:validators`);
  return (value) => validate(holdsBigInt(value) ? toValidatable(value) : value) === true;
}

/*
 * Where a request stands against the contract.
 *
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

export interface RequestToClassify {
  operation: OperationId;
  method: string;
  /** Below the base URL, query included (/pets/7, /pets?limit=5). */
  path: string;
  contentType?: string;
  body?: string;
}

export function classifyRequest(request: RequestToClassify): Classification {
  return classifyAt(request, matchOperation(request.method, pathOf(request.path))?.pathParams ?? {});
}

/** A request placed against the contract: the operation it addresses, and whether it is within the contract, outside or at a gap. */
export interface PlacedRequest {
  operation: Operation;
  classification: Classification;
}

/** Where a request stands against the contract, in one step; undefined for a request to no operation of it. */
export function placeRequest(request: Omit<RequestToClassify, 'operation'>): PlacedRequest | undefined {
  const matched = matchOperation(request.method, pathOf(request.path));
  if (matched === undefined) return undefined;
  return { operation: matched.operation, classification: classifyAt({ ...request, operation: matched.operation.id }, matched.pathParams) };
}

/**
 * Where requests stand against the contract, what their method and path decide remembered by these: a capture asks
 * the same few things again and again (the same page listed, the same pet fetched, pets created at one path), and
 * matching the operation and reading the query cost the judge about a tenth of its time. A request without a body
 * is placed whole by them; one with a body is placed by its body each time, unless its parameters put it outside
 * the contract already. Bounded: past MAX_PLACEMENTS_REMEMBERED paths the memory starts again.
 */
const MAX_PLACEMENTS_REMEMBERED = 16_384;

/** What a method and path decide: the operation, and the request placed as if it had no body. */
interface PlacedPath {
  withoutBody: PlacedRequest;
  /** The parameters put it outside the contract, whatever its body. */
  outsideByParameters: boolean;
}

export class PlacedRequests {
  /** By method, then path; null: a request to no operation of the contract. */
  private readonly remembered = new Map<string, Map<string, PlacedPath | null>>();
  private size = 0;

  /** `body`: a JsonBody when the caller reads its tree too (the judge, judging a creation): it is then parsed once for both. */
  place(method: string, path: string, contentType: string | undefined, body: string | JsonBody | undefined): PlacedRequest | undefined {
    let byPath = this.remembered.get(method);
    let known = byPath?.get(path);
    if (known === undefined) {
      known = placePath(method, path);
      if (++this.size > MAX_PLACEMENTS_REMEMBERED) {
        this.remembered.clear();
        this.size = 1;
        byPath = undefined;
      }
      if (!byPath) this.remembered.set(method, (byPath = new Map()));
      byPath.set(path, known);
    }
    if (known === null) return undefined;
    if (body === undefined || known.outsideByParameters) return known.withoutBody;
    const { operation } = known.withoutBody;
    // An empty Content-Type is none.
    return { operation, classification: bodyClassification(operation.id, contentType || undefined, body) };
  }
}

function placePath(method: string, path: string): PlacedPath | null {
  const matched = matchOperation(method, pathOf(path));
  if (matched === undefined) return null;
  const outside = parametersOutside(matched.operation.id, path, matched.pathParams);
  return { withoutBody: { operation: matched.operation, classification: outside ?? bodyClassification(matched.operation.id, undefined, undefined) }, outsideByParameters: outside !== undefined };
}

/** A path below the base URL without its query. */
function pathOf(path: string): string {
  const at = path.indexOf('?');
  return at === -1 ? path : path.slice(0, at);
}

function classifyAt(request: RequestToClassify, pathParams: Readonly<Record<string, string>>): Classification {
  return parametersOutside(request.operation, request.path, pathParams) ?? bodyClassification(request.operation, request.contentType, request.body);
}

/** Where the parameters put a request, when they put it outside the contract (a value the schema refuses, or given twice). */
function parametersOutside(operation: OperationId, path: string, pathParams: Readonly<Record<string, string>>): Classification | undefined {
  const at = path.indexOf('?');
  const query = new URLSearchParams(at === -1 ? '' : path.slice(at + 1));
  for (const parameter of requestShape(operation).parameters) {
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
  return undefined;
}

/** Where a request whose parameters are within the contract stands by its body (`body` undefined: it has none). */
function bodyClassification(operation: OperationId, contentType: string | undefined, body: string | JsonBody | undefined): Classification {
  const shape = requestShape(operation);
  if (!shape.body) return WITHIN;
  // The contract's requests carry JSON: a request without any body is no request of it, whatever the method.
  if (body === undefined) return outsideBy(shape.bodyOutsideContract, 'a request with no body');
  return classifyBody(shape, contentType, typeof body === 'string' ? new JsonBody(body) : body);
}

function classifyBody(shape: RequestShape, contentType: string | undefined, body: JsonBody): Classification {
  const { text } = body;
  if (contentType === undefined) return outsideBy(shape.bodyOutsideContract, 'a body without a Content-Type');
  if (!JSON_MEDIA_TYPE.test(contentType.trim())) return outsideBy(shape.bodyOutsideContract, `a body of Content-Type ${contentType}`);
  if (Buffer.byteLength(text) > LARGEST_PLAIN_BODY) return outsideBy(shape.bodyOutsideContract, `a body of ${Buffer.byteLength(text).toLocaleString('en')} bytes`);
  const { repeatedName, depth, specialKey, unusualInteger } = jsonShape(text);
  if (repeatedName) return outsideBy(shape.bodyOutsideContract, `a body that gives the name ${repeatedName} twice`);
  if (depth > DEEPEST_PLAIN_NESTING) return outsideBy(shape.bodyOutsideContract, `a body nested ${depth} levels deep`);
  // Undefined for an empty body or one that is not JSON.
  const value = body.value;
  // Only JSON is read for its keys and spellings: 007 or +5 make a body malformed, which the spec answers 400.
  if (value !== undefined && specialKey) return outsideBy(shape.bodyOutsideContract, `a body with the key ${specialKey}, special in JavaScript runtimes`);
  if (value !== undefined && unusualInteger) return outsideBy(shape.bodyOutsideContract, `a body with the integer ${unusualInteger.value} written ${unusualInteger.written}`);
  // A body the schema refuses is within the contract: the spec answers it 400, whatever else it holds.
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !shape.bodySchemaName || schemaProblems(shape.bodySchemaName, value).length > 0) return WITHIN;
  const unusual = unusualOpenFields(shape.body!, value);
  return unusual.length === 0 ? WITHIN : { kind: 'gap', gap: unusual[0]!.gap, why: unusual.map((field) => `${field.name} ${describeValue(value[field.name])}`).join(', ') };
}

/** Outside the contract, at the GAP rule where the target's choice is observed; within it where the contract names none. */
function outsideBy(gap: string | undefined, why: string): Classification {
  return gap ? { kind: 'outside', gap, why } : WITHIN;
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
      return open ? [{ name, gap: open.gap, isOrdinary: ordinaryValidator(open.ordinary), example: open.example }] : [];
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
