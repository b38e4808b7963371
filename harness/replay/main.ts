/** petstore-conformance replay <capture.har | capture.har.ndjson> [options]: see command.ts, and --help. */
import { runCli } from '../../lib/cli/command-line.ts';
import { replayCommand } from './command.ts';

runCli('replay', () => replayCommand(process.argv.slice(2)));
