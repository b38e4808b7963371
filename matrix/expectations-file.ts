/**
 * An implementation's known failures (expectations.yaml): rules, or single tests, expected to fail, each with
 * the reason and optionally a link to the implementation's tracker. It lets a team run the suite in CI before
 * their implementation conforms, and it cannot rot: a listed failure that passes fails the run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';

export interface ExpectedFailure {
  /** A rule ID of fixtures/rules.yaml, or the full title of one test. */
  rule?: string;
  test?: string;
  reason: string;
  link?: string;
}

export class ExpectationsFileError extends Error {
  override name = 'ExpectationsFileError';
}

const FIELDS = ['rule', 'test', 'reason', 'link'];

/** The file's failures; a missing file is no expectation at all (a team's first run). */
export function readExpectations(file: string, knownRules: ReadonlySet<string>): ExpectedFailure[] {
  if (!existsSync(file)) return [];
  let document: unknown;
  try {
    document = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ExpectationsFileError(`expectations ${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (document === null || document === undefined) return [];
  const failures = typeof document === 'object' && !Array.isArray(document) ? (document as Record<string, unknown>).failures : undefined;
  if (failures === undefined || failures === null) return [];
  if (!Array.isArray(failures)) throw new ExpectationsFileError(`expectations ${file}: "failures" must be a list of { rule, reason } or { test, reason }`);
  return failures.map((item: unknown, index) => {
    const where = `expectations ${file}, failure ${index + 1}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ExpectationsFileError(`${where}: expected a mapping with rule (or test) and reason`);
    const entry = item as Record<string, unknown>;
    const unknown = Object.keys(entry).find((key) => !FIELDS.includes(key));
    if (unknown !== undefined) throw new ExpectationsFileError(`${where}: unknown field "${unknown}"; the fields are ${FIELDS.join(', ')}`);
    const rule = typeof entry.rule === 'string' ? entry.rule.trim() : undefined;
    const test = typeof entry.test === 'string' ? entry.test.trim() : undefined;
    if ((rule === undefined) === (test === undefined)) throw new ExpectationsFileError(`${where}: give exactly one of rule (an ID such as RL-7) and test (a full test title)`);
    if (rule !== undefined && !knownRules.has(rule)) throw new ExpectationsFileError(`${where}: "${rule}" is not a rule of fixtures/rules.yaml`);
    if (typeof entry.reason !== 'string' || entry.reason.trim() === '') throw new ExpectationsFileError(`${where}: needs a reason (why it fails: the behaviour responsible)`);
    if (entry.link !== undefined && typeof entry.link !== 'string') throw new ExpectationsFileError(`${where}: link must be a URL as text`);
    return {
      ...(rule === undefined ? {} : { rule }),
      ...(test === undefined ? {} : { test }),
      reason: entry.reason.trim(),
      ...(typeof entry.link === 'string' ? { link: entry.link } : {}),
    };
  });
}

export function writeExpectations(file: string, implementation: string, failures: readonly ExpectedFailure[]): void {
  const header = `# Known failures of ${implementation} against the Pet Store conformance suite.\n# A listed failure that passes fails the run ("now passes: remove it"); --update-expectations rewrites this file.\n`;
  const body = stringify({ failures: failures.map(({ rule, test, reason, link }) => ({ ...(rule ? { rule } : { test }), reason, ...(link ? { link } : {}) })) }, { lineWidth: 0 });
  writeFileSync(file, header + body);
}
