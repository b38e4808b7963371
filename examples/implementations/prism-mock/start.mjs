/**
 * Starts `prism mock` on fixtures/openapi.yaml at HOST:PORT and prints one line with its base URL once it
 * accepts connections. Prism lists every route as a URL before it listens (and when silent it prints
 * nothing at all), so its own output is held back until that line is out and then passed through.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '4010';
const contract = fileURLToPath(new URL('../../../fixtures/openapi.yaml', import.meta.url));
const prismBin = fileURLToPath(new URL('node_modules/.bin/prism', import.meta.url));

// Static examples (no -d): the same answer every time. Silent: Prism reports each request's violations in
// its sl-violations response header anyway, and at any log level it logs three errors for every response,
// that the X-RateLimit-* headers it has just sent are missing (it sends X-RateLimit-Limit, then finds no
// x-ratelimit-limit).
const prism = spawn(prismBin, ['mock', contract, '--host', host, '--port', port, '-v', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });

const held = [];
let ready = false;
for (const stream of [prism.stdout, prism.stderr]) {
  stream.on('data', (chunk) => (ready ? process.stderr.write(chunk) : held.push(chunk)));
}
prism.on('exit', (code, signal) => {
  if (!ready) for (const chunk of held) process.stderr.write(chunk);
  process.exitCode = code ?? (signal ? 1 : 0);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => prism.kill(signal));

waitUntilListening().then(() => {
  ready = true;
  // Prism answers at /pets: it ignores the /v1 path of the contract's servers, so the base URL has none.
  console.log(`listening on http://${host}:${port}`);
  for (const chunk of held.splice(0)) process.stderr.write(chunk);
});

function waitUntilListening() {
  return new Promise((resolve) => {
    const attempt = () => {
      if (prism.exitCode !== null) return;
      const socket = connect({ host, port: Number(port) }, () => {
        socket.end();
        resolve();
      });
      socket.on('error', () => setTimeout(attempt, 100));
    };
    attempt();
  });
}
