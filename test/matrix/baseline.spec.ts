import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { catalogue } from '../../lib/rules.ts';
import { BaselineError, changesSince, readBaseline } from '../../matrix/baseline.ts';
import { buildMatrix } from '../../matrix/build-matrix.ts';
import { conformanceReport } from './support/conformance-reports.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'baseline-'));
const cellsOf = (report: ReturnType<typeof conformanceReport>) =>
  new Map(report.rules.map((row) => [row.id, { verdict: row.verdict, ...(row.gists.length > 0 ? { gist: row.gists[0]!.text } : {}) }]));

test('against an earlier matrix.json: rules that regressed, rules that now pass, GAP behaviour that changed, implementations that are new', () => {
  const earlier = buildMatrix(
    [
      { name: 'a', target: 't', report: conformanceReport({ 'LIST-1': { outcome: 'fail' }, 'RL-GAP-2': { gist: 'fixed windows' } }), expectations: [] },
      { name: 'b', target: 't', report: conformanceReport(), expectations: [] },
    ],
    catalogue,
    '0.1.0',
    'hash',
  );
  const file = path.join(folder, 'matrix.json');
  writeFileSync(file, JSON.stringify(earlier));
  const baseline = readBaseline(file, ['a', 'b', 'c']);

  const now = conformanceReport({ 'RL-7': { outcome: 'fail' }, 'DEP-3': { outcome: 'warn' }, 'RL-GAP-2': { gist: 'sliding windows' } });
  const changes = changesSince(baseline, 'a', cellsOf(now));
  expect(changes.regressed.map((change) => change.rule).sort()).toEqual(['DEP-3', 'RL-7']);
  expect(changes.regressed.find((change) => change.rule === 'RL-7')).toEqual({ rule: 'RL-7', before: 'pass', after: 'fail' });
  expect(changes.nowPass).toEqual([{ rule: 'LIST-1', before: 'fail', after: 'pass' }]);
  expect(changes.gapChanged).toEqual([{ rule: 'RL-GAP-2', before: 'fixed windows', after: 'sliding windows' }]);
  expect(changes.newImplementation).toBe(false);
  expect(changesSince(baseline, 'b', cellsOf(conformanceReport()))).toEqual({ regressed: [], nowPass: [], gapChanged: [], newImplementation: false });
  expect(changesSince(baseline, 'c', cellsOf(conformanceReport())).newImplementation).toBe(true);
});

test("a conformance.json is the baseline of the implementation whose report folder holds it, or of the only one", () => {
  const inFolder = path.join(folder, 'certify', 'b');
  mkdirSync(inFolder, { recursive: true });
  writeFileSync(path.join(inFolder, 'conformance.json'), JSON.stringify(conformanceReport({ 'LIST-1': { outcome: 'fail' } })));
  const baseline = readBaseline(path.join(inFolder, 'conformance.json'), ['a', 'b']);
  expect([...baseline.keys()]).toEqual(['b']);
  expect(changesSince(baseline, 'b', cellsOf(conformanceReport())).nowPass.map((change) => change.rule)).toEqual(['LIST-1']);

  const loose = path.join(folder, 'conformance.json');
  writeFileSync(loose, JSON.stringify(conformanceReport()));
  expect([...readBaseline(loose, ['only']).keys()]).toEqual(['only']);
  expect(() => readBaseline(loose, ['a', 'b'])).toThrow(/keep it in reports\/certify\/<name>\//);
});

test('a baseline that is not a report of this suite is one clear error', () => {
  const junk = path.join(folder, 'junk.json');
  writeFileSync(junk, '{"format": "something-else"}');
  expect(() => readBaseline(junk, ['a'])).toThrow(BaselineError);
  expect(() => readBaseline(junk, ['a'])).toThrow('neither a matrix.json nor a conformance.json');
  expect(() => readBaseline(path.join(folder, 'missing.json'), ['a'])).toThrow('cannot read it as JSON (ENOENT)');
});
