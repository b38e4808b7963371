import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Redactor } from '../../lib/redact.ts';
import { StartError, startImplementation, type StartOptions } from '../../matrix/start-command.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'start-'));
const SECRET = 'sk-start-command-secret';

function options(command: string, extra: Partial<StartOptions> = {}): StartOptions {
  return {
    command,
    cwd: REPO_ROOT,
    env: process.env,
    timeoutMs: 20_000,
    logFile: path.join(folder, `${test.info().testId}.log`),
    redactor: new Redactor({ free: [SECRET], pro: [], business: [], enterprise: [] }),
    signal: new AbortController().signal,
    ...extra,
  };
}

function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

test('a start command is given HOST and PORT, its printed base URL is taken, and stopping it stops the whole process group', async () => {
  // npx → node → the reference server: three processes in the group the command started.
  const started = await startImplementation(options('npx --no-install tsx reference-server/main.ts'));
  expect(started.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const answer = await fetch(`${started.baseUrl}/pets`);
  expect(answer.status).toBe(401);
  await started.stop();
  expect(await refused(started.baseUrl)).toBe(true);
});

test('a start command that never prints a URL is stopped after its timeout, with the last thing it said, keys redacted', async () => {
  const began = Date.now();
  const error = await startImplementation(options(`echo "warming up with ${SECRET}"; sleep 60`, { timeoutMs: 1_000 })).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(StartError);
  expect((error as Error).message).toBe('the start command printed no base URL within 1 s (last output: warming up with $PETSTORE_API_KEY_FREE)');
  expect(Date.now() - began).toBeLessThan(10_000);
  expect(readFileSync(options('').logFile, 'utf8')).not.toContain(SECRET);
});

test('a start command that exits before printing a URL says so at once', async () => {
  const error = await startImplementation(options('echo "cannot find module" >&2; exit 3')).catch((caught: unknown) => caught);
  expect((error as Error).message).toBe('the start command exited (code 3) before printing a base URL (last output: cannot find module)');
});

test('Ctrl-C while waiting for the URL stops the command', async () => {
  const abort = new AbortController();
  const pending = startImplementation(options('sleep 60', { signal: abort.signal }));
  setTimeout(() => abort.abort(), 200);
  await expect(pending).rejects.toThrow('interrupted before it was listening');
});
