/**
 * The published report formats: each schema compiles strictly, describes what the code writes (its format
 * name and version), and refuses a report of another version. Real outputs are held to them in the tests
 * that make them (replay, load, the conformance report, the matrix).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { catalogue } from '../../lib/rules.ts';
import { buildMatrix } from '../../matrix/build-matrix.ts';
import { conformanceReport } from '../matrix/support/conformance-reports.ts';
import { REPORT_FORMATS, schemaFile, schemaProblems } from '../support/report-schemas.ts';

test('every schema names its format and version 1, as the code writes them', () => {
  const named = REPORT_FORMATS.map((format) => {
    const schema = JSON.parse(readFileSync(schemaFile(format), 'utf8')) as { properties: { format: { const: string }; formatVersion: { const: number } } };
    return [format, schema.properties.format.const, schema.properties.formatVersion.const];
  });
  expect(named).toEqual([
    ['conformance-report', 'petstore-conformance-report', 1],
    ['matrix', 'petstore-matrix', 1],
    ['load-summary', 'petstore-load-summary', 1],
    ['replay-summary', 'petstore-replay-summary', 1],
  ]);
});

test('a conformance report built by the verdict model is valid, and one of another version is not', () => {
  const report = conformanceReport({ 'LIST-1': { outcome: 'fail' } });
  expect(schemaProblems('conformance-report', report)).toEqual([]);
  expect(schemaProblems('conformance-report', { ...report, formatVersion: 2 })).toEqual(['/formatVersion must be equal to constant']);
  expect(schemaProblems('conformance-report', { ...report, verdict: { ...report.verdict, state: 'fine' } })[0]).toContain('/verdict/state must be equal to one of the allowed values');
});

test('a matrix built from reports is valid, and one without its rows is not', () => {
  const matrix = buildMatrix(
    [
      { name: 'reference', target: 'started: npm', report: conformanceReport(), expectations: [] },
      { name: 'silent', target: 'http://127.0.0.1:9/v1', problem: 'nothing answered', expectations: [] },
    ],
    catalogue,
    '0.1.0',
    'a'.repeat(64),
  );
  expect(schemaProblems('matrix', matrix)).toEqual([]);
  const { rows: _rows, ...withoutRows } = matrix;
  expect(schemaProblems('matrix', withoutRows)).toEqual(["/ must have required property 'rows'"]);
});
