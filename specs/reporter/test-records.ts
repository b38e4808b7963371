/**
 * What one finished suite test says about the rules it cites, read only from what Playwright's reporter API
 * hands over (title, annotations, errors, attachments with a body), so a merged report of sharded blob
 * reports reads exactly like a report written live.
 *
 * The protocol the suite follows: the title starts `<RULE-ID> <LEVEL> `; annotations {type: 'rule'} cite
 * rules (the first is the primary one), {type: 'warning'}, {type: 'observation'} and {type: 'unchecked'} carry `[ID] text`,
 * {type: 'throttled'} says a 429 was waited out; an error message names the rule it breaks as `[ID]`;
 * an `evidence` attachment holds {rule, request, response, curl}.
 */
import { readFileSync } from 'node:fs';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { findRule } from '../../lib/rules.ts';
import { emptyRecord, type Evidence, type Failure, type GeneratedProperty, type GeneratedSummary, type RuleNote, type TestOutcome, type TestRecord } from '../../lib/verdicts/test-record.ts';

const RULE_ID_IN_BRACKETS = /\[([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\]/g;
const TITLE_PREFIX = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\s+(MUST|SHOULD|GAP)\b/;
// Playwright colours expect() messages for terminals; a report wants the plain text.
const ANSI = /\u001b\[[0-9;]*m/g;
const MAX_MESSAGE = 4_000;

/** A test that has not reported yet: what the run planned. */
export function plannedRecord(test: TestCase, rootDir: string): TestRecord {
  const { rules, unknownRules } = citedRules(test.title, test.annotations);
  return emptyRecord({
    id: test.id,
    title: test.title,
    fullTitle: describePath(test),
    file: relativeFile(test.location.file, rootDir),
    line: test.location.line,
    project: projectOf(test),
    outcome: 'not-run',
    rules,
    unknownRules,
    titleLevel: titleCitation(test.title)?.level,
    ranThrough: false,
  });
}

/** The record of a test after its (latest) attempt. */
export function finishedRecord(test: TestCase, result: TestResult, rootDir: string): TestRecord {
  const annotations = uniqueAnnotations([...test.annotations, ...(result.annotations ?? [])]);
  const base = plannedRecord(test, rootDir);
  const { rules, unknownRules } = citedRules(test.title, annotations);
  const primary = rules[0];
  const notes = (type: string): RuleNote[] =>
    annotations.filter((a) => a.type === type).map((a) => ruleNote(a.description ?? '', primary));
  const outcome = outcomeOf(result.status);
  return {
    ...base,
    rules,
    unknownRules,
    outcome,
    durationMs: result.duration,
    ...(outcome === 'passed' || outcome === 'failed' ? { startedAt: result.startTime.toISOString() } : {}),
    retries: result.retry,
    skipReason: outcome === 'skipped' ? (skipReason(annotations) ?? 'skipped without a reason') : skipReason(annotations),
    warnings: notes('warning'),
    observations: notes('observation'),
    gists: notes('gist'),
    unchecked: notes('unchecked'),
    throttled: annotations.filter((a) => a.type === 'throttled').map((a) => a.description ?? 'a 429 was waited out'),
    generated: annotations.filter((a) => a.type === 'generated').flatMap((a) => generatedProperty(a.description ?? '', base.fullTitle, outcome)),
    failures: outcome === 'failed' ? failures(result, primary) : [],
    ranThrough: outcome === 'failed' && annotations.some((a) => a.type === 'ran-through' && Number(a.description) === result.errors.length),
    judgedWhole: outcome === 'failed' ? judgedWhole(annotations, result.errors.length) : [],
    evidence: evidenceOf(result, primary),
  };
}

/** The rules a failed test judged whole, when nothing but its `errors` soft failures went wrong ("<count> <ID> <ID>…"). */
function judgedWhole(annotations: ReadonlyArray<{ type: string; description?: string }>, errors: number): string[] {
  const [count, ...rules] = (annotations.find((a) => a.type === 'judged-whole')?.description ?? '').split(' ');
  return Number(count) === errors ? rules.filter(Boolean) : [];
}

function generatedProperty(json: string, test: string, outcome: TestOutcome): GeneratedProperty[] {
  try {
    const summary = JSON.parse(json) as GeneratedSummary;
    return typeof summary.property === 'string' ? [{ ...summary, test, outcome }] : [];
  } catch {
    return [];
  }
}

/** The rule ID and level a title starts with (`LIST-1 MUST …`), if it follows the protocol. */
export function titleCitation(title: string): { id: string; level: string } | undefined {
  const match = TITLE_PREFIX.exec(title);
  return match ? { id: match[1]!, level: match[2]! } : undefined;
}

function citedRules(title: string, annotations: ReadonlyArray<{ type: string; description?: string }>): { rules: string[]; unknownRules: string[] } {
  const cited = annotations.filter((a) => a.type === 'rule' && a.description).map((a) => a.description!.trim());
  const fromTitle = titleCitation(title)?.id;
  if (cited.length === 0 && fromTitle) cited.push(fromTitle);
  const unique = [...new Set(cited)];
  return { rules: unique.filter((id) => findRule(id)), unknownRules: unique.filter((id) => !findRule(id)) };
}

function uniqueAnnotations<T extends { type: string; description?: string }>(annotations: T[]): T[] {
  const seen = new Set<string>();
  return annotations.filter((a) => {
    const key = `${a.type}\u0000${a.description ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function ruleNote(description: string, primary: string | undefined): RuleNote {
  const match = /^\s*\[([^\]]+)\]\s*/.exec(description);
  const named = match?.[1];
  if (named && findRule(named)) return { rule: named, text: description.slice(match[0].length) };
  return { rule: primary ?? 'unattributed', text: description };
}

function outcomeOf(status: TestResult['status']): TestOutcome {
  switch (status) {
    case 'passed':
      return 'passed';
    case 'skipped':
      return 'skipped';
    case 'interrupted':
      return 'interrupted';
    default:
      return 'failed';
  }
}

/** Why the test skipped itself, also when it had already failed on another rule (then it counts as failed). */
function skipReason(annotations: ReadonlyArray<{ type: string; description?: string }>): string | undefined {
  return annotations.find((a) => (a.type === 'skip' || a.type === 'fixme') && a.description)?.description;
}

/** Rules named in a message as [ID], in order of first mention; only IDs the catalogue knows. */
export function rulesNamedIn(message: string): string[] {
  const ids = [...message.matchAll(RULE_ID_IN_BRACKETS)].map((m) => m[1]!).filter((id) => findRule(id));
  return [...new Set(ids)];
}

function failures(result: TestResult, primary: string | undefined): Failure[] {
  const errors = result.errors.length > 0 ? result.errors : result.error ? [result.error] : [];
  const found = errors.map((error): Failure => {
    const message = cleanMessage(error.message ?? error.value ?? 'the test failed without a message');
    const named = rulesNamedIn(message);
    return { rules: named.length > 0 ? named : primary ? [primary] : [], message };
  });
  return found.length > 0 ? found : [{ rules: primary ? [primary] : [], message: `the test ended with status ${result.status}` }];
}

/** The text of a message without the terminal colour codes Playwright puts into expect() messages. */
export function withoutColours(text: string): string {
  return text.replace(ANSI, '');
}

function cleanMessage(message: string): string {
  const plain = withoutColours(message).trim();
  return plain.length > MAX_MESSAGE ? `${plain.slice(0, MAX_MESSAGE)}\n… (${plain.length - MAX_MESSAGE} more characters)` : plain;
}

function evidenceOf(result: TestResult, primary: string | undefined): Evidence[] {
  const found: Evidence[] = [];
  for (const attachment of result.attachments) {
    if (attachment.name !== 'evidence' || !attachment.contentType.startsWith('application/json')) continue;
    const text = attachmentText(attachment);
    if (text === undefined) continue;
    try {
      const parsed = JSON.parse(text) as Partial<Evidence> | Array<Partial<Evidence>>;
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
        const rule = typeof item.rule === 'string' && findRule(item.rule) ? item.rule : primary;
        if (rule) found.push({ rule, request: item.request, response: item.response, curl: typeof item.curl === 'string' ? item.curl : undefined });
      }
    } catch {
      // Evidence that is not JSON cannot be shown as a request and a response; the failure message still is.
    }
  }
  return found;
}

function attachmentText(attachment: { body?: Buffer; path?: string }): string | undefined {
  if (attachment.body) return attachment.body.toString('utf8');
  if (!attachment.path) return undefined;
  try {
    return readFileSync(attachment.path, 'utf8');
  } catch {
    return undefined;
  }
}

function projectOf(test: TestCase): string {
  for (let suite = test.parent; suite; suite = suite.parent) {
    const project = suite.project();
    if (project) return project.name;
    if (!suite.parent) break;
  }
  return '';
}

function describePath(test: TestCase): string {
  // titlePath: ['', project, file, ...describes, title]
  return test.titlePath().slice(3).join(' › ');
}

function relativeFile(file: string, rootDir: string): string {
  return file.startsWith(`${rootDir}/`) ? file.slice(rootDir.length + 1) : file;
}
