/**
 * `npm run matrix:clients [-- --runs N] [-- --update] [-- --client NAME]`: the client matrix (client-matrix.ts) run N times (default 1),
 * printed as a table, each client's evidence written to reports/client-matrix/ (index.html, matrix.json), and held
 * against expectations.yaml: exit 0 when every verdict is as recorded and the same in every run, 1 naming what
 * changed or flapped. --update records the verdicts instead, only when every run agreed. --client NAME (again for
 * more) runs those rows alone; with --update, only their verdicts are recorded, the others' kept.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { differences, MATRIX_CLIENTS, matrixTable, readClientExpectations, runMatrix, unstableCells, writeClientExpectations, type ClientResult, type MatrixClient } from './client-matrix.ts';
import { generateSdks, HEY_API, OPENAPI_TYPESCRIPT } from './generate-sdks.ts';
import { renderClientMatrix } from './render-html.ts';
import { CLIENT_RULES } from '../../harness/judge/client-exchange.ts';

const USAGE = 'usage: npm run matrix:clients [-- --runs N] [-- --update] [-- --client NAME ...]';

function options(): { update: boolean; runs: number; clients: readonly MatrixClient[] } {
  try {
    const { values } = parseArgs({ options: { update: { type: 'boolean' }, runs: { type: 'string' }, client: { type: 'string', multiple: true } }, strict: true });
    const runs = values.runs ?? '1';
    if (!/^[1-9]\d?$/.test(runs)) throw new Error(`--runs must be a whole number from 1 to 99, not "${runs}"`);
    const unknown = (values.client ?? []).filter((name) => !MATRIX_CLIENTS.some((client) => client.name === name));
    if (unknown.length > 0) throw new Error(`no client named ${unknown.map((name) => `"${name}"`).join(', ')} in the matrix; its clients: ${MATRIX_CLIENTS.map((client) => client.name).join('; ')}`);
    const clients = values.client ? MATRIX_CLIENTS.filter((client) => values.client?.includes(client.name)) : MATRIX_CLIENTS;
    return { update: values.update ?? false, runs: Number(runs), clients };
  } catch (error) {
    process.stderr.write(`matrix:clients: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    process.exit(2);
  }
}

const { update, runs, clients } = options();
try {
  process.stderr.write(`generating the SDK rows from fixtures/openapi.yaml (${OPENAPI_TYPESCRIPT}, ${HEY_API})\n`);
  generateSdks();
} catch (error) {
  process.stderr.write(`matrix:clients: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const all: ClientResult[][] = [];
for (let run = 1; run <= runs; run++) {
  process.stderr.write(`client matrix, run ${run} of ${runs}\n`);
  all.push(await runMatrix(clients, 2, (result) => process.stderr.write(`  ${result.name}: ${CLIENT_RULES.map((rule) => `${rule} ${result.verdicts[rule]}`).join(', ')} (${result.requests} requests, ${(result.durationMs / 1000).toFixed(1)} s)\n`)));
}
const results = all[0] as ClientResult[];
const unstable = unstableCells(all);
const changed = unstable.length > 0 || update ? [] : differences(results, readClientExpectations());
process.stdout.write(`${matrixTable(results)}\n`);
const out = path.resolve('reports', 'client-matrix');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'matrix.json'), `${JSON.stringify({ runs, unstable, results }, null, 2)}\n`);
writeFileSync(path.join(out, 'index.html'), renderClientMatrix(results, { runs, unstable, changed }));
process.stdout.write(`Report: ${path.relative(process.cwd(), path.join(out, 'index.html'))}\n`);
if (unstable.length > 0) {
  for (const line of unstable) process.stdout.write(`unstable: ${line}\n`);
  process.stdout.write(`Not recorded: ${unstable.length} verdicts differed between the ${runs} runs\n`);
  process.exitCode = 1;
} else if (update) {
  writeClientExpectations(results);
  process.stdout.write(`Recorded in matrix/clients/expectations.yaml${runs > 1 ? `: the same verdicts in all ${runs} runs` : ''}\n`);
} else {
  for (const line of changed) process.stdout.write(`changed: ${line}\n`);
  if (runs > 1 && changed.length === 0) process.stdout.write(`As recorded, and the same verdicts in all ${runs} runs\n`);
  process.exitCode = changed.length > 0 ? 1 : 0;
}
