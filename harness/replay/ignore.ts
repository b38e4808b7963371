/**
 * What the comparison leaves out. Some of it always (transport headers; the values, not the presence, of
 * X-RateLimit-*, Retry-After and Date), the rest from ignore files in YAML:
 *
 *   headers: [server, etag]        # response headers not compared at all (case-insensitive)
 *   body: [/updatedAt, /tags]      # JSON pointers into response bodies; a segment * is any one segment; "" is the whole body
 *   operations:                    # the same, for one operation of the contract only
 *     listPets: { body: [""] }
 *
 * A pointer also covers everything below it.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPERATION_IDS, type OperationId } from '../../lib/contract.ts';
import { fixturePath } from '../../lib/fixtures.ts';
import { InputError } from '../../lib/cli/command-line.ts';

export const DEFAULT_IGNORE_FILE = fixturePath('traffic', 'replay-ignore.yaml');

/** Describe the connection, not the answer: never compared. */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'proxy-connection',
  'trailer',
  'upgrade',
]);

/** Volatile by nature: compared for presence only. */
export const VALUE_VOLATILE_HEADERS: ReadonlySet<string> = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'date']);

export interface IgnoreRules {
  /** Lower-case header names. */
  headers: ReadonlySet<string>;
  /** JSON pointers, split into unescaped segments; [] is the whole body. */
  body: ReadonlyArray<readonly string[]>;
}

interface IgnoreSection {
  headers?: unknown;
  body?: unknown;
}

export class IgnoreSet {
  private readonly common: IgnoreRules = { headers: new Set(), body: [] };
  private readonly perOperation = new Map<OperationId, IgnoreRules>();
  private readonly merged = new Map<OperationId | undefined, IgnoreRules>();

  /** Reads the files in order; every problem is an InputError naming the file and the entry. */
  static load(paths: readonly string[]): IgnoreSet {
    const set = new IgnoreSet();
    for (const path of paths) set.add(path);
    return set;
  }

  private add(path: string): void {
    let document: unknown;
    try {
      document = parse(readFileSync(path, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new InputError(`--ignore ${path}: ${code === 'ENOENT' ? 'no such file' : `not valid YAML (${(error as Error).message.split('\n')[0]})`}`);
    }
    if (document === null || document === undefined) return;
    if (typeof document !== 'object' || Array.isArray(document)) throw new InputError(`--ignore ${path}: expected a mapping with headers, body and operations`);
    const { operations, ...common } = document as IgnoreSection & { operations?: unknown };
    this.addSection(common, this.common, path, '');
    if (operations === undefined || operations === null) return;
    if (typeof operations !== 'object' || Array.isArray(operations)) throw new InputError(`--ignore ${path}: operations must map operation names to headers and body`);
    for (const [name, section] of Object.entries(operations)) {
      if (!(OPERATION_IDS as readonly string[]).includes(name)) {
        throw new InputError(`--ignore ${path}: unknown operation "${name}"; expected one of ${OPERATION_IDS.join(', ')}`);
      }
      const rules = this.perOperation.get(name as OperationId) ?? { headers: new Set(), body: [] };
      this.perOperation.set(name as OperationId, rules);
      this.addSection(section as IgnoreSection, rules, path, `operations.${name}.`);
    }
  }

  private addSection(section: IgnoreSection, into: IgnoreRules, path: string, where: string): void {
    if (section === null || typeof section !== 'object') throw new InputError(`--ignore ${path}: ${where || 'the file'} must be a mapping`);
    for (const key of Object.keys(section)) {
      if (key !== 'headers' && key !== 'body') throw new InputError(`--ignore ${path}: unknown key "${where}${key}"; expected headers, body or operations`);
    }
    for (const name of stringList(section.headers, path, `${where}headers`)) (into.headers as Set<string>).add(name.toLowerCase());
    for (const pointer of stringList(section.body, path, `${where}body`)) {
      if (pointer !== '' && !pointer.startsWith('/')) throw new InputError(`--ignore ${path}: ${where}body "${pointer}" is not a JSON pointer (it must start with / or be "")`);
      (into.body as string[][]).push(splitPointer(pointer));
    }
  }

  forOperation(operation: OperationId | undefined): IgnoreRules {
    let rules = this.merged.get(operation);
    if (!rules) {
      const specific = operation ? this.perOperation.get(operation) : undefined;
      rules = specific
        ? { headers: new Set([...this.common.headers, ...specific.headers]), body: [...this.common.body, ...specific.body] }
        : this.common;
      this.merged.set(operation, rules);
    }
    return rules;
  }
}

function stringList(value: unknown, path: string, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new InputError(`--ignore ${path}: ${where} must be a list of strings`);
  return value as string[];
}

export function splitPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function joinPointer(segments: readonly string[]): string {
  return segments.map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Whether a pointer (as segments) lies at or below one of the ignored pointers. */
export function isIgnored(segments: readonly string[], rules: IgnoreRules): boolean {
  for (const pattern of rules.body) {
    if (pattern.length > segments.length) continue;
    let matches = true;
    for (let i = 0; i < pattern.length; i++) {
      if (pattern[i] !== '*' && pattern[i] !== segments[i]) {
        matches = false;
        break;
      }
    }
    if (matches) return true;
  }
  return false;
}
