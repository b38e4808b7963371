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
}

export const FLAGS = {
  help: { type: 'boolean', short: 'h', meaning: "print the command's help and exit 0" },
  'base-url': { type: 'string', meaning: 'the target: the base URL of the service under test, /v1 included' },
  output: { type: 'string', meaning: 'the folder the reports are written to' },
  summary: { type: 'string', meaning: 'a Markdown file the verdict is appended to (in GitHub Actions, $GITHUB_STEP_SUMMARY)' },
  'read-only': { type: 'boolean', meaning: 'send no request that creates pets' },
  'quota-tests': { type: 'boolean', meaning: "include the tests that use up a key's daily quota" },
  parallel: { type: 'string', meaning: 'implementations certified at a time' },
  baseline: { type: 'string', meaning: 'an earlier report to list the changes since' },
  'update-expectations': { type: 'boolean', meaning: "rewrite each implementation's expectations file" },
  port: { type: 'string', meaning: 'the port this command listens on' },
  host: { type: 'string', meaning: 'the address this command listens on' },
  judge: { type: 'boolean', meaning: 'judge the traffic as it passes' },
  format: { type: 'string', meaning: "the capture's format when its file name does not say" },
  'clock-skew': { type: 'string', meaning: "seconds the capture's clock may be off the target's" },
  speed: { type: 'string', meaning: 'the pacing of a replay against the recorded one' },
  concurrency: { type: 'string', short: 'c', meaning: 'the cap on requests in flight' },
  ignore: { type: 'string', multiple: true, meaning: 'more to leave out of the comparison with the recording' },
  strict: { type: 'boolean', meaning: 'fail on differences from the recording too' },
  scenario: { type: 'string', short: 's', meaning: 'the load scenario' },
  plan: { type: 'string', short: 'p', meaning: 'the plans to load, instead of a scenario' },
  rate: { type: 'string', short: 'r', meaning: 'the request rate per key' },
  behaviour: { type: 'string', short: 'b', meaning: 'how the client answers a 429' },
  duration: { type: 'string', short: 'd', meaning: 'how long to send' },
  mix: { type: 'string', meaning: 'the operations by weight' },
  'time-scale': { type: 'string', meaning: "the target's time scale (also PETSTORE_TIME_SCALE)" },
  seed: { type: 'string', meaning: 'fixes the random choices of a run' },
  engine: { type: 'string', short: 'e', meaning: 'what generates the load' },
  workers: { type: 'string', meaning: 'Locust workers' },
  export: { type: 'string', meaning: "write the engine's test to a folder instead of running it" },
  'verdicts-from': { type: 'string', meaning: "judge an engine's result instead of running" },
  evidence: { type: 'string', multiple: true, meaning: 'an earlier report (or a folder of them) whose checks count towards the certificate' },
  'max-age': { type: 'string', meaning: 'how old evidence may be and still count, e.g. 7d' },
  'out-of-scope': { type: 'string', multiple: true, meaning: 'a rule or RULE:part the team leaves out, reported as not in scope' },
  'staging-url': { type: 'string', meaning: "the staging base URL whose reports may stand in for production's shape (VER-2)" },
  label: { type: 'string', meaning: "the name this run's report is cited by as evidence" },
  'fail-on': { type: 'string', meaning: 'the lowest level whose breach fails the run: must (default) or should' },
  timeout: { type: 'string', meaning: 'seconds the run may take at most' },
  state: { type: 'string', meaning: 'the file a long-running command keeps its position in, to resume after a restart' },
  'max-keys': { type: 'string', meaning: 'how many keys are named one by one in the metrics; the rest are counted together' },
  'clock-rate': { type: 'string', meaning: "how many times faster than real time the client's clock runs" },
} as const satisfies Readonly<Record<string, FlagSpec>>;

export type FlagName = keyof typeof FLAGS;

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
    const { values, positionals } = parseArgs({ args: renameDeprecated(declared, args, warn), options, allowPositionals, strict: true });
    return { values: values as FlagValues<F>, positionals };
  } catch (error) {
    throw new FlagError(`${oneLine(error as NodeJS.ErrnoException)} (see petstore-conformance ${declared.command} --help)`);
  }
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
function oneLine(error: NodeJS.ErrnoException): string {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${quoted}`;
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${quoted}`;
  return error.message.split('\n')[0]!.split(/\.\s/)[0]!.replace(/\.$/, '').replace(/'/g, '');
}
