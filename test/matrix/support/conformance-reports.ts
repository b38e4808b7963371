/**
 * Conformance reports with known outcomes, built by the suite's own reporter code from test records: what
 * each implementation's run would have written, without running it.
 */
import { catalogue } from '../../../lib/rules.ts';
import type { TestRecord } from '../../../lib/verdicts/test-record.ts';
import { buildReport, type ConformanceReport, type RunMetadata } from '../../../lib/verdicts/model.ts';

export interface RuleOutcome {
  /** Default pass; `fail` fails the rule's test; `warn` adds a warning (a SHOULD rule's violation). */
  outcome?: 'pass' | 'fail' | 'warn' | 'skip';
  /** For a GAP rule: the test's few words. */
  gist?: string;
  title?: string;
}

const META: RunMetadata = { targetUrl: 'http://127.0.0.1:9/v1', bundled: false, readOnly: false, quotaTests: true, suiteVersion: 'x', specVersion: '1.0.0', gitCommit: 'x', rulesHash: 'x' };

/** Every service rule checked and passing (GAP rules observed), except as `outcomes` says. */
export function conformanceReport(outcomes: Readonly<Record<string, RuleOutcome>> = {}): ConformanceReport {
  const records = catalogue.rules
    .filter((rule) => rule.subject === 'service' && !rule.appliesWhen)
    .map((rule): TestRecord => {
      const wanted = outcomes[rule.id] ?? {};
      const outcome = wanted.outcome === 'fail' ? 'failed' : wanted.outcome === 'skip' ? 'skipped' : 'passed';
      const title = wanted.title ?? `${rule.id} ${rule.level} test`;
      return {
        id: rule.id, title, fullTitle: title, file: 'x.spec.ts', line: 1, project: 'p', outcome, durationMs: 1, retries: 0,
        rules: [rule.id], unknownRules: [], titleLevel: undefined, skipReason: outcome === 'skipped' ? 'a reason' : undefined,
        warnings: wanted.outcome === 'warn' ? [{ rule: rule.id, text: `[${rule.id}] not as it should be` }] : [],
        observations: rule.level === 'GAP' ? [{ rule: rule.id, text: `[${rule.id}] seen: ${wanted.gist ?? 'as usual'}` }] : [],
        gists: rule.level === 'GAP' ? [{ rule: rule.id, text: wanted.gist ?? 'as usual' }] : [],
        unchecked: [], throttled: [], generated: [],
        failures: outcome === 'failed' ? [{ rules: [rule.id], message: `[${rule.id}] broke: expected one thing, got another` }] : [],
        ranThrough: false,
        judgedWhole: [],
        evidence: [],
      };
    });
  return buildReport(records, catalogue, META, { status: 'passed', startedAt: '2026-11-23T10:00:00.000Z', durationMs: 42_000, generatedAt: '2026-11-23T10:00:42.000Z' });
}
