/**
 * The manual's numbers are the code's: a number marked `<!-- generated:NAME -->` holds what
 * scripts/docs/facts.ts computes from the code, and a count the code decides (rules, broken servers,
 * legitimate servers, the bundled clock) that someone typed without a mark still has to equal the code's.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { docFacts, LEGITIMATE_SERVER_TITLE } from '../../scripts/docs/facts.ts';
import { ownTests } from '../../scripts/docs/listings.ts';
import { fillFragments, fragmentNames } from '../../scripts/docs/fragments.ts';
import { manualFiles } from '../../scripts/docs/links.ts';
import { handWrittenPages, staleNumbersLine, unknownFactLine } from '../../scripts/docs/reference.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

test('a fragment takes its fact\'s value, a block fragment keeps its lines, and a name the code does not give is reported with its line', () => {
  const page = [
    'There are <!-- generated:rules -->70<!-- /generated --> rules, <!-- generated:rules -->71<!-- /generated --> still.',
    '<!-- generated:output -->',
    '```text',
    'old',
    '```',
    '<!-- /generated -->',
    'And <!-- generated:nowhere -->3<!-- /generated -->.',
  ].join('\n');
  const { text, unknown } = fillFragments(page, { rules: '72', output: '\n```text\nnew\n```\n' });
  expect(text).toBe(
    [
      'There are <!-- generated:rules -->72<!-- /generated --> rules, <!-- generated:rules -->72<!-- /generated --> still.',
      '<!-- generated:output -->',
      '```text',
      'new',
      '```',
      '<!-- /generated -->',
      'And <!-- generated:nowhere -->3<!-- /generated -->.',
    ].join('\n'),
  );
  expect(unknown).toEqual([{ name: 'nowhere', line: 7 }]);
  expect(fragmentNames(page)).toEqual(['rules', 'output', 'nowhere']);
  expect(fillFragments(text, { rules: '72', output: '\n```text\nnew\n```\n', nowhere: '3' }).text).toBe(text);
});

test('a stale page and an unknown name are each one line naming the page and what to do', () => {
  expect(staleNumbersLine('docs/tutorial.md')).toBe('docs/tutorial.md states numbers the code no longer gives: run npm run docs:reference');
  expect(unknownFactLine('README.md', 15, 'rule-count')).toBe('README.md:15 marks a number "rule-count" that scripts/docs/facts.ts does not give: name one it gives, or add it there');
});

test('every number marked in the README and the manual is the one the code gives', async () => {
  const pages = await handWrittenPages();
  expect(pages.flatMap((page) => page.problems)).toEqual([]);
  expect(pages.filter((page) => page.written !== page.generated).map((page) => staleNumbersLine(page.page))).toEqual([]);
  expect(pages.some((page) => fragmentNames(page.written).length > 0), 'the manual marks its numbers').toBe(true);
});

test('a mark never begins a line inside a paragraph, where Markdown would take it for an HTML block', async () => {
  const misplaced = (await handWrittenPages()).flatMap(({ page, written }) =>
    written.split('\n').flatMap((line, index) => (/^\s*<!-- (?:generated:[a-z0-9-]+|\/generated) -->./.test(line) ? [`${page}:${index + 1}: ${line.trim().slice(0, 60)}`] : [])),
  );
  expect(misplaced).toEqual([]);
});

test('every test of the legitimate-variants file is counted as a legitimate server', async () => {
  const uncounted = (await ownTests()).filter((t) => t.file.endsWith('legitimate-variants.spec.ts') && !t.title.startsWith(LEGITIMATE_SERVER_TITLE)).map((t) => t.title);
  expect(uncounted, `title them ${LEGITIMATE_SERVER_TITLE}<name>" … so the manual's count of legitimate servers (scripts/docs/facts.ts) includes them`).toEqual([]);
});

/** Counts the code decides, as prose states them: a number typed without a mark must still be the code's. */
const CLAIMS: ReadonlyArray<{ pattern: RegExp; fact: string }> = [
  { pattern: /\b(\d[\d,]*) (?:broken servers|faults)\b/g, fact: 'broken-servers' },
  { pattern: /\b(\d[\d,]*) legitimate (?:servers|variants)\b/g, fact: 'legitimate-servers' },
  { pattern: /\ball (\d[\d,]*) MUST rules hold\b/g, fact: 'bundled-must-rules' },
  { pattern: /\b(\d[\d,]*) GAP rules\b/g, fact: 'gap-rules' },
  { pattern: /\b(\d[\d,]*) rules in (?:all|the catalogue)\b/g, fact: 'rules' },
  { pattern: /\bbundled (?:certification|server|run)[^.]*? (?:runs at|at a clock rate of) (\d[\d,]*)\b/g, fact: 'bundled-clock-rate' },
];

test('no count the code decides is typed into the manual, generated reference included, with another value', async () => {
  const facts = await docFacts();
  const wrong: string[] = [];
  for (const page of manualFiles(REPO_ROOT)) {
    const written = readFileSync(path.join(REPO_ROOT, page), 'utf8');
    const unmarked = written.replace(/<!-- generated:[a-z0-9-]+ -->[\s\S]*?<!-- \/generated -->/g, (fragment) => fragment.replace(/[^\n]/g, ' '));
    for (const { pattern, fact } of CLAIMS) {
      for (const match of unmarked.matchAll(pattern)) {
        if (match[1] === facts[fact]!.value) continue;
        const line = unmarked.slice(0, match.index).split('\n').length;
        wrong.push(`${page}:${line} says "${match[0]}", the code gives ${facts[fact]!.value} (${facts[fact]!.from}): state it from the code (in a hand-written page, <!-- generated:${fact} -->)`);
      }
    }
  }
  expect(wrong).toEqual([]);
});
