/**
 * Bad input to `petstore-conformance replay` and `record` gets one clear line naming what is wrong, and exit
 * code 2: never a stack trace, never a replay that starts and then fails halfway. The messages are checked
 * by calling the commands in-process (fast); that they reach the user as one line with exit code 2 is
 * checked on the real command line once per command.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { recordCommand } from '../../harness/record/command.ts';
import { InputError } from '../../lib/cli/command-line.ts';
import { replayCommand } from '../../harness/replay/command.ts';
import { CaptureInputError } from '../../lib/capture/read.ts';
import { DEMO_KEY_ENV, cleanEnv, entry, explain, readSummary, runCommand, SAMPLE_HAR, tempDir, writeHar, type CommandResult } from './support.ts';
import { closedPort } from '../support/closed-port.ts';


function expectOneLineError(result: CommandResult, command: 'replay' | 'record', message: RegExp): void {
  expect(result.code, explain(result)).toBe(2);
  const lines = result.stderr.split('\n').filter((line) => line.trim() && !line.startsWith('npm '));
  expect(lines, explain(result)).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^petstore-conformance ${command}: `));
  expect(lines[0]).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}


const dir = tempDir('bad-input');
const truncated = join(dir, 'truncated.har');
writeFileSync(truncated, '{"log": {"version": "1.2", "entries": [{"request": {"method": "GET"');
const notHar = join(dir, 'list.har');
writeFileSync(notHar, '[{"url": "http://x"}]');
const noPetStore = writeHar(dir, 'no-petstore.har', [entry({ url: 'https://cdn.example.com/app.js', status: 200 }), entry({ url: 'http://127.0.0.1:1/v1/users', status: 200 })]);
const badEntry = writeHar(dir, 'bad-entry.har', [entry({ url: 'http://127.0.0.1:1/v1/pets', status: 200 }), { request: { method: 'GET', url: '/v1/pets' }, response: { status: 200 } }]);

const REPLAY_CASES: Array<[string, string[], RegExp]> = [
  ['a truncated HAR', [truncated], /truncated\.har: malformed HAR: the file ends before the HAR document does.*truncated\?/],
  ['a JSON file that is not a HAR', [notHar], /list\.har: malformed HAR: the file is not a HAR document/],
  ['an entry without an absolute URL', [badEntry], /bad-entry\.har: entry 2 has a request\.url that is not an absolute URL/],
  ['a HAR with no entry for the Pet Store', [noPetStore], /no-petstore\.har: none of its 2 entries is a Pet Store request/],
  ['a missing file', [join(dir, 'nope.har')], /nope\.har: no such file/],
  ['no capture named', [], /name the capture to replay/],
  ['an unknown flag', [SAMPLE_HAR, '--sped', '0'], /unknown option --sped/],
  ['a speed that is not a number', [SAMPLE_HAR, '--speed', 'fast'], /--speed must be a number/],
  ['a concurrency of zero', [SAMPLE_HAR, '--concurrency', '0'], /--concurrency must be a whole number from 1 to 256/],
  ['a missing ignore file', [SAMPLE_HAR, '--ignore', join(dir, 'none.yaml')], /--ignore .*none\.yaml: no such file/],
];

/** The command's bad-input error: one of the two kinds the command line turns into exit code 2. */
async function inputError(run: Promise<number>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error instanceof InputError || error instanceof CaptureInputError, String(error)).toBe(true);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

for (const [what, args, message] of REPLAY_CASES) {
  test(`replay: ${what} is said in one line`, async () => {
    expect(await inputError(replayCommand(args, cleanEnv()))).toMatch(message);
  });
}

test('replay: on the command line, bad input is one line on stderr and exit 2, without a stack trace', async () => {
  expectOneLineError(await runCommand('replay', [truncated], cleanEnv()), 'replay', /truncated\.har: malformed HAR/);
});

test('replay: a target that is not running is said in one line, before anything is sent', async () => {
  const target = `http://127.0.0.1:${await closedPort()}/v1`;
  const message = await inputError(replayCommand([SAMPLE_HAR], cleanEnv({ ...DEMO_KEY_ENV, PETSTORE_BASE_URL: target })));
  expect(message).toBe(`cannot reach the target ${target}: connection refused (is it running?)`);
});

test('replay: a plan the capture uses without a key for it is named with its variable, before anything is sent', async () => {
  let requests = 0;
  const server: Server = createServer((_request, response) => (requests++, response.end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const message = await inputError(replayCommand([SAMPLE_HAR], cleanEnv({ PETSTORE_BASE_URL: target, PETSTORE_API_KEY_PRO: 'a-pro-key' })));
    expect(message).toMatch(/sample\.har needs keys the environment does not give: set PETSTORE_API_KEY_FREE \(Free: \d+ request\(s\), first in entry \d+\)$/);
    expect(requests).toBe(0);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('replay: a target that dies halfway stops the replay with one line, and the report of what was done', async () => {
  let answered = 0;
  const server: Server = createServer((request, response) => {
    if (++answered > 3) return request.socket.destroy();
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const reports = tempDir('dies');
    const result = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--output', reports], cleanEnv({ ...DEMO_KEY_ENV, PETSTORE_BASE_URL: target }));
    expectOneLineError(result, 'replay', /the target stopped answering \(.*\) at exchange \d+ \(entry \d+\); 20 failed in a row/);
    expect(readSummary(reports).aborted).toMatch(/stopped answering/);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const RECORD_CASES: Array<[string, string[], RegExp]> = [
  ['no capture named', ['--base-url', 'http://127.0.0.1:1/v1'], /name the capture to write/],
  ['no --base-url', [join(dir, 'x.har')], /--base-url is required/],
  ['a base URL that is not a URL', ['--base-url', 'localhost:8080', join(dir, 'x.har')], /--base-url: "localhost:8080" must be an http:\/\/ or https:\/\/ URL/],
  ['an unknown flag', ['--base-url', 'http://127.0.0.1:1/v1', join(dir, 'x.har'), '--follow'], /unknown option --follow/],
  ['a port out of range', ['--base-url', 'http://127.0.0.1:1/v1', join(dir, 'x.har'), '--port', '70000'], /--port must be a whole number from 0 to 65535/],
  ['a clock skew without --judge', ['--base-url', 'http://127.0.0.1:1/v1', join(dir, 'x.har'), '--clock-skew', '2'], /--clock-skew goes with --judge/],
  ['a clock skew out of bounds', ['--base-url', 'http://127.0.0.1:1/v1', join(dir, 'x.har'), '--judge', '--clock-skew', '4000'], /--clock-skew must be a number of seconds from 0 to 3600, not "4000"/],
];

for (const [what, args, message] of RECORD_CASES) {
  test(`record: ${what} is said in one line`, async () => {
    expect(await inputError(recordCommand(args, cleanEnv()))).toMatch(message);
  });
}

test('record: an upstream that is not running is one line on stderr and exit 2, without a stack trace', async () => {
  const upstream = `http://127.0.0.1:${await closedPort()}/v1`;
  expectOneLineError(await runCommand('record', ['--base-url', upstream, join(dir, 'x.har'), '--port', '0'], cleanEnv()), 'record', /cannot reach the upstream .*: connection refused/);
});
