/**
 * The project's own tests come in two tiers. `npm test` runs the quick one: every rule's broken and legitimate
 * servers, the judge, the harness and the manual, within ten minutes on two cores. `npm run test:field` runs the
 * long one, which CI runs after it: whole CI workflows, Locust and its fleets, clocks near real time, thousands of
 * keys, the packed package and the client matrix's commands, each spending minutes of the machine on one proof.
 *
 * PETSTORE_OWN_TESTS picks the tier (quick or field); unset, every test is in, as listings need them.
 */
import { existsSync } from 'node:fs';

/** Files of the field tier, relative to test/. */
export const FIELD_TESTS: readonly string[] = [
  'suite/ci-workflow-run.spec.ts',
  'suite/key-leaks.spec.ts',
  'suite/header-fault-verdicts.spec.ts',
  'suite/refusals-behind-header-faults.spec.ts',
  'suite/misconfigured-plan.spec.ts',
  'suite/enterprise.spec.ts',
  'suite/hostile-target.spec.ts',
  'suite/suite-as-client.spec.ts',
  'suite/pets-moved-by-others.spec.ts',
  'judge/invariance-field.spec.ts',
  'suite/continuous-buckets-with-days.spec.ts',
  'suite/key-budget.spec.ts',
  'suite/banned-key.spec.ts',
  'suite/daily-quota-new-day.spec.ts',
  'suite/daily-quota-short-windows.spec.ts',
  'suite/certify-scope.spec.ts',
  'suite/certified-again-and-again.spec.ts',
  'suite/usage-plan-bucket.spec.ts',
  'suite/same-verdict.spec.ts',
  'suite/two-limiters-with-days.spec.ts',
  'suite/unanswered-requests.spec.ts',
  'suite/one-at-a-time-creates.spec.ts',
  'judge/two-node-gateway.spec.ts',
  'replay/judged-fields-in-worker.spec.ts',
  'load/engine-parity.spec.ts',
  'load/engine-locust.spec.ts',
  'load/locust-answers.spec.ts',
  'load/sums-of-answers.spec.ts',
  'load/last-reports.spec.ts',
  'load/many-keys.spec.ts',
  'load/closed-loop-retry.spec.ts',
  'load/many-machines.spec.ts',
  'load/end-to-end.spec.ts',
  'load/broken-targets.spec.ts',
  'load/buckets-at-one-second-windows.spec.ts',
  'load/lost-answers-live.spec.ts',
  'load/command-line.spec.ts',
  'matrix/certify-command.spec.ts',
  'matrix/shipped-implementations.spec.ts',
  'clients/certify-client.spec.ts',
  'clients/refused-requests-shown.spec.ts',
  'clients/client-clock-written.spec.ts',
  'package/installed-cli.spec.ts',
  'package/command-line.spec.ts',
  'judge/planted-keys.spec.ts',
  'watch/production-field.spec.ts',
  'watch/syslog-field.spec.ts',
  'judge/record-live.spec.ts',
];

export type Tier = 'quick' | 'field' | 'all';

export function tierFromEnv(value: string | undefined): Tier {
  if (value === undefined || value === '') return 'all';
  if (value === 'quick' || value === 'field') return value;
  throw new Error(`PETSTORE_OWN_TESTS is "${value}": use quick (npm test), field (npm run test:field), or leave it unset for every test`);
}

/** The test files the tier leaves out (testIgnore), or the only ones it runs (testMatch). */
export function tierSelection(tier: Tier): { testIgnore?: string[]; testMatch?: string[] } {
  const missing = FIELD_TESTS.filter((file) => !existsSync(new URL(file, import.meta.url)));
  if (missing.length > 0) throw new Error(`test/tiers.ts names field tests that do not exist: ${missing.join(', ')}`);
  const patterns = FIELD_TESTS.map((file) => `**/test/${file}`);
  if (tier === 'quick') return { testIgnore: patterns };
  if (tier === 'field') return { testMatch: patterns };
  return {};
}
