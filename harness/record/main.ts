/** The recording proxy without the CLI (no --judge): see command.ts, and petstore-conformance record --help. */
import { runCli } from '../../lib/cli/command-line.ts';
import { recordCommand } from './command.ts';

runCli('record', () => recordCommand(process.argv.slice(2)));
