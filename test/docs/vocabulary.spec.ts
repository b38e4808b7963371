/**
 * One flag per meaning across every command of petstore-conformance (issue 32): the table below names each
 * meaning that several commands share, its one spelling, the spellings it must never take again, and the
 * commands that must accept it. Every command's declared flags (cli/commands.ts, from lib/cli/vocabulary.ts)
 * are checked against it, and its --help against what it declares, so a new command or a new flag that spells
 * a shared meaning its own way fails here.
 */
import { expect, test } from '@playwright/test';
import { COMMANDS } from '../../cli/commands.ts';
import { COMMAND_NAMES, FlagError, FLAGS, MEANINGS as TABLE, parseCommandFlags, POSITIONAL, type CommandFlags, type FlagSpec } from '../../lib/cli/vocabulary.ts';
import { EXIT_MEANINGS } from '../../lib/docs/exit-codes.ts';

interface Meaning {
  meaning: string;
  flag: string;
  /** Other spellings of the same meaning: never a flag of any command (an old one may stay a deprecated alias). */
  never: readonly string[];
  /** The commands that must take it; '*' for every command, but those in `except`. */
  on: readonly string[] | '*';
  except?: readonly string[];
}

const MEANINGS: readonly Meaning[] = [
  // serve is the target, so it takes none, and writes no report and no verdict; certify-client's target is the
  // refusing server it starts itself.
  { meaning: 'the target', flag: 'base-url', never: ['upstream', 'url', 'target', 'base', 'baseurl', 'server', 'host-url', 'endpoint'], on: '*', except: ['serve', 'certify-client'] },
  { meaning: 'where the reports go', flag: 'output', never: ['out', 'report-dir', 'reports', 'output-dir', 'out-dir', 'report', 'dir'], on: '*', except: ['serve'] },
  { meaning: 'the Markdown job summary', flag: 'summary', never: ['job-summary', 'summary-file', 'step-summary', 'markdown'], on: '*', except: ['serve'] },
  { meaning: "the command's help", flag: 'help', never: ['usage'], on: '*' },
  { meaning: 'requests in flight', flag: 'concurrency', never: ['in-flight', 'connections', 'max-in-flight'], on: ['load', 'replay'] },
  { meaning: 'where this command listens', flag: 'port', never: ['listen', 'listen-port', 'proxy-port'], on: ['serve', 'record'] },
];

/** Every problem of a vocabulary: two spellings of one meaning, a command missing a shared flag, an alias leading nowhere. */
function vocabularyProblems(commands: Readonly<Record<string, readonly CommandFlags[]>>, flags: Readonly<Record<string, FlagSpec>>, meanings: readonly Meaning[]): string[] {
  const problems: string[] = [];
  const byMeaning = new Map<string, string>();
  for (const [name, spec] of Object.entries(flags)) {
    const other = byMeaning.get(spec.meaning);
    if (other) problems.push(`--${other} and --${name} both mean "${spec.meaning}"`);
    byMeaning.set(spec.meaning, name);
  }
  const takenAnywhere = new Set<string>(Object.values(commands).flatMap((modes) => modes.flatMap((mode) => mode.flags)));
  for (const name of Object.keys(flags)) if (!takenAnywhere.has(name)) problems.push(`--${name} is declared, but no command takes it`);
  for (const { meaning, flag, never } of meanings) {
    for (const spelling of never) if (Object.hasOwn(flags, spelling)) problems.push(`--${spelling} is declared, but ${meaning} is spelled --${flag}`);
  }
  for (const [command, modes] of Object.entries(commands)) {
    const taken = new Set(modes.flatMap((mode) => mode.flags));
    for (const mode of modes) {
      for (const name of mode.flags) {
        if (!Object.hasOwn(flags, name)) problems.push(`${command} takes --${name}, which lib/cli/vocabulary.ts does not declare`);
        const spelled = meanings.find((entry) => entry.never.includes(name));
        if (spelled) problems.push(`${command} spells ${spelled.meaning} --${name}; every command spells it --${spelled.flag}`);
      }
      for (const [old, now] of Object.entries(mode.deprecated)) {
        if (mode.flags.includes(old as never)) problems.push(`${command}: --${old} is both a flag and a deprecated spelling`);
        if (now !== POSITIONAL && !mode.flags.includes(now)) problems.push(`${command}: the deprecated --${old} leads to --${now}, which it does not take`);
      }
    }
    for (const { meaning, flag, on, except = [] } of meanings) {
      if ((on === '*' ? !except.includes(command) : on.includes(command)) && !taken.has(flag as never)) problems.push(`${command} does not take --${flag} (${meaning})`);
    }
  }
  return problems;
}

/** The flags a help text names, leaving out the Playwright flags certify passes on after -- and the meanings it does not take. */
function flagsNamed(help: string): Set<string> {
  const own = help.split(/\nAfter --,/)[0]!.replace(/\nNot taken here:(\n  --[^\n]*)+/g, '');
  return new Set([...own.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((match) => match[1]!));
}

const DECLARED = Object.fromEntries(Object.entries(COMMANDS).map(([name, command]) => [name, command.flags]));

test('every command spells each shared meaning the one way the table says', () => {
  expect(vocabularyProblems(DECLARED, FLAGS, MEANINGS)).toEqual([]);
});

test('a command that spells a meaning its own way is caught: --out for the reports, a second flag for the target', () => {
  const reportsAsOut: CommandFlags = { command: 'new', flags: ['base-url', 'summary', 'help', 'out' as never], deprecated: {} };
  expect(vocabularyProblems({ ...DECLARED, new: [reportsAsOut] }, { ...FLAGS, out: { type: 'string', meaning: 'where this one writes' } }, MEANINGS)).toEqual([
    '--out is declared, but where the reports go is spelled --output',
    'new spells where the reports go --out; every command spells it --output',
    'new does not take --output (where the reports go)',
  ]);
  const twoTargets = { ...FLAGS, target: { type: 'string', meaning: FLAGS['base-url'].meaning } } as const;
  expect(vocabularyProblems(DECLARED, twoTargets, MEANINGS)).toEqual([
    `--base-url and --target both mean "${FLAGS['base-url'].meaning}"`,
    '--target is declared, but no command takes it',
    '--target is declared, but the target is spelled --base-url',
  ]);
});

test("each command's --help names exactly the flags it takes", () => {
  const problems = Object.entries(COMMANDS).flatMap(([name, command]) => {
    const named = flagsNamed(command.help);
    const taken = new Set<string>(command.flags.flatMap((mode) => mode.flags));
    return [
      ...[...taken].filter((flag) => !named.has(flag)).map((flag) => `${name} takes --${flag}, but its --help does not say so`),
      ...[...named].filter((flag) => !taken.has(flag)).map((flag) => `${name}'s --help names --${flag}, which it does not take`),
    ];
  });
  expect(problems).toEqual([]);
});

test('usage lines name petstore-conformance, never npm run', () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    expect(command.help, name).toMatch(new RegExp(`^usage: petstore-conformance ${name}\\b`));
    expect(command.help, name).not.toMatch(/npm run/);
  }
});

test('the table of meanings names every command, and every command is in it', () => {
  expect([...COMMAND_NAMES].sort()).toEqual(Object.keys(COMMANDS).sort());
});

/**
 * The table of meanings (lib/cli/vocabulary.ts MEANINGS: target, report folder, label, clock rate, time scale,
 * quota budget, timeout), walked against every command: one that takes a meaning takes its one flag, its
 * parser accepts it, and its --help names the flag and its variable; one that does not, refuses the flag as
 * unknown and says in its --help why it does not take it.
 */
test("every command takes each meaning of the table with its one flag and variable, or says in its help why not", () => {
  const problems: string[] = [];
  for (const [name, command] of Object.entries(COMMANDS)) {
    const taken = new Set<string>(command.flags.flatMap((mode) => mode.flags));
    for (const { meaning, flag, env, notOn, flagOnlyOn = {} } of TABLE) {
      const why = notOn[name as keyof typeof notOn];
      const flagOnly = flagOnlyOn[name as keyof typeof flagOnlyOn];
      const parsed = command.flags.map((mode) => {
        try {
          parseCommandFlags(mode, FLAGS[flag].type === 'string' ? [`--${flag}`, '1'] : [`--${flag}`], { allowPositionals: true, warn: () => undefined });
          return 'accepted';
        } catch (error) {
          expect(error).toBeInstanceOf(FlagError);
          return (error as Error).message;
        }
      });
      if (why === undefined) {
        if (!taken.has(flag)) problems.push(`${name} does not take --${flag} (${meaning}), and the table gives no reason`);
        if (!parsed.includes('accepted')) problems.push(`${name}'s parser refuses --${flag}: ${parsed.join('; ')}`);
        if (env !== undefined && flagOnly === undefined && !command.help.includes(`--${flag} ${env}`)) problems.push(`${name} takes --${flag} but its --help does not name ${env}`);
        if (flagOnly !== undefined && !command.help.includes(flagOnly)) problems.push(`${name}'s --help does not say why ${env} does not set --${flag}`);
      } else {
        if (taken.has(flag)) problems.push(`${name} takes --${flag}, though the table says it does not: ${why}`);
        if (!parsed.every((message) => message.startsWith(`unknown option --${flag}`))) problems.push(`${name}'s parser does not refuse --${flag} as unknown: ${parsed.join('; ')}`);
        if (!command.help.includes(`--${flag}: ${why}`)) problems.push(`${name}'s --help does not say why it takes no --${flag}`);
      }
    }
  }
  expect(problems).toEqual([]);
});

test('every command exits with the codes of the one table, each in its meaning: 2 bad input everywhere, 3 only Not certified, 4 only a fault', () => {
  const problems: string[] = [];
  for (const [name, command] of Object.entries(COMMANDS)) {
    const blocks = command.help.split('Exit codes:').slice(1).map((block) => [...block.matchAll(/^ {2}(\d+)\s+(.*)$/gm)].map((match) => [Number(match[1]), match[2]!] as const));
    expect(blocks.length, `${name} prints its exit codes`).toBeGreaterThan(0);
    for (const [code, when] of blocks.flat()) {
      if (!Object.hasOwn(EXIT_MEANINGS, code)) problems.push(`${name} exits ${code}, which the table (lib/docs/exit-codes.ts) does not have`);
      if (code === 2 && !/bad input|a bad setting/i.test(when)) problems.push(`${name}: 2 is "${when}", not bad input`);
      if (code === 3 && !/Not certified/.test(when)) problems.push(`${name}: 3 is "${when}", not Not certified`);
      if (code === 4 && !/fault|failure of the tool|failed/.test(when)) problems.push(`${name}: 4 is "${when}", not a fault of the tool`);
    }
    for (const codes of blocks) if (!codes.some(([code]) => code === 2)) problems.push(`${name} has a table of exit codes without 2 (bad input)`);
  }
  expect(problems).toEqual([]);
});

test('an old spelling still works, with one deprecation line naming the new one', () => {
  const warned: string[] = [];
  const load = COMMANDS.load!.flags[0]!;
  const { values } = parseCommandFlags(load, ['--out', 'x', '--out=y'], { warn: (line) => warned.push(line) });
  expect(values).toMatchObject({ output: 'y' });
  expect(warned).toEqual(['petstore-conformance load: --out is deprecated and will be removed; use --output']);
});
