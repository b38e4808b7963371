/**
 * The client matrix (matrix/clients/): its recorded verdicts cover every client it runs, and real libraries
 * from npm, run through the refusing server at the matrix's fast clock, get the verdicts recorded for them.
 * The whole matrix is `npm run matrix:clients` (some minutes); here, one library alone and in a program that
 * calls again at once (they differ on ERR-3), and one that differs on ERR-4.
 */
import { expect, test } from '@playwright/test';
import { differences, MATRIX_CLIENTS, readClientExpectations, runMatrix, unstableCells, type ClientResult } from '../../matrix/clients/client-matrix.ts';
import { renderClientMatrix } from '../../matrix/clients/render-html.ts';

test('the recorded client matrix names every client it runs, each with a verdict per client rule', () => {
  const recorded = readClientExpectations();
  expect(Object.keys(recorded).sort()).toEqual(MATRIX_CLIENTS.map((client) => client.name).sort());
  for (const verdicts of Object.values(recorded)) expect(Object.keys(verdicts).sort()).toEqual(['ERR-3', 'ERR-4']);
});

test('ERR-3 ERR-4 real libraries from npm get the verdicts the matrix recorded: axios-retry backs off, but gives up in a program that calls again at once; ky waits exactly each Retry-After', async () => {
  test.setTimeout(150_000);
  const names = ['axios-retry', 'axios-retry, calls at once', 'ky retry.limit 10'];
  const results = await runMatrix(MATRIX_CLIENTS.filter((client) => names.includes(client.name)));
  expect(differences(results, readClientExpectations())).toEqual([]);
  expect(results.map((result) => [result.name, result.verdicts])).toEqual([
    ['ky retry.limit 10', { 'ERR-3': 'pass', 'ERR-4': 'warn' }],
    ['axios-retry', { 'ERR-3': 'pass', 'ERR-4': 'pass' }],
    ['axios-retry, calls at once', { 'ERR-3': 'warn', 'ERR-4': expect.any(String) }],
  ]);
  expect(results[0]?.evidence['ERR-4']).toMatch(/retries refused in a row .* the waits do not grow, no backoff/);
  // The call after giving up went out at once, within the 5 s the key was still refused for.
  expect(results[2]?.evidence['ERR-3']).toMatch(/sent before the Retry-After 5 s of its last 429 had passed/);
});

test('a verdict that differs between runs is named, never recorded; the page says so and escapes what clients sent', () => {
  const result = (err4: 'pass' | 'warn', evidence = ''): ClientResult => ({ name: 'got <retry>', description: 'got', versions: 'got 16', verdicts: { 'ERR-3': 'pass', 'ERR-4': err4 }, evidence: err4 === 'warn' ? { 'ERR-4': evidence } : {}, requests: 42, durationMs: 5_000, waits: [{ label: '5 s', askedMs: 5_000, waitedMs: 5_100 }, { label: '30 s', askedMs: 30_000, waitedMs: undefined }] });
  const runs = [[result('warn', 'GET /pets?<script>')], [result('pass')], [result('warn', 'x')]];
  expect(unstableCells(runs)).toEqual(['got <retry> ERR-4: warn, pass, warn']);
  expect(unstableCells([[result('pass')], [result('pass')]])).toEqual([]);
  const page = renderClientMatrix(runs[0] as ClientResult[], { runs: 3, unstable: unstableCells(runs), changed: [] });
  expect(page).toContain('Not as recorded: 1 cell');
  expect(page).toContain('unstable: got &#60;retry&#62; ERR-4: warn, pass, warn');
  expect(page).not.toContain('<script>');
  expect(page).toContain('<svg');
});
