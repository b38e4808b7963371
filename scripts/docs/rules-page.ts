/**
 * docs/reference/rules.md: every rule of fixtures/rules.yaml with its level, its sentence, the section of the
 * spec it comes from, the checks that judge it (lib/checks/registry.ts) with the parts that run each and the own
 * tests that name it (scripts/docs/check-parts.ts), and the tests that cite it (as `playwright test --list` finds
 * them, so no test runs).
 */
import type { ClientRule } from '../../harness/judge/client-exchange.ts';
import { readClientExpectations } from '../../matrix/clients/client-matrix.ts';
import { ideasOf, type CheckName } from '../../lib/checks/registry.ts';
import { catalogue, type Rule } from '../../lib/rules.ts';
import { sectionAnchors } from '../../lib/spec-sections.ts';
import type { ListedTest } from '../../test/fixtures/listed-tests.ts';
import { checkRunners } from './check-parts.ts';
import { ownTests, suiteTests } from './listings.ts';
import { generatedNotice } from './markdown.ts';

const SPEC = '../../fixtures/spec/pet-store-interface.md';
const LEVEL_MEANING = { MUST: 'a violation fails certification', SHOULD: 'a violation is a warning', GAP: 'the spec is silent: observed and reported, never failed' };

interface CitingTest {
  /** From the repository root. */
  file: string;
  title: string;
}

export async function rulesPage(): Promise<string> {
  const [suite, own] = await Promise.all([suiteTests(), ownTests()]);
  const citing = new Map<string, CitingTest[]>();
  const add = (tests: readonly ListedTest[], folder: string): void => {
    for (const t of tests) {
      for (const id of t.rules) {
        const list = citing.get(id) ?? [];
        const entry = { file: `${folder}${t.file}`, title: t.fullTitle };
        if (!list.some((other) => other.file === entry.file && other.title === entry.title)) list.push(entry);
        citing.set(id, list);
      }
    }
  };
  add(suite, '');
  add(own, 'test/');
  const anchors = sectionAnchors();
  const counts = (['MUST', 'SHOULD', 'GAP'] as const).map((level) => `${catalogue.rules.filter((r) => r.level === level).length} ${level}`).join(', ');
  const sections = catalogue.sections
    .map((section) => {
      const rules = catalogue.rules.filter((rule) => rule.section === section);
      if (rules.length === 0) return '';
      const anchor = anchors.get(section);
      const where = anchor ? `The spec: [${section}](${SPEC}#${anchor}).` : '';
      return [`## ${section}`, '', where, '', ...rules.map((rule) => ruleEntry(rule, citing.get(rule.id) ?? []))].join('\n');
    })
    .filter(Boolean);
  return `${generatedNotice('fixtures/rules.yaml and the tests that cite each rule')}

# Rules catalogue

Every rule of the [Pet Store interface ${catalogue.specVersion}](${SPEC}), one entry each, with the ID that
reports, test titles and expectations files use. ${catalogue.rules.length} rules: ${counts}.
${Object.entries(LEVEL_MEANING).map(([level, meaning]) => `**${level}**: ${meaning}.`).join(' ')}
What each verdict means: [how a verdict is earned](../explanation/verdicts.md). To add a rule:
[add a rule with its test](../how-to/add-a-rule.md).

${sections.join('\n\n')}
`;
}

/** What the client matrix recorded for a client rule: each client with its verdict. */
function clientsTried(rule: string): string {
  const recorded = readClientExpectations();
  return Object.entries(recorded).map(([client, verdicts]) => `${client} ${verdicts[rule as ClientRule] ?? 'not tried'}`).join(', ');
}

function ruleEntry(rule: Rule, tests: readonly CitingTest[]): string {
  const facts = [
    `**${rule.level}**`,
    rule.subject === 'client' ? 'binds a client: judged per key from traffic (`judge`, `record --judge`), on any client by `certify-client`, and on the suite\'s own clients under test/' : 'binds the service',
    ...(rule.appliesWhen === 'enterprise-quota-agreed' ? ['applies only to a run that states an agreed Enterprise quota'] : []),
  ];
  const lines = [`### ${rule.id}`, '', `${facts.join(' · ')}`, '', rule.rule];
  if (rule.silent) lines.push('', `*The spec is silent:* ${rule.silent}`);
  if (rule.subject === 'client') lines.push('', `Clients tried ([the client matrix](../how-to/certify-a-client.md#the-client-matrix-popular-javascript-clients-tried), as recorded): ${clientsTried(rule.id)}.`);
  lines.push('', checksPart(rule.id));
  lines.push('', tests.length === 0 ? 'Tests: none cite it.' : `Tests:\n${tests.map((t) => `- [\`${t.file}\`](../../${t.file}): ${t.title.replace(/\|/g, '\\|')}`).join('\n')}`);
  return lines.join('\n') + '\n';
}

/**
 * The checks of a rule, one per idea, each with what it judges on each input it needs (a judgement per need, where an
 * idea is judged on more than one), the parts that run it and the own tests that name it.
 */
function checksPart(rule: string): string {
  const entries = ideasOf(rule).map((idea) => {
    const { parts, tests } = checkRunners(idea.judgements.map((judgement) => judgement.name as CheckName));
    const run = parts.length === 0 ? 'Run by the suite\'s tests that cite the rule.' : `Run by ${parts.map(({ part, files }) => `${part} (${files.map(link).join(', ')})`).join('; ')}.`;
    const named = tests.length === 0 ? '' : ` Own tests that name it: ${tests.map(link).join(', ')}.`;
    const [only] = idea.judgements;
    if (idea.judgements.length === 1 && only!.name === idea.name) return `- \`${idea.name}\`, on ${only!.need}: ${idea.judges}. ${run}${named}`;
    const needs = [...new Set(idea.judgements.map((judgement) => judgement.need))];
    const judged = needs.map((need) => `on ${need} (${idea.judgements.filter((judgement) => judgement.need === need).map((judgement) => `\`${judgement.name}\`: ${judgement.judges}`).join('; ')})`);
    return `- \`${idea.name}\`: ${idea.judges}. Judged ${judged.join(', ')}. ${run}${named}`;
  });
  return `Checks ([the registry](../../lib/checks/registry.ts)):\n${entries.join('\n')}`;
}

function link(file: string): string {
  return `[\`${file}\`](../../${file})`;
}
