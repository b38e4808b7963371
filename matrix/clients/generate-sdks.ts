/**
 * The client matrix's SDK rows are generated from the contract by two generators from npm, at every matrix run,
 * so that they are what a team would get today: openapi-typescript's types for openapi-fetch, and
 * @hey-api/openapi-ts's SDK on its Axios client. Both need TypeScript's JavaScript API, which the project's
 * TypeScript 7 (the native compiler) lacks, so each runs through npx with TypeScript 5.9 beside it, not as a
 * dependency.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const OPENAPI_TYPESCRIPT = 'openapi-typescript@7.13';
export const HEY_API = '@hey-api/openapi-ts@0.99';
const GENERATED = path.join('matrix', 'clients', 'sdks', 'generated');
/**
 * hey-api writes the client's code itself (some twenty files, imports without extensions, as it writes them), so it
 * is not committed, typechecked nor read as the project's code: it is written under node_modules/.cache at every
 * run (where its `import 'axios'` finds the project's axios), and the SDK's driver loads it at run time.
 */
export const HEY_API_OUTPUT = path.join(ROOT, 'node_modules', '.cache', 'petstore-client-matrix', 'hey-api');

const GENERATORS: readonly { name: string; bin: string; args: string[] }[] = [
  // Committed too, so the project typechecks the openapi-fetch driver without a run.
  { name: OPENAPI_TYPESCRIPT, bin: 'openapi-typescript', args: ['fixtures/openapi.yaml', '-o', path.join(GENERATED, 'openapi-typescript.d.ts')] },
  { name: HEY_API, bin: 'openapi-ts', args: ['-i', path.join(ROOT, 'fixtures', 'openapi.yaml'), '-o', HEY_API_OUTPUT, '-c', '@hey-api/client-axios'] },
];

/** Writes each generator's SDK from fixtures/openapi.yaml; throws saying which failed and why. */
export function generateSdks(): void {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  for (const generator of GENERATORS) {
    const result = spawnSync(npx, ['--yes', '-p', generator.name, '-p', 'typescript@5.9', generator.bin, ...generator.args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
    if (result.status !== 0) throw new Error(`could not generate the SDK from fixtures/openapi.yaml with ${generator.name} (npx needs the npm registry): ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ')}`);
  }
}
