/** npm run record -- --upstream <base URL> --out <file.har | file.har.ndjson> [--port N]: see command.ts, and --help. */
import { runCli } from '../replay/cli.ts';
import { recordCommand } from './command.ts';

runCli('record', () => recordCommand(process.argv.slice(2)));
