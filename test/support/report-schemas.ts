/**
 * The published report formats (schemas/*.schema.json), compiled as a CI consumer would compile them:
 * every report a test makes is held to its schema, so a schema that no longer describes the output fails.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export const REPORT_FORMATS = ['conformance-report', 'matrix', 'load-summary', 'replay-summary'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function schemaFile(format: ReportFormat): URL {
  return new URL(`../../schemas/${format}.schema.json`, import.meta.url);
}

const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const validators = new Map(REPORT_FORMATS.map((format) => [format, ajv.compile(JSON.parse(readFileSync(schemaFile(format), 'utf8')) as object)]));

/** Each way `value` breaks the format's schema, one line each ("/verdict/state must be equal to one of the allowed values"). */
export function schemaProblems(format: ReportFormat, value: unknown): string[] {
  const validate = validators.get(format)!;
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

/** Throws, naming the schema and every problem, when `value` is not a valid report of `format`. */
export function assertMatchesSchema<T>(format: ReportFormat, value: T): T {
  const problems = schemaProblems(format, value);
  if (problems.length > 0) throw new Error(`not a valid ${format} (schemas/${format}.schema.json): ${problems.join('; ')}`);
  return value;
}
