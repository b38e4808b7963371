/**
 * `certify --evidence <report or dir>...`: the earlier reports a certificate is assembled from. A file must be a
 * report this package wrote (conformance.json of certify or judge, load's summary.json), valid against its
 * schema and carrying its evidence; a folder is searched for such files. Anything else is refused with one line
 * naming the file and what is wrong with it (EvidenceInputError: exit 2). The reports of shards (--shard i/n)
 * come back merged into one (shard-evidence.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ReportEvidence } from './evidence.ts';
import { mergedShards, ShardEvidenceError } from './shard-evidence.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export class EvidenceInputError extends Error {}

export interface EvidenceReport {
  /** The file, as the caller named it or found in a folder it named. */
  file: string;
  evidence: ReportEvidence;
}

/** The file names a folder of evidence is searched for (certify and judge write conformance.json, load summary.json). */
const REPORT_FILES = new Set(['conformance.json', 'summary.json']);
const FORMATS: Readonly<Record<string, string>> = { 'petstore-conformance-report': 'conformance-report', 'petstore-load-summary': 'load-summary' };

let validators: Map<string, ValidateFunction> | undefined;

function validatorFor(format: string): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    addFormats(ajv);
    validators = new Map(Object.values(FORMATS).map((name) => [name, ajv.compile(JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8')) as object)]));
  }
  return validators.get(format)!;
}

/** Every report the paths name (files, and report files anywhere under folders), read and checked. */
export function readEvidence(paths: readonly string[], cwd: string, flag = '--evidence'): EvidenceReport[] {
  const reports: EvidenceReport[] = [];
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    if (!existsSync(absolute)) throw new EvidenceInputError(`${flag} ${given}: no such file or folder`);
    if (statSync(absolute).isDirectory()) {
      const found = reportFilesUnder(absolute);
      // An empty folder (a download that found nothing, a path one level off) would certify with nothing and say nothing.
      if (found.length === 0) throw new EvidenceInputError(`${flag} ${given}: no report in this folder (looked for conformance.json and summary.json under it); give a report or a folder holding one, or leave --evidence out until a run has written one`);
      for (const file of found) reports.push(readReport(file, path.relative(cwd, file) || file, flag));
    } else reports.push(readReport(absolute, given, flag));
  }
  try {
    return mergedShards(reports, flag);
  } catch (error) {
    throw error instanceof ShardEvidenceError ? new EvidenceInputError(error.message) : error;
  }
}

function reportFilesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && REPORT_FILES.has(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

function readReport(file: string, name: string, flag: string): EvidenceReport {
  const shown = `${flag} ${name}`;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new EvidenceInputError(`${shown}: not a report: ${error instanceof SyntaxError ? 'not JSON' : (error as Error).message}`);
  }
  const format = typeof value === 'object' && value !== null ? (value as { format?: unknown }).format : undefined;
  const schema = typeof format === 'string' ? FORMATS[format] : undefined;
  if (!schema) throw new EvidenceInputError(`${shown}: not a report of this package (expected a conformance.json or a load summary.json, "format" is ${JSON.stringify(format ?? null)})`);
  const validate = validatorFor(schema);
  if (!validate(value)) {
    const problem = validate.errors?.[0];
    throw new EvidenceInputError(`${shown}: does not match schemas/${schema}.schema.json: ${problem?.instancePath || '/'} ${problem?.message ?? 'is invalid'}`);
  }
  const evidence = (value as { evidence?: ReportEvidence }).evidence;
  if (!evidence) throw new EvidenceInputError(`${shown}: written before reports carried their evidence (no "evidence" field); run it again with this version`);
  return { file: name, evidence };
}

const AGE_UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** "7d", "36h", "90m", "2w" as milliseconds; throws naming the flag for anything else. */
export function parseMaxAge(text: string, source = '--max-age'): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([mhdw])\s*$/.exec(text);
  if (!match || Number(match[1]) <= 0) throw new EvidenceInputError(`${source}: "${text}" is not an age; expected a number and a unit, e.g. 7d, 36h, 90m, 2w`);
  return Number(match[1]) * AGE_UNITS[match[2]!]!;
}
