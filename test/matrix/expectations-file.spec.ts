import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { catalogue } from '../../lib/rules.ts';
import { ExpectationsFileError, readExpectations } from '../../matrix/expectations-file.ts';
import { parseImplementations } from '../../matrix/implementations-file.ts';
import { updatedExpectations } from '../../matrix/update-expectations.ts';
import { conformanceReport } from './support/conformance-reports.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'expectations-'));
const known = new Set(catalogue.rules.map((rule) => rule.id));

function file(name: string, text: string): string {
  const written = path.join(folder, name);
  writeFileSync(written, text);
  return written;
}

test('an expectations file lists rules or test titles, each with a reason and optionally a link', () => {
  const read = readExpectations(
    file('ok.yaml', 'failures:\n  - rule: RL-7\n    reason: Reset as seconds until reset\n    link: https://example.com/issues/1\n  - test: "LIST-1 MUST a title"\n    reason: known\n'),
    known,
  );
  expect(read).toEqual([
    { rule: 'RL-7', reason: 'Reset as seconds until reset', link: 'https://example.com/issues/1' },
    { test: 'LIST-1 MUST a title', reason: 'known' },
  ]);
  expect(readExpectations(path.join(folder, 'absent.yaml'), known)).toEqual([]);
  expect(readExpectations(file('empty.yaml', ''), known)).toEqual([]);
});

test('a bad expectations file names the file, the failure and what is wrong', () => {
  for (const [text, message] of [
    ['failures:\n  - rule: RL-99\n    reason: x\n', '"RL-99" is not a rule of fixtures/rules.yaml'],
    ['failures:\n  - rule: RL-7\n', 'failure 1: needs a reason'],
    ['failures:\n  - rule: RL-7\n    test: t\n    reason: x\n', 'give exactly one of rule'],
    ['failures:\n  - rule: RL-7\n    reason: x\n    ticket: 1\n', 'unknown field "ticket"'],
    ['failures: RL-7\n', '"failures" must be a list'],
    ['failures: [\n', 'not valid YAML'],
  ] as const) {
    const written = file('bad.yaml', text);
    expect(() => readExpectations(written, known), text).toThrow(ExpectationsFileError);
    expect(() => readExpectations(written, known), text).toThrow(message);
  }
});

test('--update-expectations writes the run\'s failures, keeping the reasons already given', () => {
  const implementations = parseImplementations(`implementations:\n  - name: x\n    bundled: true\n    expectations: x.expectations.yaml\n  - name: y\n    bundled: true\n`, path.join(folder, 'implementations.yaml'));
  const report = conformanceReport({ 'RL-7': { outcome: 'fail' }, 'LIST-1': { outcome: 'fail' } });
  const lines: string[] = [];
  const runs = updatedExpectations(
    [
      { name: 'x', target: 't', report, expectations: [{ rule: 'RL-7', reason: 'Reset as seconds', link: 'https://example.com/1' }, { rule: 'AUTH-1', reason: 'fixed since' }] },
      { name: 'y', target: 't', report: conformanceReport(), expectations: [] },
    ],
    implementations,
    (line) => lines.push(line),
  );
  const written = readExpectations(path.join(folder, 'x.expectations.yaml'), known);
  expect(written).toEqual([
    { rule: 'LIST-1', reason: expect.stringMatching(/^failed on 2026-11-23: \[LIST-1\] broke/) },
    { rule: 'RL-7', reason: 'Reset as seconds', link: 'https://example.com/1' },
  ].sort((a, b) => catalogue.rules.findIndex((rule) => rule.id === a.rule) - catalogue.rules.findIndex((rule) => rule.id === b.rule)));
  expect(runs[0]!.expectations).toEqual(written);
  expect(readFileSync(path.join(folder, 'y.expectations.yaml'), 'utf8')).toContain('failures: []');
  expect(lines).toEqual([
    'certify: x: wrote x.expectations.yaml (2 expected failures)',
    'certify: y: wrote y.expectations.yaml (0 expected failures); add "expectations: y.expectations.yaml" to its entry',
  ]);
});
