/**
 * The implementations file (implementations.yaml): which implementations to certify side by side and how to
 * reach each. A problem in one entry is one line naming it; the other entries are still certified.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PLAN_IDS, type PlanId } from '../lib/plans.ts';

/** How the suite reaches an implementation. */
export type Reach =
  /** The bundled reference server, started by the suite itself exactly as `npm run conformance` does. */
  | { kind: 'bundled' }
  | { kind: 'url'; baseUrl: string }
  /** A shell command, run from the implementations file's folder, that prints the base URL once listening. */
  | { kind: 'start'; command: string; timeoutMs: number };

/** Keys by plan: the names of the variables that hold them, or the reference server's documented demo keys. */
export type KeySource = { kind: 'variables'; variables: Partial<Record<PlanId, string>> } | { kind: 'demo' };

export interface Implementation {
  name: string;
  version?: string;
  reach: Reach;
  keys: KeySource;
  readOnly: boolean;
  quotaTests: boolean;
  /** Absolute path of the expectations file, when the entry names one. */
  expectations?: string;
}

export interface ImplementationsFile {
  /** Absolute path of the file. */
  file: string;
  implementations: Implementation[];
  /** Entries that cannot be certified as written: the name (or position) and what is wrong. */
  rejected: Array<{ name: string; problem: string }>;
  /** Every entry's name (or position), in the file's order. */
  order: string[];
}

export const DEFAULT_START_TIMEOUT_SECONDS = 60;
const FIELDS = ['name', 'version', 'baseUrl', 'start', 'bundled', 'startTimeoutSeconds', 'keys', 'readOnly', 'quotaTests', 'expectations'] as const;
/** A folder name under reports/certify/ on any file system, and a CSS-safe fragment. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Thrown when the file as a whole cannot be used (unreadable, not YAML, no list of implementations). */
export class ImplementationsFileError extends Error {
  override name = 'ImplementationsFileError';
}

class EntryError extends Error {}

export function readImplementationsFile(file: string): ImplementationsFile {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new ImplementationsFileError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseImplementations(text, absolute);
}

export function parseImplementations(text: string, file: string): ImplementationsFile {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new ImplementationsFileError(`${path.basename(file)}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const list = isRecord(document) ? document.implementations : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    throw new ImplementationsFileError(`${path.basename(file)}: expected "implementations:" with a list of entries, each with a name and one of baseUrl, start or bundled`);
  }
  const unknownTop = isRecord(document) ? Object.keys(document).filter((key) => key !== 'implementations') : [];
  if (unknownTop.length > 0) throw new ImplementationsFileError(`${path.basename(file)}: unknown top-level field "${unknownTop[0]}"; only "implementations" is read`);

  const result: ImplementationsFile = { file, implementations: [], rejected: [], order: [] };
  const seen = new Set<string>();
  list.forEach((entry: unknown, index) => {
    const named = isRecord(entry) && typeof entry.name === 'string' && entry.name.trim() ? entry.name.trim() : `entry ${index + 1}`;
    const label = result.order.includes(named) ? `${named} (entry ${index + 1})` : named;
    result.order.push(label);
    try {
      const implementation = parseEntry(entry, path.dirname(file));
      if (seen.has(implementation.name.toLowerCase())) throw new EntryError(`the name is used by an earlier entry; each report folder needs its own name`);
      seen.add(implementation.name.toLowerCase());
      result.implementations.push(implementation);
    } catch (error) {
      if (!(error instanceof EntryError)) throw error;
      result.rejected.push({ name: label, problem: error.message });
    }
  });
  return result;
}

function parseEntry(entry: unknown, folder: string): Implementation {
  if (!isRecord(entry)) throw new EntryError('expected a mapping with a name and one of baseUrl, start or bundled');
  const unknown = Object.keys(entry).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) throw new EntryError(`unknown field "${unknown}"; the fields are ${FIELDS.join(', ')}`);

  const name = text(entry, 'name');
  if (name === undefined) throw new EntryError('needs a name');
  if (!NAME.test(name)) throw new EntryError(`name "${name}" must be letters, digits, ".", "_" or "-" (it names the report folder), at most 64 characters`);
  const version = entry.version === undefined ? undefined : String(entry.version);
  const reach = parseReach(entry);
  const keys = parseKeys(entry.keys, reach);
  const expectations = text(entry, 'expectations');
  return {
    name,
    ...(version === undefined ? {} : { version }),
    reach,
    keys,
    readOnly: flag(entry, 'readOnly', false),
    quotaTests: flag(entry, 'quotaTests', reach.kind === 'bundled'),
    ...(expectations === undefined ? {} : { expectations: path.resolve(folder, expectations) }),
  };
}

function parseReach(entry: Record<string, unknown>): Reach {
  const given = (['baseUrl', 'start', 'bundled'] as const).filter((field) => entry[field] !== undefined && entry[field] !== false);
  if (given.length !== 1) throw new EntryError(given.length === 0 ? 'needs one of baseUrl, start or bundled: true' : `gives both ${given[0]} and ${given[1]}; give one`);
  if (entry.startTimeoutSeconds !== undefined && given[0] !== 'start') throw new EntryError('startTimeoutSeconds applies only to an entry with start');
  switch (given[0]) {
    case 'bundled':
      if (entry.bundled !== true) throw new EntryError('bundled must be true or left out');
      return { kind: 'bundled' };
    case 'baseUrl': {
      const baseUrl = text(entry, 'baseUrl') ?? '';
      let url: URL;
      try {
        url = new URL(baseUrl);
      } catch {
        throw new EntryError(`baseUrl "${baseUrl}" is not a URL; expected something like https://staging.example.com/v1`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EntryError(`baseUrl "${baseUrl}" must be http or https`);
      if (url.username || url.password) throw new EntryError('baseUrl must not carry credentials; give keys by variable name under keys');
      return { kind: 'url', baseUrl: baseUrl.replace(/\/+$/, '') };
    }
    default: {
      const command = text(entry, 'start');
      if (command === undefined) throw new EntryError('start must be a shell command that prints the base URL once listening');
      const seconds = entry.startTimeoutSeconds ?? DEFAULT_START_TIMEOUT_SECONDS;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 3_600) {
        throw new EntryError(`startTimeoutSeconds must be a number of seconds between 1 and 3600, not ${JSON.stringify(seconds)}`);
      }
      return { kind: 'start', command, timeoutMs: seconds * 1000 };
    }
  }
}

function parseKeys(keys: unknown, reach: Reach): KeySource {
  if (keys === 'demo') {
    if (reach.kind === 'url') throw new EntryError('keys: demo names the reference server\'s public demo keys, for an implementation started here (start or bundled), not a baseUrl');
    return { kind: 'demo' };
  }
  if (keys === undefined) {
    if (reach.kind === 'url') throw new EntryError('needs keys: the names of the variables holding its keys per plan, e.g. keys: { free: STAGING_KEY_FREE }');
    return { kind: 'demo' };
  }
  if (!isRecord(keys)) throw new EntryError('keys must be "demo" or a mapping from plan (free, pro, business, enterprise) to the name of an environment variable');
  const variables: Partial<Record<PlanId, string>> = {};
  for (const [plan, variable] of Object.entries(keys)) {
    if (!(PLAN_IDS as readonly string[]).includes(plan)) throw new EntryError(`keys: unknown plan "${plan}"; the plans are ${PLAN_IDS.join(', ')}`);
    if (typeof variable !== 'string' || !VARIABLE.test(variable)) {
      throw new EntryError(`keys.${plan} must be the NAME of an environment variable that holds the keys (never a key itself)`);
    }
    variables[plan as PlanId] = variable;
  }
  if (Object.keys(variables).length === 0) throw new EntryError('keys names no plan');
  return { kind: 'variables', variables };
}

function text(entry: Record<string, unknown>, field: string): string | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new EntryError(`${field} must be a non-empty text`);
  return value.trim();
}

function flag(entry: Record<string, unknown>, field: string, fallback: boolean): boolean {
  const value = entry[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new EntryError(`${field} must be true or false, not ${JSON.stringify(value)}`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
