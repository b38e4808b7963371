/**
 * The check registry (lib/checks/registry.ts) is the one list every part reads: every rule a run can show has a
 * check there, each check is registered once, and no part of the product judges a rule outside it (no code file but
 * the registry writes a rule's ID as a literal: a part names the check, and the check names the rule).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkRunners } from '../../../../scripts/docs/check-parts.ts';
import { NEEDS } from '../../../../harness/judge/report.ts';
import { QUOTA_CHECKS } from '../../../../harness/load/verdicts/verdict.ts';
import { ANSWER_CHECKS, answerJudgement, PAIR_JUDGEMENTS } from '../../../../lib/checks/judgements.ts';
import { checkNamed, checks, checksOf, finding, IDEAS, ideasOf, quotaRule, RULE, ruleOf, rulesOf, type CheckName, type Need } from '../../../../lib/checks/registry.ts';
import { operation } from '../../../../lib/contract.ts';
import { catalogue } from '../../../../lib/rules.ts';
import { REPO_ROOT } from '../../../fixtures/listed-tests.ts';
import { repoFiles } from '../../../fixtures/repo-files.ts';

const NEEDS_IN_ORDER: readonly Need[] = ['one answer', 'a window of one key', 'a pair decided in order', 'a whole run'];
/** The parts of the product that judge: none may write a rule's ID itself. */
const JUDGING_PARTS = ['lib', 'harness', 'cli', 'matrix', 'specs'];
const REGISTRY = path.join('lib', 'checks', 'registry.ts');

/**
 * The code of a file without its comments and its tests' citations: prose may name a rule, and a test of the suite
 * cites the rule it is for (rule('LIST-1', …, { also: [...] }), which the rules page lists), but code judges by check.
 */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|#)/.test(line))
    .map((line) => line.replace(/\brule\(\s*'[A-Z][A-Z0-9-]*'/g, 'rule(').replace(/also: \[[^\]]*\]/g, 'also: []'))
    .join('\n');
}

/** Each rule's ID written as a literal of its own ('RL-6', "AUTH-1", `PLAN-${…}`), with the line it stands on. */
function ruleLiterals(text: string): string[] {
  const ids = catalogue.rules.map((rule) => rule.id.replace(/-/g, '\\-')).sort((a, b) => b.length - a.length);
  const literal = new RegExp(`(['"\`])(${ids.join('|')})\\1|\`PLAN-\\$\\{`, 'g');
  return code(text)
    .split('\n')
    .flatMap((line) => [...line.matchAll(literal)].map((match) => `${match[0]} in: ${line.trim().slice(0, 120)}`));
}

test('every rule of fixtures/rules.yaml is served by a registered check, and every check serves rules of the catalogue', () => {
  const unserved = catalogue.rules.filter((rule) => checksOf(rule.id).length === 0).map((rule) => rule.id);
  expect(unserved).toEqual([]);
  const unknown = checks.flatMap((check) => check.rules.filter((rule) => rule !== 'PLAN' && !catalogue.rules.some((known) => known.id === rule)).map((rule) => `${check.name}: ${rule}`));
  expect(unknown).toEqual([]);
});

test('each check is registered once, with the rules it serves, what it needs and what it judges', () => {
  const names = checks.map((check) => check.name);
  expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  for (const check of checks) {
    expect(check.rules.length, check.name).toBeGreaterThan(0);
    expect(NEEDS_IN_ORDER, check.name).toContain(check.need);
    expect(check.judges.length, check.name).toBeGreaterThan(10);
  }
});

test('an idea judged on several inputs is one check: its judgements serve the same rules, and a rule names one check per idea', () => {
  for (const idea of Object.keys(IDEAS)) {
    const judgements = checks.filter((check) => check.of === idea);
    expect(judgements.length, idea).toBeGreaterThan(1);
    expect(new Set(judgements.map((check) => check.rules.join(','))).size, idea).toBe(1);
    expect(checks.some((check) => check.name === idea), `${idea} is the name of an idea, not of a judgement`).toBe(false);
  }
  const [remaining, ...others] = ideasOf('RL-6');
  expect(others).toEqual([]);
  expect(remaining?.name).toBe('remaining');
  expect(remaining?.judgements.map((check) => `${check.need}: ${check.name}`)).toEqual([
    'one answer: remaining-value',
    'a window of one key: remaining-countdown',
    'a pair decided in order: remaining-steps',
    'one answer: refusal-says-left',
  ]);
  expect(ideasOf('RL-7').map((idea) => idea.name)).toEqual(['reset']);
  expect(ideasOf('SVC-1').map((idea) => idea.judgements.map((check) => check.name))).toEqual([['json-body']]);
});

test('every rule the judge shows from traffic, the load verdicts and the suite cite has a check', () => {
  for (const rule of Object.keys(NEEDS)) expect(checksOf(rule).filter((check) => check.traffic !== undefined).length, rule).toBeGreaterThan(0);
  for (const check of QUOTA_CHECKS) expect(rulesOf(check, 'pro'), check).toContain('PLAN-PRO');
  const cited = new Set(repoFiles('specs').flatMap((file) => [...readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(/\brule\(\s*'([A-Z][A-Z0-9-]+)'/g)].map((match) => match[1]!)));
  expect(cited.size).toBeGreaterThan(40);
  for (const rule of cited) expect(checksOf(rule).length, rule).toBeGreaterThan(0);
});

test('no part judges a rule outside the registry: no code file of lib, the harness, the CLI, the matrix or the suite writes a rule\'s ID but to cite the rule of a test', () => {
  const written = JUDGING_PARTS.flatMap((dir) => repoFiles(dir, /\.(ts|mjs|js|py)$/))
    .filter((file) => file !== REGISTRY)
    .flatMap((file) => ruleLiterals(readFileSync(path.join(REPO_ROOT, file), 'utf8')).map((literal) => `${file}: ${literal}`));
  expect(written).toEqual([]);
  // The scan finds what it looks for: the registry itself writes every rule.
  expect(ruleLiterals(readFileSync(path.join(REPO_ROOT, REGISTRY), 'utf8')).length).toBeGreaterThan(catalogue.rules.length - 5);
  expect(ruleLiterals("const x = { rule: 'RL-6' };\n// 'RL-7' in a comment\nconst y = `PLAN-${plan}`;")).toHaveLength(2);
  expect(ruleLiterals("test(...rule('RL-6', 'a title', { also: ['RL-7'] }), () => check.expect(ok, 'why', { rule: 'RL-4' }));")).toEqual([expect.stringMatching(/^'RL-4' in/)]);
});

test('a finding cites its check\'s rule; a check of several rules or of the plan\'s quota needs the one named', () => {
  expect(finding('retry-after-present', '429 without a Retry-After header')).toEqual({ check: 'retry-after-present', rule: 'RL-1', message: '429 without a Retry-After header' });
  expect(() => ruleOf('first-refusal', 'RL-6')).toThrow(/serves PLAN, RL-1, not RL-6/);
  expect(() => ruleOf('minute-max' as 'json-body')).toThrow(/name the rule/);
  expect(ruleOf('minute-max', 'PLAN-PRO')).toBe('PLAN-PRO');
  expect(quotaRule('pro', 'documented')).toBe('PLAN-PRO');
  expect(quotaRule('enterprise', 'agreed')).toBe('PLAN-ENTERPRISE-AGREED');
  expect(quotaRule(undefined, 'unstated')).toBe('RL-5');
  expect(checkNamed('remaining-steps').need).toBe('a pair decided in order');
  // Looked up once: every check of one rule (not the plan's quota) cites it through RULE.
  expect(Object.entries(RULE).length).toBe(checks.filter((check) => check.rules.length === 1 && check.rules[0] !== 'PLAN').length);
  expect(RULE['no-key-refused']).toBe('AUTH-1');
  expect(RULE['client-backs-off']).toBe('ERR-4');
});

test('the checks one function judges run by name: a pair decided in order, and one answer', () => {
  const reading = (remaining: number, reset: number, at: number) => ({ status: 200, limit: 60, remaining, reset, sentAt: at, receivedAt: at + 5 });
  // Two seconds back: one is within Reset's resolution (two nodes rounding one end apart).
  const pair = { previous: reading(10, 1_000, 900_000), next: reading(9, 998, 900_100), windowMs: 60_000, refills: false };
  expect(PAIR_JUDGEMENTS['reset-stable'](pair)[0]).toMatch(/moved back/);
  expect(PAIR_JUDGEMENTS['remaining-steps'](pair)).toEqual([]);
  expect(PAIR_JUDGEMENTS['remaining-steps']({ ...pair, next: reading(10, 1_000, 900_100) })[0]).toMatch(/fall from 10 to 9/);
  const refused = { operation: operation('listPets'), status: 429, headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2000000000' }, body: '{"code":"rate_limited","message":"slow down","status":429}', now: 1_999_999_990_000 };
  const judged = Object.fromEntries(ANSWER_CHECKS.map((check) => [check, answerJudgement(check)(refused).length]));
  expect(judged).toEqual({ ...Object.fromEntries(ANSWER_CHECKS.map((check) => [check, 0])), 'retry-after-present': 1 });
});

test('the rules page shows, for RL-6, its one check with each judgement, every part that runs one and every own test that names one', () => {
  const page = readFileSync(path.join(REPO_ROOT, 'docs', 'reference', 'rules.md'), 'utf8');
  const section = page.slice(page.indexOf('\n### RL-6\n'), page.indexOf('\n### ', page.indexOf('\n### RL-6\n') + 1));
  const checkLines = section.slice(section.indexOf('Checks (')).split('\n\n')[0]!.split('\n').filter((line) => line.startsWith('- '));
  expect(checkLines, 'one check').toHaveLength(1);
  const [remaining] = ideasOf('RL-6');
  const shown = checkLines[0]!;
  expect(shown.startsWith(`- \`${remaining!.name}\``)).toBe(true);
  const judgements = remaining!.judgements.map((check) => check.name as CheckName);
  for (const judgement of judgements) expect(shown, judgement).toContain(`\`${judgement}\``);
  const { parts, tests } = checkRunners(judgements);
  expect(parts.map(({ part }) => part)).toEqual(expect.arrayContaining(['the suite', 'the judge', 'load', 'replay']));
  for (const { part, files } of parts) {
    expect(shown, part).toContain(`${part} (`);
    for (const file of files) expect(shown, `${part}: ${file}`).toContain(`(../../${file})`);
  }
  expect(tests.length).toBeGreaterThan(3);
  for (const file of tests) expect(shown, file).toContain(`(../../${file})`);
});
