/** `petstore-conformance certify implementations.yaml`: the matrix workflow's flags, checked before anything runs. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { rulesHash } from '../lib/rules.ts';
import { BaselineError } from '../matrix/baseline.ts';
import { CertifyManyError, certifyMany } from '../matrix/certify-many.ts';
import { ExpectationsFileError } from '../matrix/expectations-file.ts';
import { ImplementationsFileError } from '../matrix/implementations-file.ts';
import { PACKAGE_ROOT } from '../lib/processes/child.ts';
import { parseFlags } from './flags.ts';
import { UsageError } from './usage-error.ts';
import { commandFlags } from '../lib/cli/vocabulary.ts';

const MAX_PARALLEL = 8;

/** certify's flags with an implementations file, which names every target itself. */
export const CERTIFY_IMPLEMENTATIONS_FLAGS = commandFlags('certify', ['parallel', 'baseline', 'update-expectations', 'output', 'help']);

export async function certifyImplementations(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, help: string): Promise<number> {
  if (args.includes('--')) throw new UsageError('certify: with an implementations file, Playwright flags cannot be passed; each implementation is certified by the whole suite');
  const { values, positionals } = parseFlags(CERTIFY_IMPLEMENTATIONS_FLAGS, args);
  if (values.help) {
    process.stdout.write(`${help}\n`);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`certify: one implementations file at a time, not also "${positionals[1]}"`);
  const parallel = values.parallel === undefined ? 1 : Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > MAX_PARALLEL) throw new UsageError(`certify: --parallel must be a whole number from 1 to ${MAX_PARALLEL}, not "${values.parallel}"`);
  if (values.output !== undefined && values.output.trim() === '') throw new UsageError('certify: --output needs a folder, e.g. --output reports/certify');
  if (values.baseline !== undefined && values.baseline.trim() === '') throw new UsageError('certify: --baseline needs a matrix.json or conformance.json of an earlier run');
  try {
    return await certifyMany({
      implementationsFile: path.resolve(cwd, positionals[0]!),
      outputDir: path.resolve(cwd, values.output ?? path.join('reports', 'certify')),
      parallel,
      updateExpectations: values['update-expectations'] === true,
      ...(values.baseline === undefined ? {} : { baseline: path.resolve(cwd, values.baseline) }),
      env,
      suiteVersion: (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
      rulesHash: rulesHash(),
      write: (line) => process.stdout.write(`${line}\n`),
    });
  } catch (error) {
    if (error instanceof ImplementationsFileError || error instanceof CertifyManyError || error instanceof BaselineError || error instanceof ExpectationsFileError) {
      throw new UsageError(`certify: ${error.message}`);
    }
    throw error;
  }
}
