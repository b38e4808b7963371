import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fixturePath, readFixtureYaml } from './fixtures.ts';
import type { Level } from './verdicts/level.ts';

export { LEVELS, type Level } from './verdicts/level.ts';
export type Subject = 'service' | 'client';
/** enterprise-quota-agreed: the run states the agreed Enterprise quota (PETSTORE_ENTERPRISE_PER_MINUTE and _PER_DAY). */
export type Condition = 'enterprise-quota-agreed';

export interface Rule {
  id: string;
  level: Level;
  section: string;
  rule: string;
  /** For a GAP: what the spec does not say. */
  silent?: string;
  /** A rule that binds only when the run states something the spec leaves to an agreement. */
  appliesWhen?: Condition;
  subject: Subject;
}

export interface RulesCatalogue {
  spec: string;
  specVersion: string;
  sections: string[];
  rules: Rule[];
}

function load(): RulesCatalogue {
  const raw = readFixtureYaml('rules.yaml') as RulesCatalogue & { rules: Array<Rule & { subject?: Subject }> };
  return { ...raw, rules: raw.rules.map((rule) => ({ ...rule, subject: rule.subject ?? 'service' })) };
}

export const catalogue: Readonly<RulesCatalogue> = load();

const byId = new Map(catalogue.rules.map((rule) => [rule.id, rule]));

export function findRule(id: string): Rule | undefined {
  return byId.get(id);
}

/** The rule with this id; throws naming the id when the catalogue has none, so a typo cannot cite nothing. */
export function ruleById(id: string): Rule {
  const rule = byId.get(id);
  if (!rule) throw new Error(`rule "${id}" is not in fixtures/rules.yaml`);
  return rule;
}

/** The catalogue's fingerprint: reports and matrices of runs against different rules say so. */
export function rulesHash(): string {
  return createHash('sha256').update(readFileSync(fixturePath('rules.yaml'))).digest('hex');
}
