/** docs/reference/exit-codes.md: each command's exit codes, from the tables its --help prints. */
import { EXIT_MEANINGS, type ExitCode } from '../../lib/docs/exit-codes.ts';
import { LOAD_EXIT_CODES } from '../../harness/load/cli.ts';
import { RECORD_EXIT_CODES } from '../../harness/record/command.ts';
import { REPLAY_EXIT_CODES } from '../../harness/replay/command.ts';
import { MATRIX_EXIT_CODES } from '../../matrix/certify-many.ts';
import { CLIENT_EXIT_CODES } from '../../cli/certify-client.ts';
import { SERVER_EXIT_CODES } from '../../reference-server/exit-codes.ts';
import { SUITE_EXIT_CODES } from '../../specs/reporter/exit-code.ts';
import { generatedNotice, table } from './markdown.ts';

const COMMANDS: ReadonlyArray<readonly [string, readonly ExitCode[]]> = [
  ['`npm run conformance`, `petstore-conformance certify`, `npx playwright test`, `playwright merge-reports` (whenever the conformance reporter runs), the GitHub Action', SUITE_EXIT_CODES],
  ['`petstore-conformance certify implementations.yaml`, `npm run certify -- implementations.yaml`', MATRIX_EXIT_CODES],
  ['`petstore-conformance certify-client`', CLIENT_EXIT_CODES],
  ['`npm run load`, `petstore-conformance load`', LOAD_EXIT_CODES],
  ['`npm run record`, `petstore-conformance record`', RECORD_EXIT_CODES],
  ['`npm run replay`, `petstore-conformance replay`', REPLAY_EXIT_CODES],
  ['`npm run judge`, `petstore-conformance judge`', SUITE_EXIT_CODES],
  ['`npm run serve`, `petstore-conformance serve`', SERVER_EXIT_CODES],
];

export function exitCodesPage(): string {
  return `${generatedNotice("the exit-code tables each command's --help prints")}

# Exit codes

Every command says its outcome in its exit code, so a CI job can act on it without reading a report. One
code has one meaning in every command (\`lib/docs/exit-codes.ts\`):

${table(['Code', 'Meaning'], Object.entries(EXIT_MEANINGS).map(([code, meaning]) => [code, meaning]))}

Every error line starts \`petstore-conformance <command>:\`, never a stack trace. \`petstore-conformance\` passes
each command's code through unchanged; an unknown command or option of its own is also 2. Alone, or with
\`--help\`, \`help <command>\` or \`--version\` (after a command too: \`certify --version\`), it prints what was asked
and exits 0. Each command uses the codes below, in its own words:

${COMMANDS.map(([names, codes]) => `## ${names}\n\n${table(['Code', 'When'], codes.map(({ code, when }) => [String(code), when]))}`).join('\n\n')}
`;
}
