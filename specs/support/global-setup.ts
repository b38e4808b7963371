/**
 * Before any test: the seed of the run's generated requests is printed, so any run can be replayed; and a
 * target given by PETSTORE_BASE_URL must answer at all, or the run stops with one line instead of every test
 * failing on the same refused connection.
 */
import { HttpClient } from '../../lib/http/client.ts';
import { runSettings } from './run.ts';

export default async function globalSetup(): Promise<void> {
  const settings = runSettings();
  const { seed, runs, explore } = settings.generated;
  const how = explore ? `exploring with the random seed ${seed}` : process.env.PETSTORE_GENERATED_SEED?.trim() ? `seed ${seed}, as given` : `the suite's fixed seed ${seed} (PETSTORE_GENERATED_EXPLORE=1 draws a fresh one)`;
  process.stdout.write(`Generated requests: every input class, then ${runs} seeded requests per property, ${how}; PETSTORE_GENERATED_SEED=${seed} replays them\n`);
  if (settings.bundled) return;
  const client = new HttpClient(new URL(settings.baseUrl), { maxConnections: 1, timeoutMs: 10_000 });
  try {
    await client.request({ method: 'GET', url: new URL(`${settings.baseUrl}/pets`), headers: {} });
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    process.stderr.write(`petstore-conformance certify: PETSTORE_BASE_URL ${settings.baseUrl} does not answer (${cause}); is the server running?\n`);
    process.exit(2);
  } finally {
    client.close();
  }
}
