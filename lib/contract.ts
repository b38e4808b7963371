/**
 * The interface contract (fixtures/openapi.yaml), loaded and compiled once per process.
 * Suite, reference server and replay harness all ask it the same questions: which operation is this
 * request, is this response one the contract allows, is this body a valid NewPet.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFixtureYaml } from './fixtures.ts';
import type { LosslessValue } from './lossless-json.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

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
  /** A field whose values the spec leaves open to refuse (lib/request-kinds.ts). */
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

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
for (const [name, schema] of Object.entries(document.components.schemas)) {
  ajv.addSchema({ ...(rewriteRefs(schema) as object), $id: name });
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    result[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', '') : rewriteRefs(inner);
  }
  return result;
}

function schemaValidator(name: string): ValidateFunction {
  const validate = ajv.getSchema(name);
  if (!validate) throw new Error(`fixtures/openapi.yaml: schema ${name} is missing`);
  return validate;
}

export const validators = {
  NewPet: schemaValidator('NewPet'),
  Pet: schemaValidator('Pet'),
  Pets: schemaValidator('Pets'),
  Error: schemaValidator('Error'),
  PetStatus: schemaValidator('PetStatus'),
} as const;

export type SchemaName = keyof typeof validators;

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
export function requestShape(id: OperationId): {
  parameters: readonly ContractParameter[];
  body: ContractSchema | undefined;
  /** The named schema of the body, for validating one (schemaProblems). */
  bodySchemaName: SchemaName | undefined;
  bodyOutsideContract: string | undefined;
} {
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
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function toValidatable(value: LosslessValue): unknown {
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX ? Number(value) : Infinity;
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

/** A validator for a schema the contract holds inline (an ordinary value's), with the contract's formats. */
export function compileSchema(schema: object): (value: LosslessValue) => boolean {
  const validate = ajv.compile(schema);
  return (value) => validate(holdsBigInt(value) ? toValidatable(value) : value) === true;
}
