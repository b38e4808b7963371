/**
 * The one command vocabulary of petstore-conformance: every flag of every command is declared once, here,
 * with what it means, so that one meaning has one spelling whichever command takes it. A command lists the
 * flags it takes by name (`commandFlags`) and the old spellings it still accepts; `parseCommandFlags` parses
 * its arguments, turning an old spelling into the new one with one deprecation line on stderr.
 * test/docs/vocabulary.spec.ts fails when two commands spell one meaning differently.
 */
import { parseArgs } from 'node:util';

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** What the flag means: the same on every command that takes it. */
  readonly meaning: string;
  /** The forms its value takes, for the one line that refuses a missing or wrong one: "an age: 90m, 36h, 7d, 2w". */
  readonly forms?: string;
}

export const FLAGS = {
  help: { type: 'boolean', short: 'h', meaning: "print the command's help and exit 0" },
  'base-url': { type: 'string', meaning: 'the target: the base URL of the service under test, /v1 included', forms: 'a URL with /v1, e.g. http://127.0.0.1:8080/v1' },
  output: { type: 'string', meaning: 'the folder the reports are written to', forms: 'a folder, e.g. reports/conformance' },
  summary: { type: 'string', meaning: 'a Markdown file the verdict is appended to (in GitHub Actions, $GITHUB_STEP_SUMMARY)', forms: 'a file, e.g. "$GITHUB_STEP_SUMMARY"' },
  'read-only': { type: 'boolean', meaning: 'send no request that creates pets' },
  'quota-tests': { type: 'boolean', meaning: "include the tests that use up a key's daily quota" },
  parallel: { type: 'string', meaning: 'implementations certified at a time', forms: 'a whole number, 1 or more' },
  baseline: { type: 'string', meaning: 'an earlier report to list the changes since', forms: 'a matrix.json or conformance.json' },
  'update-expectations': { type: 'boolean', meaning: "rewrite each implementation's expectations file" },
  port: { type: 'string', meaning: 'the port this command listens on', forms: 'a port number from 0 to 65535 (0 picks a free one)' },
  'live-port': { type: 'string', meaning: 'the port the live verdict page and /metrics are served on, beside what the command serves itself', forms: 'a port number from 0 to 65535 (0 picks a free one)' },
  host: { type: 'string', meaning: 'the address this command listens on', forms: 'an address, e.g. 127.0.0.1' },
  judge: { type: 'boolean', meaning: 'judge the traffic as it passes' },
  format: { type: 'string', meaning: "the capture's format when its file name does not say", forms: 'har or ndjson' },
  'clock-skew': { type: 'string', meaning: "seconds the capture's clock may be off the target's", forms: 'seconds, e.g. 1 or 0.5' },
  speed: { type: 'string', meaning: 'the pacing of a replay against the recorded one', forms: 'a multiple, e.g. 1 or 10, or max' },
  concurrency: { type: 'string', short: 'c', meaning: 'the cap on requests in flight', forms: 'a whole number, 1 or more' },
  ignore: { type: 'string', multiple: true, meaning: 'more to leave out of the comparison with the recording', forms: 'a field path or header name' },
  strict: { type: 'boolean', meaning: 'fail on differences from the recording too' },
  scenario: { type: 'string', short: 's', meaning: 'the load scenario', forms: 'a scenario name or a YAML file' },
  plan: { type: 'string', short: 'p', meaning: 'the plans to load, instead of a scenario', forms: 'free, pro, business or enterprise, comma-separated' },
  rate: { type: 'string', short: 'r', meaning: 'the request rate per key', forms: 'requests per second (2), a multiple of the plan\'s limit (1.1x), or max' },
  behaviour: { type: 'string', short: 'b', meaning: 'how the client answers a 429', forms: 'compliant, naive or both' },
  duration: { type: 'string', short: 'd', meaning: 'how long to send', forms: 'a duration: 90s, 3m, 1m30s' },
  mix: { type: 'string', meaning: 'the operations by weight', forms: 'weights, e.g. list=70,create=20,get=10' },
  'time-scale': { type: 'string', meaning: "the target's time scale (also PETSTORE_TIME_SCALE)", forms: 'a number above 0, e.g. 60' },
  seed: { type: 'string', meaning: 'fixes the random choices of a run', forms: 'a whole number' },
  engine: { type: 'string', short: 'e', meaning: 'what generates the load', forms: 'builtin or locust' },
  workers: { type: 'string', meaning: 'Locust workers', forms: 'a whole number, 1 or more' },
  export: { type: 'string', meaning: "write the engine's test to a folder instead of running it", forms: 'a folder' },
  'verdicts-from': { type: 'string', meaning: "judge an engine's result instead of running", forms: 'a Locust result file (petstore-result.json)' },
  evidence: { type: 'string', multiple: true, meaning: 'an earlier report (or a folder of them) whose checks count towards the certificate', forms: 'a report (conformance.json, a load summary.json) or a folder holding one' },
  'max-age': { type: 'string', meaning: 'how old evidence may be and still count, e.g. 7d', forms: 'an age: 90m, 36h, 7d, 2w' },
  'out-of-scope': { type: 'string', multiple: true, meaning: 'a rule or RULE:part the team leaves out, reported as not in scope', forms: 'a rule ID or RULE:part, e.g. PLAN-BUSINESS or PLAN-BUSINESS:day' },
  'staging-url': { type: 'string', meaning: "the staging base URL whose reports may stand in for production's shape (VER-2)", forms: 'a URL with /v1, e.g. https://staging.example.com/v1' },
  label: { type: 'string', meaning: "the name this run's report is cited by as evidence", forms: 'a few words, e.g. "nightly run"' },
  'fail-on': { type: 'string', meaning: 'the lowest level whose breach fails the run: must (default) or should', forms: 'must or should' },
  timeout: { type: 'string', meaning: 'seconds the run may take at most', forms: 'seconds, a whole number' },
  'clock-rate': { type: 'string', meaning: "how many times faster than real time the server's clock runs (its Reset and Retry-After speak of that clock)", forms: 'a number of times, e.g. 60' },
  'keys-file': { type: 'string', meaning: 'a file of the keys, PETSTORE_API_KEY_<PLAN>=key,key a line, instead of the environment', forms: 'a file of PETSTORE_API_KEY_<PLAN>=key,key lines' },
  'quota-budget': { type: 'string', meaning: 'seconds the daily-quota tests may take; a test estimated longer is skipped, named', forms: 'seconds, a whole number' },
  state: { type: 'string', meaning: 'the file a long-running command keeps its position in, to resume after a restart', forms: 'a file, e.g. /var/lib/petstore/watch.state' },
  shard: { type: 'string', meaning: 'the share of the keys this process judges, of n processes over the same traffic', forms: 'i/n, e.g. 1/2' },
  'max-keys': { type: 'string', meaning: 'how many keys are named one by one in the metrics; the rest are counted together', forms: 'a whole number, 1 or more' },
  syslog: { type: 'string', meaning: "where to receive gateways' access-log lines over syslog (UDP), instead of following a file", forms: 'HOST:PORT, e.g. 127.0.0.1:5514' },
} as const satisfies Readonly<Record<string, FlagSpec>>;

export type FlagName = keyof typeof FLAGS;

/** Every command, as the user types it after petstore-conformance. */
export const COMMAND_NAMES = ['certify', 'certify-client', 'serve', 'load', 'record', 'replay', 'judge', 'watch'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/**
 * A meaning several commands share: its one flag and its one variable. A command that does not take it says
 * why in its --help (`notTakenHelp`), so a user who looks for --label on replay learns why there is none.
 */
export interface Meaning {
  meaning: string;
  flag: FlagName;
  /** The variable that sets it when the flag is not given; every command that takes the flag names it in its help. */
  env?: string;
  /** The commands that do not take it, each with why, in words its --help prints. */
  notOn: Readonly<Partial<Record<CommandName, string>>>;
  /** The commands that take the flag but not the variable, each with why. */
  flagOnlyOn?: Readonly<Partial<Record<CommandName, string>>>;
}

export const MEANINGS: readonly Meaning[] = [
  {
    meaning: 'the target',
    flag: 'base-url',
    env: 'PETSTORE_BASE_URL',
    notOn: { serve: 'serve is the target: it prints its own base URL', 'certify-client': 'its target is the refusing server it starts itself' },
    flagOnlyOn: { judge: "a job that certifies staging often judges production's log" },
  },
  { meaning: 'the report folder', flag: 'output', notOn: { serve: 'serve writes no report' } },
  {
    meaning: 'the label a certificate cites a report by',
    flag: 'label',
    env: 'PETSTORE_RUN_LABEL',
    notOn: {
      serve: 'serve writes no report',
      'certify-client': "its report judges a client, never evidence of a service's certificate",
      record: 'a recording is not evidence until judged: judge the capture with --label',
      replay: "a replay's report is not evidence of a certificate",
    },
  },
  {
    meaning: 'the keys file',
    flag: 'keys-file',
    env: 'PETSTORE_KEYS_FILE',
    notOn: { 'certify-client': 'it hands your client the keys of the server it starts' },
  },
  {
    meaning: "the target's clock rate",
    flag: 'clock-rate',
    env: 'PETSTORE_CLOCK_RATE',
    notOn: {
      load: "load paces by the minute window's length (--time-scale) and reads headers in real seconds",
      record: 'a recording keeps the times it saw',
      replay: 'a replay is paced by --speed',
      judge: "a capture's times are judged as written; --clock-skew bounds how far apart the clocks were",
      watch: "a log's times are judged as written; --clock-skew bounds how far apart the clocks were",
    },
  },
  {
    meaning: "the target's time scale",
    flag: 'time-scale',
    env: 'PETSTORE_TIME_SCALE',
    notOn: {
      certify: "the suite reads the target's windows from its headers; a target whose clock runs fast is --clock-rate",
      'certify-client': "its server's clock is --clock-rate",
      record: 'a recording keeps the times it saw',
      replay: 'a replay is paced by --speed',
      judge: "a capture's windows are read from its headers",
      watch: "a log's windows are read from its headers",
    },
  },
  {
    meaning: 'the quota budget',
    flag: 'quota-budget',
    env: 'PETSTORE_QUOTA_BUDGET_SECONDS',
    notOn: {
      'certify-client': 'it runs no quota test',
      serve: 'serve runs no test',
      load: 'load sends for --duration, whatever it spends',
      record: 'a recording runs no test',
      replay: 'a replay sends only what the capture holds',
      judge: 'judge sends nothing',
      watch: 'watch sends nothing',
    },
  },
  {
    meaning: 'the timeout of the whole run',
    flag: 'timeout',
    env: 'PETSTORE_RUN_TIMEOUT_SECONDS',
    notOn: {
      serve: 'serve runs until stopped',
      load: '--duration bounds it',
      record: 'a recording runs until Ctrl-C',
      replay: 'each request has its own bound, and the capture bounds the whole',
      judge: 'judge reads a file and waits on nothing',
      watch: 'watch runs until stopped, and writes its report then',
    },
  },
];

/**
 * The lines of a command's --help on the shared meanings: the variable each flag it takes can be set by, and
 * the flags it does not take, each with why.
 */
export function notTakenHelp(command: CommandName): string {
  const taken = MEANINGS.filter((meaning) => meaning.notOn[command] === undefined);
  const variables = taken.flatMap(({ flag, env, flagOnlyOn }) => (env === undefined ? [] : [flagOnlyOn?.[command] === undefined ? `--${flag} ${env}` : `--${flag} (the flag only: ${flagOnlyOn[command]})`]));
  const notTaken = MEANINGS.flatMap((meaning) => (meaning.notOn[command] === undefined ? [] : [`  --${meaning.flag}: ${meaning.notOn[command]}`]));
  return [...(variables.length > 0 ? [`Each also set by its variable: ${variables.join('; ')}.`] : []), ...(notTaken.length > 0 ? ['Not taken here:', ...notTaken] : [])].join('\n');
}

/** Where an old spelling may lead: a flag of the table, or the command's positional argument. */
export const POSITIONAL = '<positional>';
export type AliasTarget = FlagName | typeof POSITIONAL;

export interface CommandFlags<F extends FlagName = FlagName> {
  /** As the user types it after petstore-conformance: "certify", "load". */
  command: string;
  flags: readonly F[];
  /** Old spellings still accepted, each with what it now is; each use prints one deprecation line. */
  deprecated: Readonly<Record<string, AliasTarget>>;
}

/** A command's flags, declared: the flags of the table it takes, and the old spellings it still accepts. */
export function commandFlags<F extends FlagName>(command: string, flags: readonly F[], deprecated: Readonly<Record<string, AliasTarget>> = {}): CommandFlags<F> {
  return { command, flags, deprecated };
}

type FlagValue<S> = S extends { type: 'boolean' } ? boolean : S extends { multiple: true } ? string[] : string;
export type FlagValues<F extends FlagName> = { [K in F]?: FlagValue<(typeof FLAGS)[K]> };

/** A flag the command does not take, a value missing, an argument too many: one line, for exit code 2. */
export class FlagError extends Error {
  override name = 'FlagError';
}

export interface ParsedFlags<F extends FlagName> {
  values: FlagValues<F>;
  positionals: string[];
}

/**
 * The command's arguments, strictly parsed. An old spelling becomes its new one (`--out=x` too) and prints
 * one line to `warn`; everything after `--` is left alone, for the command to pass on.
 */
export function parseCommandFlags<F extends FlagName>(
  declared: CommandFlags<F>,
  args: readonly string[],
  { allowPositionals = false, warn = (line: string) => void process.stderr.write(`${line}\n`) }: { allowPositionals?: boolean; warn?: (line: string) => void } = {},
): ParsedFlags<F> {
  const options = Object.fromEntries(
    declared.flags.map((name) => {
      const spec: FlagSpec = FLAGS[name];
      return [name, { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) }];
    }),
  );
  try {
    const { values, positionals } = parseArgs({ args: joinDashValues(declared, renameDeprecated(declared, args, warn)), options, allowPositionals, strict: true });
    return { values: values as FlagValues<F>, positionals };
  } catch (error) {
    throw new FlagError(`${oneLine(error as NodeJS.ErrnoException, declared)} (see petstore-conformance ${declared.command} --help)`);
  }
}

/**
 * `--max-age -1d`, `-d -5s`: a value that starts with a dash and a digit is the flag's value, so that it is
 * refused for what it is (a negative age) rather than called ambiguous.
 */
function joinDashValues(declared: CommandFlags, args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') {
      joined.push(...args.slice(index));
      break;
    }
    const name = flagNamed(declared, arg);
    const next = args[index + 1];
    if (name !== undefined && FLAGS[name].type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`--${name}=${next}`);
      index++;
    } else joined.push(arg);
  }
  return joined;
}

/** The declared flag an argument names, long (--max-age) or short (-d); undefined for anything else. */
function flagNamed(declared: CommandFlags, arg: string): FlagName | undefined {
  const long = /^--([^=]+)$/.exec(arg)?.[1];
  if (long !== undefined) return declared.flags.find((name) => name === long);
  const short = /^-([A-Za-z])$/.exec(arg)?.[1];
  return short === undefined ? undefined : declared.flags.find((name) => (FLAGS[name] as FlagSpec).short === short);
}

/** What a flag's value may be ("an age: 90m, 36h, 7d, 2w"), for the line that refuses a missing or wrong one. */
export function flagForms(name: FlagName): string {
  return (FLAGS[name] as FlagSpec).forms ?? 'a value';
}

/**
 * The one way every command starts a line of error: `petstore-conformance certify: ...`, whichever process
 * (the CLI, load's or replay's script, the server, the suite's reporter) writes it. A message that already
 * names its command (`certify: ...`) is not named twice.
 */
export function errorLine(command: string | undefined, message: string): string {
  const first = message.split('\n')[0]!;
  if (command === undefined) return `petstore-conformance: ${first}`;
  return `petstore-conformance ${command}: ${first.startsWith(`${command}: `) ? first.slice(command.length + 2) : first}`;
}

function renameDeprecated(declared: CommandFlags, args: readonly string[], warn: (line: string) => void): string[] {
  const renamed: string[] = [];
  const warned = new Set<string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') {
      renamed.push(...args.slice(index));
      break;
    }
    const match = /^--([^=]+)(=(.*))?$/.exec(arg);
    const target = match && Object.hasOwn(declared.deprecated, match[1]!) ? declared.deprecated[match[1]!]! : undefined;
    if (match === null || target === undefined) {
      renamed.push(arg);
      continue;
    }
    const old = match[1]!;
    if (!warned.has(old)) {
      warned.add(old);
      warn(`petstore-conformance ${declared.command}: --${old} is deprecated and will be removed; use ${target === POSITIONAL ? 'the file as the argument' : `--${target}`}`);
    }
    if (target !== POSITIONAL) renamed.push(match[2] === undefined ? `--${target}` : `--${target}=${match[3]}`);
    else if (match[2] !== undefined) renamed.push(match[3]!);
    else if (index + 1 < args.length) renamed.push(args[++index]!);
  }
  return renamed;
}

/** Node's parseArgs message, cut to what names the flag or argument. */
function oneLine(error: NodeJS.ErrnoException, declared: CommandFlags): string {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${quoted}`;
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${quoted}`;
  const long = /--([a-z][a-z-]*)/.exec(quoted)?.[0];
  const named = flagNamed(declared, long ?? quoted.split(' ')[0]!);
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && named !== undefined) {
    return FLAGS[named].type === 'boolean' ? `--${named} takes no value` : `--${named} needs a value: ${flagForms(named)}`;
  }
  return error.message.split('\n')[0]!.split(/\.\s/)[0]!.replace(/\.$/, '').replace(/'/g, '');
}
