#!/usr/bin/env node
// The package ships TypeScript; tsx (a runtime dependency) runs it without a build step.
import module from 'node:module';

// Where Node has it (22.1 and later), V8's compiled code of each module, tsx's included, is kept on disk for the
// next run (Node's own cache, in the temporary folder): about 8% of the CPU of judging a small capture on Node 22.
module.enableCompileCache?.();
const { register } = await import('tsx/esm/api');
register();
await import('../cli/main.ts');
