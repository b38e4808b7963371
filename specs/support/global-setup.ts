/**
 * Before any test: a target given by PETSTORE_BASE_URL must answer at all, or the run stops with one line
 * instead of every test failing on the same refused connection.
 */
import { currentRun } from './run.ts';
import { settingsFromEnv } from './settings.ts';

export default async function globalSetup(): Promise<void> {
  const settings = settingsFromEnv(process.env, currentRun().port);
  if (settings.bundled) return;
  try {
    const response = await fetch(`${settings.baseUrl}/pets`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    process.stderr.write(`conformance: PETSTORE_BASE_URL ${settings.baseUrl} does not answer (${cause}); is the server running?\n`);
    process.exit(2);
  }
}
