#!/usr/bin/env node
// The package ships TypeScript; tsx (a runtime dependency) runs it without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
