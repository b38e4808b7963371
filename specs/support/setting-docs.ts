/**
 * What docs/reference/settings.md says of the suite's variables (npm run docs:reference): each variable's default,
 * its check, its meaning and a value it refuses, which the page's test feeds to settingsFromEnv.
 */
import type { SettingsOfPart } from '../../lib/docs/setting-docs.ts';
import {
  BUNDLED_CLOCK_RATE,
  BUNDLED_ENTERPRISE_QUOTA,
  BUNDLED_QUOTA_BUDGET_SECONDS,
  BUNDLED_RUN_TIMEOUT_SECONDS,
  DEFAULT_ANSWER_TIMEOUT_SECONDS,
  DEFAULT_GENERATED_RUNS,
  DEFAULT_QUOTA_BUDGET_SECONDS,
  DEFAULT_RUN_TIMEOUT_SECONDS,
  settingsFromEnv,
} from './settings.ts';

const PLAN_KEYS = 'PETSTORE_API_KEY_<PLAN>';

export const SUITE_SETTINGS: SettingsOfPart = {
  part: 'The conformance suite (`npm run conformance`, `petstore-conformance certify`, the GitHub Action)',
  read: (env) => settingsFromEnv(env, { port: 1, clockAnchorMs: 0, generatedSeed: 0 }),
  settings: [
    {
      name: 'PETSTORE_BASE_URL',
      default: 'unset: the suite starts the bundled reference server on a free port and certifies it',
      check: 'an http:// or https:// URL without query or fragment',
      meaning: 'The target to certify, `/v1` included, e.g. `https://staging.example.com/v1`.',
      refused: 'ftp://example.com/v1',
    },
    {
      name: PLAN_KEYS,
      default: 'against a target: no key for that plan (its tests are skipped, naming the variable); bundled: the demo keys',
      check: 'comma-separated keys of visible ASCII, no spaces',
      meaning: "The keys of each plan (FREE, PRO, BUSINESS, ENTERPRISE). One per plan certifies (a daily-quota test then runs after every other test of its key); three per plan run everything and measurements wait least. No key is ever written down: reports name the variable and the key's place in it instead.",
      refused: 'key with space',
    },
    {
      name: 'PETSTORE_READ_ONLY',
      default: '0',
      check: '1/true/yes/on or 0/false/no/off',
      meaning: 'Leave out every test that creates pets (tagged `@creates`), e.g. against production. The verdict is then at best "Not certified".',
      refused: 'maybe',
    },
    {
      name: 'PETSTORE_QUOTA_TESTS',
      default: '0 against a target; always on against the bundled server',
      check: '1/true/yes/on or 0/false/no/off',
      meaning: "Include the tests that use up a key's daily quota (tagged `@quota`).",
      refused: 'maybe',
    },
    {
      name: 'PETSTORE_FRESH_KEYS',
      default: '0 against a target; always on against the bundled server',
      check: '1/true/yes/on or 0/false/no/off',
      meaning: 'The keys have not been used today: a daily-quota test then asserts that exactly the daily quota is admitted, not only no more than it.',
      refused: 'maybe',
    },
    {
      name: 'PETSTORE_QUOTA_BUDGET_SECONDS',
      default: `${DEFAULT_QUOTA_BUDGET_SECONDS} against a target, ${BUNDLED_QUOTA_BUDGET_SECONDS} against the bundled server`,
      check: 'a positive number of seconds',
      meaning: "A daily-quota test first takes its key and waits (up to two minute windows) for a fresh window, then finds the minute window's length (its Reset when the headers describe the minute window, else learned from the target's minute refusals, else the documented minute), estimates its cost at that length, and is skipped (its rule partly checked) when the estimate exceeds this.",
      refused: '0',
    },
    {
      name: 'PETSTORE_RUN_TIMEOUT_SECONDS',
      default: `${DEFAULT_RUN_TIMEOUT_SECONDS} against a target, ${BUNDLED_RUN_TIMEOUT_SECONDS} against the bundled server`,
      check: 'a positive number of seconds',
      meaning: 'The bound on the whole run: however the target behaves, the run stops then and gives its verdict ("Not certified" or "Not conforming", never silence).',
      refused: '-5',
    },
    {
      name: 'PETSTORE_ANSWER_TIMEOUT_SECONDS',
      default: String(DEFAULT_ANSWER_TIMEOUT_SECONDS),
      check: 'a positive number of seconds',
      meaning: 'How long a request waits for its answer. A request not answered within it, or whose connection is closed without an answer, while other requests to its operation are answered, fails RESP-3; the suite sends it once more and goes on with that answer.',
      refused: 'soon',
    },
    {
      name: 'PETSTORE_ENTERPRISE_PER_MINUTE, PETSTORE_ENTERPRISE_PER_DAY',
      default: `unset: Enterprise is only observed (PLAN-ENTERPRISE); bundled: ${BUNDLED_ENTERPRISE_QUOTA.perMinute} and ${BUNDLED_ENTERPRISE_QUOTA.perDay}`,
      check: 'both or neither; whole numbers of requests, the day at least the minute',
      meaning: 'The Enterprise quota agreed for your Enterprise keys. Stated, an Enterprise key is certified against it as strictly as a documented plan (rule PLAN-ENTERPRISE-AGREED).',
      refused: '5000',
    },
    {
      name: 'PETSTORE_TARGET_CLOCK_RATE',
      default: '1 (the wall clock); bundled: ' + String(BUNDLED_CLOCK_RATE),
      check: 'a positive number',
      meaning: "For a target whose clock runs fast on purpose (a reference server started with PETSTORE_CLOCK_RATE): how many times faster. The suite then reads the target's Reset and Retry-After through that clock.",
      refused: 'fast',
    },
    {
      name: 'PETSTORE_TARGET_CLOCK_ANCHOR_MS',
      default: '0',
      check: 'a whole number of milliseconds since the epoch',
      meaning: "With PETSTORE_TARGET_CLOCK_RATE: the instant at which the target's fast clock equals the wall clock.",
      refused: '1.5',
    },
    {
      name: 'PETSTORE_GENERATED_RUNS',
      default: String(DEFAULT_GENERATED_RUNS),
      check: 'a positive number',
      meaning: 'How many seeded requests each property of the `generated` project sends after its input classes (every class is sent every run).',
      refused: '0',
    },
    {
      name: 'PETSTORE_GENERATED_EXPLORE',
      default: '0: the seed is fixed per suite version, so every run of one target sends the same requests',
      check: '1/true/yes/on or 0/false/no/off',
      meaning: 'Random exploration, opted into: a fresh seed each run, printed at the start; a failure it finds is reported with that seed and the shrunk request.',
      refused: 'maybe',
    },
    {
      name: 'PETSTORE_GENERATED_SEED',
      default: "the suite version's own seed (a fresh one with PETSTORE_GENERATED_EXPLORE=1), printed at the start",
      check: 'a whole number',
      meaning: "Replays a run's generated requests: the seed that run printed.",
      refused: '-1',
    },
    {
      name: 'PETSTORE_ACCEPT_NOT_CERTIFIED',
      default: '0',
      check: '1 accepts; any other value does not',
      meaning: 'Exit 0 instead of 3 for a "Not certified" verdict, for a job that cannot certify by design (read-only production). The verdict line still says "Not certified".',
    },
    {
      name: 'PETSTORE_CONFORMANCE_REPORT_DIR',
      default: '`reports/conformance` beside the config',
      check: 'a folder',
      meaning: 'Where the conformance report (index.html, conformance.json) goes; `certify --output` sets it.',
    },
    {
      name: 'PETSTORE_SPEC_URL',
      default: 'unset: rules are not linked',
      check: 'an http(s) URL; anything else is ignored',
      meaning: "`certify --summary`: links each failing rule of the job summary to its section of the spec at this address.",
    },
    {
      name: 'PETSTORE_PROGRESS_FILE',
      default: 'unset: no progress file',
      check: 'a file path',
      meaning: 'Set by `certify implementations.yaml` for each run it starts: the suite writes its progress there. Not for users.',
    },
    {
      name: 'PETSTORE_SUITE_RUN_<pid>',
      default: 'set by the suite itself',
      check: 'JSON written by the runner',
      meaning: "The run's port, clock anchor, seed and settings (parsed once, keys included as the key variables hold them), handed from Playwright's runner to its workers. Not for users.",
    },
  ],
};
