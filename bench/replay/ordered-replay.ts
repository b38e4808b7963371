/**
 * A peer the replay harness is measured against in the same run: the replay itself (harness/replay: the
 * capture read entry by entry, causal order, id remapping, the shared client), with the answers neither
 * checked nor compared. Next to the checked replay it shows what checking costs; next to the raw client,
 * what keeping causal order costs.
 */
import { HttpClient } from '../../lib/http/client.ts';
import { Redactor } from '../../lib/redact.ts';
import { basePath } from '../../lib/capture/base.ts';
import { CredentialResolver } from '../../harness/replay/credentials.ts';
import { IdMap } from '../../harness/replay/id-map.ts';
import { DEFAULT_IGNORE_FILE, IgnoreSet } from '../../harness/replay/ignore.ts';
import { replayCapture } from '../../harness/replay/replayer.ts';
import { ReplayResults } from '../../harness/replay/results.ts';
import { surveyCapture } from '../../harness/replay/survey.ts';
import { ThrottleGates } from '../../harness/replay/throttle.ts';

/** `authorization`: "Bearer <an Enterprise key of the target>", the plan the benchmark's capture records. */
export async function orderedReplay(capture: string, target: string, concurrency: number, authorization: string): Promise<{ exchanges: number; seconds: number }> {
  const key = authorization.replace(/^Bearer /, '');
  const survey = await surveyCapture(capture);
  const keys = { free: [], pro: [], business: [], enterprise: [key] };
  const credentials = new CredentialResolver(keys);
  credentials.prepare(survey.credentials, capture);
  const client = new HttpClient(new URL(target), { maxConnections: concurrency, timeoutMs: 30_000, batchWrites: true });
  const results = new ReplayResults(Date.now(), new Redactor(keys));
  const context = {
    base: survey.base,
    target,
    targetPath: basePath(target),
    client,
    credentials,
    ids: new IdMap(),
    ignore: IgnoreSet.load([DEFAULT_IGNORE_FILE]),
    gates: new ThrottleGates(),
    checks: false,
  };
  const started = performance.now();
  const outcome = await replayCapture(capture, context, results, { speed: 0, concurrency }).finally(() => client.close());
  const seconds = (performance.now() - started) / 1000;
  if (outcome.aborted) throw new Error(`the ordered replay stopped: ${outcome.aborted}`);
  return { exchanges: results.exchanges, seconds };
}
