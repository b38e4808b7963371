/**
 * `npm run matrix:clients [-- --update]`: the client matrix (client-matrix.ts) run, printed as a table, each
 * client's evidence written to reports/client-matrix/matrix.json, and held against expectations.yaml: exit 0
 * when every verdict is as recorded, 1 naming what changed. --update records this run's verdicts instead.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { differences, matrixTable, readClientExpectations, runMatrix, writeClientExpectations } from './client-matrix.ts';

const update = process.argv.includes('--update');
const results = await runMatrix();
process.stdout.write(`${matrixTable(results)}\n`);
const out = path.resolve('reports', 'client-matrix');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'matrix.json'), `${JSON.stringify(results, null, 2)}\n`);
if (update) {
  writeClientExpectations(results);
  process.stdout.write('Recorded in matrix/clients/expectations.yaml\n');
} else {
  const changed = differences(results, readClientExpectations());
  for (const line of changed) process.stdout.write(`changed: ${line}\n`);
  process.exitCode = changed.length > 0 ? 1 : 0;
}
