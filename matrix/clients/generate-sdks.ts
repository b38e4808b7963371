/**
 * The client matrix's SDK rows are generated from the contract by a generator from npm, at every matrix run, so
 * that they are what a team would get today: openapi-typescript's types for openapi-fetch. openapi-typescript
 * needs TypeScript's JavaScript API, which the project's TypeScript 7 (the native compiler) lacks, so it runs
 * through npx with TypeScript 5.9 beside it, not as a dependency.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const OPENAPI_TYPESCRIPT = 'openapi-typescript@7.13';
const GENERATED = path.join('matrix', 'clients', 'sdks', 'generated', 'openapi-typescript.d.ts');

/** Writes the generated types (committed, so the project typechecks without a run); throws saying what failed. */
export function generateSdks(): void {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const result = spawnSync(npx, ['--yes', '-p', OPENAPI_TYPESCRIPT, '-p', 'typescript@5.9', 'openapi-typescript', 'fixtures/openapi.yaml', '-o', GENERATED], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`could not generate the SDK from fixtures/openapi.yaml with ${OPENAPI_TYPESCRIPT} (npx needs the npm registry): ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ')}`);
}
