/** docs/reference/cli.md: every command and flag, as --help prints it (the same text, from the same definitions), and the Action's inputs. */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { COMMANDS, HELP } from '../../cli/commands.ts';
import { FLAGS, POSITIONAL, type FlagName, type FlagSpec } from '../../lib/cli/vocabulary.ts';
import { generatedNotice, table } from './markdown.ts';

interface PackageJson {
  scripts: Record<string, string>;
}

interface ActionYaml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
}

/** The npm scripts a user runs, with what each is; the others (test, bench, docs) are the project's own. */
const USER_SCRIPTS: Readonly<Record<string, string>> = {
  conformance: 'the conformance suite (Playwright Test); every Playwright flag applies after `--`',
  certify: '`petstore-conformance certify` from a clone',
  serve: 'the reference server',
  load: 'the quota load script',
  record: 'the recording proxy',
  replay: 'replay a capture',
  judge: 'judge a capture (HAR, NDJSON, a gateway log) against the rules traffic can show',
};

export function cliPage(): string {
  const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageJson).scripts;
  const rows = Object.entries(USER_SCRIPTS).map(([name, what]) => {
    const command = scripts[name];
    if (command === undefined) throw new Error(`package.json has no script "${name}"; update USER_SCRIPTS in scripts/docs/cli-page.ts`);
    return [`\`npm run ${name}\``, `\`${command}\``, what];
  });
  const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as ActionYaml;
  const inputs = Object.entries(action.inputs).map(([name, input]) => [`\`${name}\``, input.required ? 'required' : input.default ? `\`${input.default}\`` : '', input.description]);
  const oldSpellings = (to: FlagName | typeof POSITIONAL): string => {
    const byOld = new Map<string, string[]>();
    for (const [name, command] of Object.entries(COMMANDS)) {
      for (const [spelling, now] of command.flags.flatMap((mode) => Object.entries(mode.deprecated))) {
        if (now === to && !byOld.get(spelling)?.includes(name)) byOld.set(spelling, [...(byOld.get(spelling) ?? []), name]);
      }
    }
    return [...byOld].map(([spelling, names]) => `\`--${spelling}\` (${names.join(', ')})`).join(', ');
  };
  const vocabulary = (Object.keys(FLAGS) as FlagName[]).map((flag) => {
    const spec: FlagSpec = FLAGS[flag];
    const takers = Object.entries(COMMANDS).filter(([, command]) => command.flags.some((mode) => mode.flags.includes(flag)));
    return [`\`--${flag}\`${spec.short ? `, \`-${spec.short}\`` : ''}`, spec.meaning, takers.map(([name]) => name).join(', '), oldSpellings(flag)];
  });
  const toArgument = oldSpellings(POSITIONAL);
  const commands = Object.entries(COMMANDS).map(([name, command]) => `## \`petstore-conformance ${name}\`\n\n${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.\n\n\`\`\`text\n${command.help}\n\`\`\``);
  return `${generatedNotice('cli/commands.ts (the text each --help prints), lib/cli/vocabulary.ts, package.json and action.yml')}

# Commands and flags

One command, \`petstore-conformance\` (the package's \`bin\`, or \`npx petstore-conformance\` once installed), runs
every part. From a clone the npm scripts run the same programs. Exit codes: [exit-codes.md](exit-codes.md);
environment variables: [settings.md](settings.md).

\`\`\`text
${HELP}
\`\`\`

\`petstore-conformance --version\` (or \`-V\`) prints the package's version. A bare \`petstore-conformance\` prints this
help and exits 0, as \`--help\` does; \`petstore-conformance help <command>\` prints that command's help. A usage
error (an unknown command or flag, a missing value) is one line on stderr and exit code 2.

${table(['npm script', 'runs', 'what'], rows)}

## One flag per meaning

A flag means the same on every command that takes it; the target is always \`--base-url\` (or
\`PETSTORE_BASE_URL\`, which \`judge\` alone does not read) and the reports' folder always \`--output\`. An old spelling still works, and prints one line on
stderr naming the new one; it will be removed in a later version.${toArgument ? ` The capture a command writes or reads is its argument, not a flag (old spelling: ${toArgument}).` : ''}

${table(['Flag', 'Meaning', 'Commands', 'Old spelling (deprecated)'], vocabulary)}

${commands.join('\n\n')}

## The GitHub Action (\`action.yml\`)

\`uses: <owner>/petstore-conformance@v1\` runs \`certify\` with these inputs; how to use it:
[certify staging and production in CI](../how-to/certify-in-ci.md).

${table(['Input', 'Default', 'Meaning'], inputs)}
`;
}
