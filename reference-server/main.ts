/**
 * `npm run serve`: the reference server configured from the environment. Prints one line with its base URL
 * once listening; SIGTERM or SIGINT lets open requests finish and exits 0. A bad setting, or a port in use, is
 * one line on stderr and exit code 2.
 */
import { ConfigError, configFromEnv, type ServerConfig } from './config.ts';
import { BAD_SETTING, CANNOT_LISTEN, STOPPED } from './exit-codes.ts';
import { createReferenceServer } from './server.ts';
import { errorLine } from '../lib/cli/vocabulary.ts';

let config: ServerConfig;
try {
  config = configFromEnv(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${errorLine('serve', error.message)}\n`);
  process.exit(BAD_SETTING);
}

try {
  const running = await createReferenceServer(config);
  const clock = config.clockRate === 1 ? '' : ` (its clock runs ${config.clockRate} times faster than real time)`;
  process.stdout.write(`Pet Store reference server listening on ${running.baseUrl}${clock}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    // process.exit drops whatever a pipe has not yet taken; an empty write's callback runs once all before it is written.
    void running.close().then(() => process.stdout.write('', () => process.exit(STOPPED)));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (error) {
  const { code, message } = error as NodeJS.ErrnoException;
  const reason = code === 'EADDRINUSE' ? `port ${config.port} on ${config.host} is already in use; pass --port (or PORT) with another port, or 0 for a free one` : message;
  process.stderr.write(`${errorLine('serve', `cannot listen: ${reason}`)}\n`);
  process.exit(CANNOT_LISTEN);
}
