// A worker thread does not inherit the tsx loader the command registered. Where Node strips types itself (22.18 and
// later) the reader is loaded as it is, about 55 ms sooner than after registering tsx: the judging thread waits for
// the first entries that long. Node does not strip types under node_modules (the package installed), nor before 22.18:
// there the worker registers tsx first.
if (!process.features.typescript || import.meta.url.includes('/node_modules/')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./har-reading-worker.ts');
