// A worker thread does not inherit the tsx loader the command registered: it registers its own, then loads the reader.
import { register } from 'tsx/esm/api';

register();
await import('./har-reading-worker.ts');
