/**
 * Every kind of bad input, fed to every command that takes it (issue 40): an unknown flag, a flag without its
 * value, a negative number or age, a port out of range, a file or folder that is not there, a folder holding
 * no report, a scope naming a part no report has, a URL that is not one. Each is refused by the command's own
 * parser before any work starts, in one line that names the flag or the file (and, for a value, the forms it
 * takes), as the error the CLI turns into exit 2. A few go through the real CLI process, for the exit code and
 * the one prefix.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { parseCertifyArgs } from '../../../cli/certify.ts';
import { parseCertifyClientArgs } from '../../../cli/certify-client.ts';
import { parseJudgeArgs } from '../../../cli/judge.ts';
import { parseWatchArgs } from '../../../cli/watch.ts';
import { serveEnv } from '../../../cli/serve.ts';
import { UsageError } from '../../../cli/usage-error.ts';
import { parseCli } from '../../../harness/load/cli.ts';
import { InputError as LoadInputError } from '../../../harness/load/input-error.ts';
import { recordCommand } from '../../../harness/record/command.ts';
import { replayCommand } from '../../../harness/replay/command.ts';
import { CaptureInputError } from '../../../lib/capture/read.ts';
import { InputError } from '../../../lib/cli/command-line.ts';
import { type CommandName } from '../../../lib/cli/vocabulary.ts';
import { keysFileEnv } from '../../../lib/cli/keys-file.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SAMPLE_HAR = path.join(ROOT, 'fixtures', 'traffic', 'sample.har');
const dir = mkdtempSync(path.join(tmpdir(), 'petstore-bad-input-'));
mkdirSync(path.join(dir, 'empty'));
mkdirSync(path.join(dir, 'notes-only'));
writeFileSync(path.join(dir, 'notes-only', 'notes.txt'), 'the nightly run has not run yet\n');
writeFileSync(path.join(dir, 'other.env'), 'PETSTORE_API_KEY_FREE=k1\nPETSTORE_BASE_URL=http://127.0.0.1:1/v1\n');
writeFileSync(path.join(dir, 'garbled.env'), 'free key is sk_live_123\n');
const capture = path.join(dir, 'capture.har');
writeFileSync(capture, '{"log":{"entries":[]}}');

/** A file of the test's folder; test titles show it by its name alone, so that they stay the same from run to run. */
const at = (name: string): string => path.join(dir, name);

/** Each command's parser, given the arguments a user typed after its name; it throws on bad input. */
const PARSERS: Record<CommandName, (args: readonly string[]) => unknown> = {
  certify: (args) => parseCertifyArgs(args, {}, dir),
  'certify-client': (args) => parseCertifyClientArgs([...args, '--', 'true'], dir, {}),
  serve: (args) => serveEnv(args),
  load: (args) => parseCli(args),
  // A closed port: a run that got past its checks would fail on reaching it, a different message.
  record: (args) => recordCommand(['--base-url', 'http://127.0.0.1:1/v1', path.join(dir, 'x.har'), ...args], {}),
  // The sample capture, unless the case names its own.
  replay: (args) => replayCommand([...(args[0]?.startsWith('-') ? [SAMPLE_HAR] : []), '--base-url', 'http://127.0.0.1:1/v1', ...args], {}),
  judge: (args) => parseJudgeArgs([capture, ...args], dir),
  watch: (args) => parseWatchArgs([capture, ...args], dir),
};

/** The kinds of bad input, each fed to every command that can be given it, with what its one line must say. */
const CASES: ReadonlyArray<readonly [kind: string, command: CommandName, args: readonly string[], says: RegExp]> = [
  ...(Object.keys(PARSERS) as CommandName[]).map((command) => ['an unknown flag', command, ['--bogus'], /unknown option --bogus \(see petstore-conformance \S+ --help\)/] as const),
  ['a flag without its value', 'certify', ['--max-age'], /--max-age needs a value: an age: 90m, 36h, 7d, 2w/],
  ['a flag without its value', 'certify', ['--base-url', 'http://127.0.0.1:8080/v1', '--max-age'], /--max-age needs a value: an age/],
  ['a flag without its value', 'certify-client', ['--timeout'], /--timeout needs a value: seconds/],
  ['a flag without its value', 'serve', ['--port'], /--port needs a value: a port number from 0 to 65535/],
  ['a flag without its value', 'load', ['--duration'], /--duration needs a value: a duration: 90s, 3m, 1m30s/],
  ['a flag without its value', 'record', ['--port'], /--port needs a value: a port number/],
  ['a flag without its value', 'replay', ['--speed'], /--speed needs a value: a multiple/],
  ['a flag without its value', 'judge', ['--clock-skew'], /--clock-skew needs a value: seconds/],
  ['a negative age', 'certify', ['--max-age', '-1d'], /--max-age: "-1d" is not an age; expected a number and a unit, e.g. 7d/],
  ['an age without a unit', 'certify', ['--max-age', '7'], /--max-age: "7" is not an age/],
  ['a negative duration', 'load', ['--duration', '-5s'], /--duration "-5s" is not a duration; write it like 90s/],
  ['a negative duration', 'certify', ['--timeout', '-5'], /--timeout takes seconds, a whole number above 0, not "-5"/],
  ['a negative duration', 'certify', ['--quota-budget', '-5'], /--quota-budget takes seconds/],
  ['a negative duration', 'certify-client', ['--timeout', '-1'], /--timeout must be a number from 1 to 86400, not "-1"/],
  ['a negative duration', 'judge', ['--clock-skew', '-1'], /--clock-skew must be a number of seconds from 0 to 3600, not "-1"/],
  ['a negative number', 'replay', ['--concurrency', '-1'], /--concurrency must be a whole number from 1 to 256, got "-1"/],
  ['a clock rate that is no number', 'certify', ['--clock-rate', 'fast'], /--clock-rate takes a number of times/],
  ['a clock rate that is no number', 'serve', ['--clock-rate', 'fast'], /--clock-rate takes a number of times/],
  ['a negative port', 'serve', ['--port', '-1'], /--port takes a port number from 0 to 65535 \(0 picks a free one\), not "-1"/],
  ['a negative port', 'record', ['--port', '-1'], /--port must be a whole number from 0 to 65535, got "-1"/],
  ['a port out of range', 'serve', ['--port', '70000'], /--port takes a port number from 0 to 65535/],
  ['a port out of range', 'record', ['--port', '70000'], /--port must be a whole number from 0 to 65535, got "70000"/],
  ['a negative port', 'watch', ['--port', '-1'], /--port must be a whole number of at least 0, not "-1"/],
  ['a negative number', 'watch', ['--max-keys', '0'], /--max-keys must be a whole number of at least 1, not "0"/],
  ['an address without a port', 'watch', ['--syslog', 'localhost'], /--syslog must be HOST:PORT \(127\.0\.0\.1:5514\), not "localhost"/],
  ['a log and syslog at once', 'watch', ['--syslog', '127.0.0.1:5514'], /--syslog receives the lines: no access log to follow as well/],
  ['a file that is not there', 'certify', ['--evidence', 'nope.json'], /--evidence .*nope\.json: no such file or folder/],
  ['a file that is not there', 'load', ['--scenario', 'nope.yaml'], /scenario ".*nope\.yaml" not found: give a file path or one of/],
  ['a file that is not there', 'load', ['--verdicts-from', 'nope.json'], /--verdicts-from .*nope\.json: no such file; give a Locust result file/],
  ['a file that is not there', 'replay', ['nope.har'], /nope\.har: no such file/],
  ['an evidence folder holding no report', 'certify', ['--evidence', 'empty'], /--evidence empty: no report in this folder \(looked for conformance\.json and summary\.json under it\)/],
  ['an evidence folder holding no report', 'certify', ['--evidence', 'notes-only'], /--evidence notes-only: no report in this folder/],
  ['a scope naming a part no report has', 'certify', ['--out-of-scope', 'PLAN-FREE:week'], /--out-of-scope: "PLAN-FREE:week" names no part a report has; a part is one of .*day.* \(e\.g\. PLAN-BUSINESS:day\)/],
  ['a scope naming a part no report has', 'certify', ['--out-of-scope', 'PLAN-FREE:days'], /"PLAN-FREE:days" names no part a report has/],
  ['a scope naming no rule', 'certify', ['--out-of-scope', 'PLAN-NOPE'], /"PLAN-NOPE" is not a rule ID or a part of one \(e\.g\. PLAN-BUSINESS or PLAN-BUSINESS:day/],
  ['a URL that is not one', 'certify', ['--staging-url', 'staging'], /--staging-url: "staging" is not a URL; expected something like http/],
  ['a URL that is not one', 'judge', ['--base-url', 'nope'], /--base-url: "nope" is not a URL/],
  ['a URL that is not one', 'record', ['--base-url', 'localhost:8080'], /--base-url: "localhost:8080" must be an http:\/\/ or https:\/\/ URL/],
  ...(['certify', 'serve', 'load', 'record', 'replay', 'judge'] as const).map((command) => ['a keys file that is not there', command, ['--keys-file', at('nope.env')], /--keys-file \S*nope\.env: no such file; give a file of PETSTORE_API_KEY_<PLAN>=key,key lines/] as const),
  ['a keys file holding another variable', 'certify', ['--keys-file', at('other.env')], /--keys-file \S*other\.env: line 2 sets PETSTORE_BASE_URL, not a key/],
  ['a keys file with a line that is no variable', 'judge', ['--keys-file', at('garbled.env')], /--keys-file \S*garbled\.env: line 1 is not NAME=VALUE/],
  ['two settings of one clock', 'serve', ['--clock-rate', '60', '--time-scale', '60'], /--clock-rate and --time-scale both speed up time; give one of them/],
];

/** What the parser threw, when it is the kind of error the CLI turns into exit 2; 'accepted' when it threw nothing. */
async function refusal(command: CommandName, args: readonly string[]): Promise<string> {
  try {
    await PARSERS[command](args);
    return 'accepted';
  } catch (error) {
    const exitTwo = error instanceof UsageError || error instanceof InputError || error instanceof LoadInputError || error instanceof CaptureInputError;
    expect(exitTwo, `${command} ${args.join(' ')}: ${String(error)}`).toBe(true);
    return (error as Error).message;
  }
}

for (const [kind, command, args, says] of CASES) {
  test(`${command}: ${kind} (${args.map((arg) => arg.replace(`${dir}${path.sep}`, '')).join(' ')}) is one line naming it, before any work`, async () => {
    const message = await refusal(command, args);
    expect(message).not.toContain('\n');
    expect(message).toMatch(says);
  });
}

const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli', 'main.ts'), ...args], { cwd: ROOT, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );

test('through the CLI: a mistyped capture is exit 2 with one line, never 1 (Not conforming) with an ENOENT', async () => {
  const outcome = await run(['judge', 'nope.har']);
  expect(outcome.code).toBe(2);
  expect(outcome.stderr).toBe('petstore-conformance judge: nope.har: no such file; give a capture: a .har, .ndjson, .jsonl or .log file\n');
});

test('through the CLI: a top-level --bogus is an unknown option, not a command; certify --version prints the version', async () => {
  const bogus = await run(['--bogus']);
  expect(bogus.code).toBe(2);
  expect(bogus.stderr).toMatch(/^petstore-conformance: unknown option --bogus; the options are --help and --version, the commands certify, /);
  const version = await run(['certify', '--version']);
  expect(version.code, version.stderr).toBe(0);
  expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
});

test('through the CLI: --max-age -1d is refused as an age, not called ambiguous, with the one prefix', async () => {
  const outcome = await run(['certify', '--base-url', 'http://127.0.0.1:1/v1', '--max-age', '-1d']);
  expect(outcome.code).toBe(2);
  expect(outcome.stderr).toBe('petstore-conformance certify: --max-age: "-1d" is not an age; expected a number and a unit, e.g. 7d, 36h, 90m, 2w\n');
});

test('a keys file stands in for the key variables: comments, export and quotes as a shell file has them, and the line with a key is never quoted back', () => {
  writeFileSync(path.join(dir, 'keys.env'), '# staging keys\nexport PETSTORE_API_KEY_FREE="free-a,free-b"\n\nPETSTORE_API_KEY_PRO=pro-a\n');
  expect(keysFileEnv(at('keys.env'), {})).toEqual({ PETSTORE_API_KEY_FREE: 'free-a,free-b', PETSTORE_API_KEY_PRO: 'pro-a' });
  expect(keysFileEnv(undefined, { PETSTORE_KEYS_FILE: at('keys.env') }), 'PETSTORE_KEYS_FILE is the same').toEqual({ PETSTORE_API_KEY_FREE: 'free-a,free-b', PETSTORE_API_KEY_PRO: 'pro-a' });
  expect(parseCertifyArgs(['--keys-file', at('keys.env')], { PETSTORE_API_KEY_PRO: 'old' }, dir).env).toMatchObject({ PETSTORE_API_KEY_FREE: 'free-a,free-b', PETSTORE_API_KEY_PRO: 'pro-a' });
  expect(serveEnv(['--keys-file', at('keys.env')]).env).toMatchObject({ PETSTORE_API_KEY_FREE: 'free-a,free-b' });
  expect(parseJudgeArgs([capture, '--keys-file', at('keys.env')], dir).keys).toEqual({ PETSTORE_API_KEY_FREE: 'free-a,free-b', PETSTORE_API_KEY_PRO: 'pro-a' });
  expect(() => keysFileEnv(at('garbled.env'), {})).toThrow(/^--keys-file \S*garbled\.env: line 1 is not NAME=VALUE; give PETSTORE_API_KEY_<PLAN>=key,key lines$/);
});
