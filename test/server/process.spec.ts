/** The server as a process: `npm run serve` (main.ts) and the spawn helper the other parts use. */
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';

const MAIN = fileURLToPath(new URL('../../reference-server/main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

interface Started {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function startMain(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', TSX, MAIN], { env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('main prints one line with its base URL, logs each request as JSON without keys, and stops cleanly on SIGTERM', async () => {
  const server = startMain({ PETSTORE_LOG: 'json' });
  try {
    await until(() => server.stdout().includes('\n'), 'the URL line');
    const [urlLine] = server.stdout().split('\n');
    const baseUrl = /(http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(urlLine ?? '')?.[1];
    expect(baseUrl, urlLine).toBeDefined();
    await fetch(`${baseUrl}/pets?limit=2`, { headers: { authorization: 'Bearer demo-free-1' } });
    await fetch(`${baseUrl}/pets/demo-pro-1`, { headers: { authorization: 'Bearer demo-pro-1' } });
    await fetch(`${baseUrl}/pets`, { headers: { authorization: 'Bearer demo-free-2-typo' } });
    await until(() => server.stdout().trim().split('\n').length >= 4, 'three log lines');
    const lines = server.stdout().trim().split('\n').slice(1);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map(({ method, path, status, plan }) => ({ method, path, status, plan }))).toEqual([
      { method: 'GET', path: '/v1/pets', status: 200, plan: 'free' },
      { method: 'GET', path: '/v1/pets/$PETSTORE_API_KEY_PRO', status: 404, plan: 'pro' },
      { method: 'GET', path: '/v1/pets', status: 401, plan: 'anonymous' },
    ]);
    for (const record of records) expect(record.durationMs).toEqual(expect.any(Number));
    expect(server.stdout()).not.toMatch(/demo-(free|pro)/);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('on SIGTERM every request is logged before the process exits, even when the reader of stdout lags behind', async () => {
  const requests = 1_000;
  const server = startMain({ PETSTORE_LOG: 'json', PETSTORE_ENTERPRISE_PER_MINUTE: '1000000', PETSTORE_ENTERPRISE_PER_DAY: '1000000' });
  try {
    await until(() => server.stdout().includes('\n'), 'the URL line');
    const baseUrl = /(http:\S+\/v1)/.exec(server.stdout())?.[1];
    // Unread, the pipe fills up (64 KiB) and the server has to hold the rest: about 350 KB of lines here.
    server.child.stdout.pause();
    const longPath = `${baseUrl}/pets/${'x'.repeat(240)}`;
    for (let sent = 0; sent < requests; sent += 50) {
      await Promise.all(Array.from({ length: 50 }, () => fetch(longPath, { headers: { authorization: 'Bearer demo-enterprise-1' } })));
    }
    const allRead = new Promise((resolve) => server.child.once('close', resolve));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.stdout.resume();
    expect(await server.exit).toBe(0);
    await allRead;
    const lines = server.stdout().trim().split('\n').slice(1);
    expect(lines.length).toBe(requests);
    expect(lines.every((line) => (JSON.parse(line) as { status: unknown }).status === 404)).toBe(true);
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('PETSTORE_LOG=off silences the request log; SIGINT also stops cleanly', async () => {
  const server = startMain({ PETSTORE_LOG: 'off' });
  try {
    await until(() => server.stdout().includes('\n'), 'the URL line');
    const baseUrl = /(http:\S+\/v1)/.exec(server.stdout())?.[1];
    expect((await fetch(`${baseUrl}/pets`)).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.stdout().trim().split('\n')).toHaveLength(1);
    server.child.kill('SIGINT');
    expect(await server.exit).toBe(0);
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('a bad setting is one line on stderr and exit code 2', async () => {
  for (const [env, message] of [
    [{ PETSTORE_TIME_SCALE: '0' }, 'petstore-conformance serve: PETSTORE_TIME_SCALE must be a positive number such as 1 or 60, got "0"'],
    [{ PORT: 'eighty' }, 'petstore-conformance serve: PORT must be a whole number from 0 to 65535, got "eighty"'],
  ] as const) {
    const server = startMain(env);
    expect(await server.exit).toBe(2);
    expect(server.stderr().trim()).toBe(message);
    expect(server.stdout()).toBe('');
  }
});

test('a port in use is one line naming the port and --port, exit code 2 (bad input, as in record)', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const server = startMain({ PORT: String(port) });
    expect(await server.exit).toBe(2);
    expect(server.stderr().trim()).toBe(`petstore-conformance serve: cannot listen: port ${port} on 127.0.0.1 is already in use; pass --port (or PORT) with another port, or 0 for a free one`);
  } finally {
    blocker.close();
  }
});

test('spawnReferenceServer starts a server on a free port with the given environment, and stops it', async () => {
  const server = await spawnReferenceServer({ env: { PETSTORE_SEED_PETS: '0', PETSTORE_LOG: 'json' } });
  expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const answer = await fetch(`${server.baseUrl}/pets`, { headers: { authorization: 'Bearer demo-free-1' } });
  expect(await answer.json()).toEqual([]);
  await server.stop();
  await expect(fetch(`${server.baseUrl}/pets`)).rejects.toThrow();
  await server.stop();
});

test('spawnReferenceServer rejects with the server\'s own message when it cannot start', async () => {
  await expect(spawnReferenceServer({ env: { PETSTORE_LOG: 'loud' } })).rejects.toThrow(
    'the reference server did not start: it exited with code 2: petstore-conformance serve: PETSTORE_LOG must be json or off, got "loud"',
  );
});
