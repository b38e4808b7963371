/**
 * The suite's `test`, with fixtures that let a spec read as the rule it checks:
 * - `target`: the base URL, the keys by plan and which key serves which purpose;
 * - `check`: judges expectations by the level of the rule (MUST fails, SHOULD warns, GAP observes);
 * - `api`: the validating, polite client (Playwright's request) with the functional tests' shared key;
 * - `anonymous`: the same client sending no Authorization header at all;
 * - `keys`: leases of keys that no other test uses meanwhile, for tests that measure a quota, with a client
 *   that hands 429s back instead of waiting them out, and `keys.alone` for a burst that must fit a window.
 * And `rule(id, words)`, which names a test after the rule it checks and cites it.
 */
import { test as base, type TestDetails, type TestInfo } from '@playwright/test';
import { keyVariable, type KeysByPlan } from '../../lib/keys.ts';
import { PLAN_IDS, type PlanId } from '../../lib/plans.ts';
import { Redactor } from '../../lib/redact.ts';
import { targetClock, type TargetClock } from '../../lib/target-clock.ts';
import { ruleById } from '../../lib/rules.ts';
import { PetStoreClient, type Politeness } from './client.ts';
import { dayUsedUpEarlier, rememberDayUsedUp } from './days-used-up.ts';
import { countingCreations, createdAnnotation, type CreatedPets } from './created-pets.ts';
import { playwrightTransport, socketTransport, type Transport } from './exchange.ts';
import { RuleJudge } from './judge.ts';
import { keyRoles, type KeyRoles } from './key-roles.ts';
import { restingOnRefusals, type KeyRest } from './key-rest.ts';
import { leasedTransport } from './leased-transport.ts';
import { KeyLeases, type Lease } from './leases.ts';
import { lostConnectionsUnmeasured } from './lost-connections.ts';
import { BURST_CONCURRENCY, type Alone } from './minute-window.ts';
import { currentRun, runSettings } from './run.ts';
import type { SuiteSettings } from './settings.ts';
import { misconfiguredAnnotation, misconfiguredReason, MISCONFIGURED_KEY, parseMisconfiguration, watchedPlan, type Misconfiguration } from './misconfigured-keys.ts';
import { quotaInRun } from './plan-quotas.ts';
import { settleStatusThatDoesNotMatter } from './store-growth.ts';
import { BANNED_KEY, bannedReason, keyName, SPENT_KEY, spentReason, watchedKey, whenBack } from './spent-keys.ts';

export interface Target {
  baseUrl: string;
  keys: KeysByPlan;
  roles: KeyRoles;
  settings: SuiteSettings;
  redactor: Redactor;
  /** The target's clock, which its Reset and Retry-After speak of. */
  clock: TargetClock;
}

export interface KeyLeasing {
  /**
   * A client on a key of `plan` that no other test uses until this test ends, for measuring a minute window.
   * Skips the test, naming the variable to set, when the plan has no key.
   */
  measuring(plan: PlanId, options?: { except?: string[] }): Promise<PetStoreClient>;
  /**
   * A client on the key a daily-quota test may use up, and the requests other tests of this run were admitted on
   * it first (they count in its day) with when the first of them was (real ms); skips the test when there is none.
   */
  daily(plan: PlanId): Promise<{ client: PetStoreClient; admittedEarlier: number; firstAdmittedAt: number | undefined }>;
  /**
   * A client on another measuring key of `plan` than `except`, for a comparison inside a measurement another
   * rule's test shares: it never skips the test, and says why when no such key can be had within the test's time.
   */
  another(plan: PlanId, except: string): Promise<PetStoreClient | string>;
  /** A client on a key of `plan` used in common with other tests, whichever no measurement holds (a single request disturbs none). */
  common(plan: PlanId): Promise<PetStoreClient>;
  /** Notes that this test used up the key's day. */
  markExhausted(client: PetStoreClient): void;
  /** Runs a burst while no other test of this run sends one. */
  alone: Alone;
}

interface TestFixtures {
  check: RuleJudge;
  api: PetStoreClient;
  /**
   * Option: the `api` fixture sends over the suite's raw keep-alive client with this many connections instead of
   * Playwright's request context, whose own work between a call and its bytes on the wire (a tenth of a second
   * and more for each of 20 parallel calls, here) leaves an exchange's times saying nothing of what was in flight
   * together. Set it (`test.use`) for a test that judges how many of its requests the target had at once.
   */
  apiConnections: number | undefined;
  anonymous: PetStoreClient;
  keys: KeyLeasing;
  /** Skips a test tagged @creates when the run is read-only. */
  readOnlyGuard: void;
}

interface WorkerFixtures {
  target: Target;
  leaseBook: KeyLeases;
}

/** Tag of tests that create pets; PETSTORE_READ_ONLY=1 skips them (and `--grep-invert @creates` leaves them out). */
export const CREATES = '@creates';
/** Tag of tests that use up a key's daily quota. */
export const QUOTA = '@quota';

/**
 * The lease a burst holds alone and functional requests hold in common, each while in flight (a name no key can
 * have: keys are visible ASCII without spaces). A burst that must fit a window then has the machine to itself.
 */
const BURST_LEASE = 'one burst at a time';

export const test = base.extend<TestFixtures, WorkerFixtures>({
  target: [
    async ({}, use) => {
      const settings = runSettings();
      const clock = targetClock(settings.clock.rate, settings.clock.anchorMs);
      await use({ baseUrl: settings.baseUrl, keys: settings.keys, roles: keyRoles(settings.keys, settings), settings, redactor: new Redactor(settings.keys), clock });
    },
    { scope: 'worker' },
  ],
  leaseBook: [async ({}, use) => use(new KeyLeases(currentRun().leaseDir)), { scope: 'worker' }],

  readOnlyGuard: [
    async ({ target }, use, testInfo) => {
      if (target.settings.readOnly && testInfo.tags.includes(CREATES)) testInfo.skip(true, 'PETSTORE_READ_ONLY=1 leaves out the tests that create pets');
      await use();
    },
    { auto: true },
  ],

  check: async ({ target }, use, testInfo) => {
    testStarts.set(testInfo, Date.now());
    const judge = new RuleJudge(testInfo, primaryRule(testInfo), target.redactor);
    await use(judge);
    judge.finish();
    const created = createdAnnotation(createdBy(testInfo));
    if (created) testInfo.annotations.push(created);
  },

  apiConnections: [undefined, { option: true }],

  api: async ({ request, target, check, leaseBook, apiConnections }, use, testInfo) => {
    const functional = target.roles.functional;
    if (!functional) {
      testInfo.skip(true, `set a key in ${PLAN_IDS.map(keyVariable).join(', ')} (any plan) to run this`);
      return;
    }
    const spent = spentKeys(target, leaseBook, testInfo);
    spent.skipIfSpent(functional.plan, functional.key);
    const lease = await leaseBook.common(functional.key);
    const sockets = apiConnections === undefined ? undefined : socketTransport(target.baseUrl, apiConnections, answerTimeoutMs(target));
    const wire = sockets ?? playwrightTransport(request, answerTimeoutMs(target));
    // Functional tests judge nothing by the key's plan: a key that answers as another plan's is only named.
    const rest = leaseBook.rest(functional.key);
    const transport = spent.watch(leasedTransport(wire, () => leaseBook.common(BURST_LEASE)), functional.plan, functional.key, 'skip', 'note', rest);
    try {
      await sockets?.open();
      const api = client(transport, target, check, testInfo, `Bearer ${functional.key}`, functional.plan, 'wait', rest);
      if (!target.settings.readOnly) await settleStatusThatDoesNotMatter(api);
      await use(api);
    } finally {
      sockets?.close();
      lease.release();
    }
  },

  anonymous: async ({ request, target, check, leaseBook }, use, testInfo) => {
    const transport = leasedTransport(playwrightTransport(request, answerTimeoutMs(target)), () => leaseBook.common(BURST_LEASE));
    await use(client(transport, target, check, testInfo, undefined, undefined, 'wait'));
  },

  keys: async ({ target, check, leaseBook }, use, testInfo) => {
    const leases: Lease[] = [];
    const transports: { close(): void }[] = [];
    const held = new Map<PetStoreClient, string>();
    const spent = spentKeys(target, leaseBook, testInfo);
    const skipWithout = (plan: PlanId): void => {
      if (target.keys[plan].length === 0) testInfo.skip(true, `set ${keyVariable(plan)} to run this`);
    };
    const measuringClient = (lease: Lease, plan: PlanId, politeness: Politeness, onSpent: 'skip' | 'note' | 'own-day'): PetStoreClient => {
      leases.push(lease);
      const socket = socketTransport(target.baseUrl, BURST_CONCURRENCY, answerTimeoutMs(target));
      transports.push(socket);
      // A measurement waits as it measures; a client that waits out 429s waits for the key's rest too.
      const rest = politeness === 'wait' ? leaseBook.rest(lease.key) : undefined;
      const watched = spent.watch(socket, plan, lease.key, onSpent, 'skip', rest);
      const stop = (reason: string): void => testInfo.skip(true, reason);
      // A 429 whose wait the test has no time for stops a polite client's test once the key's rest has it (client.ts).
      const transport = politeness === 'measure' ? lostConnectionsUnmeasured(watched, stop) : watched;
      const made = client(transport, target, check, testInfo, `Bearer ${lease.key}`, plan, politeness, rest);
      held.set(made, lease.key);
      return made;
    };
    const leasing: KeyLeasing = {
      async measuring(plan, { except = [] } = {}) {
        skipWithout(plan);
        const candidates = target.roles.measuring[plan].filter((key) => !except.includes(key));
        if (candidates.length === 0) testInfo.skip(true, `add another key to ${keyVariable(plan)} to run this`);
        // A key found spent earlier in the run has no room to measure: another candidate, else the reason.
        const unspent = spent.usable(candidates);
        if (unspent.length === 0) spent.skipIfUnusable(plan, candidates[0]!);
        return measuringClient(await leaseBook.exclusive(unspent), plan, 'measure', 'note');
      },
      async daily(plan) {
        skipWithout(plan);
        const daily = target.roles.daily[plan];
        if ('unavailable' in daily) testInfo.skip(true, daily.unavailable);
        if (!('key' in daily)) throw new Error('unreachable');
        if (leaseBook.isExhausted(daily.key)) testInfo.skip(true, `the daily quota of the key in ${keyVariable(plan)} reserved for this test is already used up in this run`);
        spent.skipIfUnusable(plan, daily.key);
        const lease = await leaseBook.exclusive([daily.key]);
        return { client: measuringClient(lease, plan, 'measure', 'own-day'), admittedEarlier: leaseBook.admittedInRun(daily.key), firstAdmittedAt: leaseBook.firstAdmittedInRun(daily.key) };
      },
      async another(plan, except) {
        const candidates = target.roles.measuring[plan].filter((key) => key !== except && leaseBook.spentUntil(key) === undefined);
        if (candidates.length === 0) return `add a second key to ${keyVariable(plan)} to see whether keys share a count`;
        try {
          return measuringClient(await leaseBook.exclusive(candidates, AbortSignal.timeout(Math.max(0, timeLeft(testInfo)()))), plan, 'measure', 'note');
        } catch {
          return `no second key of ${keyVariable(plan)} was free within the test's time (another test held it)`;
        }
      },
      async common(plan) {
        skipWithout(plan);
        const candidates = target.roles.measuring[plan];
        const unspent = spent.usable(candidates);
        if (unspent.length === 0) spent.skipIfUnusable(plan, candidates[0]!);
        return measuringClient(await leaseBook.commonOnAny(unspent), plan, 'wait', 'skip');
      },
      markExhausted(made) {
        const key = held.get(made);
        if (key) leaseBook.markExhausted(key);
      },
      async alone(work) {
        const lease = await leaseBook.exclusive([BURST_LEASE]);
        try {
          return await work();
        } finally {
          lease.release();
        }
      },
    };
    try {
      await use(leasing);
    } finally {
      for (const transport of transports) transport.close();
      for (const lease of leases) lease.release();
    }
  },
});

/**
 * Keys found spent (spent-keys.ts) or given under the wrong plan (misconfigured-keys.ts): noted in the lease book
 * so later tests leave them, and on the test (the verdict names them). `skip`: a test that waits out 429s cannot
 * wait out a day, so it says so and ends; `note`: a measurement says itself what it could not measure;
 * `own-day`: only a refusal before anything was admitted counts, since a daily test meets its own day's refusal
 * at the end. A key that answers as another plan's ends a test that judges its plan (`skip`), and is only named
 * by one that does not (`note`). With the key's `rest`, every 429 is in it before any of these can end the test.
 */
function spentKeys(target: Target, leaseBook: KeyLeases, testInfo: TestInfo) {
  const note = (plan: PlanId, key: string, untilMs: number): string => {
    const name = keyName(target.keys, plan, key);
    testInfo.annotations.push({ type: SPENT_KEY, description: `${name}|${whenBack(untilMs)}` });
    return spentReason(name, untilMs);
  };
  const noteMisconfigured = (found: Misconfiguration): string => {
    testInfo.annotations.push({ type: MISCONFIGURED_KEY, description: misconfiguredAnnotation(found) });
    return misconfiguredReason(found);
  };
  const skipIfSpent = (plan: PlanId, key: string): void => {
    const until = leaseBook.spentUntil(key);
    if (until !== undefined) testInfo.skip(true, note(plan, key, until));
  };
  return {
    skipIfSpent,
    /** Of `candidates`, the keys neither spent nor given under the wrong plan. */
    usable: (candidates: readonly string[]): string[] => candidates.filter((key) => leaseBook.spentUntil(key) === undefined && leaseBook.misconfigured(key) === undefined),
    skipIfUnusable(plan: PlanId, key: string): void {
      skipIfSpent(plan, key);
      const found = parseMisconfiguration(leaseBook.misconfigured(key));
      if (found) testInfo.skip(true, noteMisconfigured(found));
    },
    watch(transport: Transport, plan: PlanId, key: string, onSpent: 'skip' | 'note' | 'own-day', onMisconfigured: 'skip' | 'note', rest?: KeyRest): Transport {
      const spent = (untilMs: number): void => {
        leaseBook.markSpent(key, untilMs);
        const reason = note(plan, key, untilMs);
        if (onSpent === 'skip') testInfo.skip(true, reason);
      };
      const misconfigured = (found: Misconfiguration): void => {
        leaseBook.markMisconfigured(key, misconfiguredAnnotation(found));
        const reason = noteMisconfigured(found);
        if (onMisconfigured === 'skip') testInfo.skip(true, reason);
      };
      // A ban the test has time for is waited out; one it has not is named as a ban, and ends the test.
      const banned = (untilMs: number): boolean => {
        const name = keyName(target.keys, plan, key);
        if (untilMs - Date.now() < timeLeft(testInfo)()) {
          testInfo.annotations.push({ type: 'throttled', description: `${name} was banned (a 429 asking for longer than a minute while its day went on); waited until ${new Date(untilMs).toISOString()}` });
          return true;
        }
        testInfo.annotations.push({ type: BANNED_KEY, description: `${name}|${whenBack(untilMs)}` });
        testInfo.skip(true, bannedReason(name, untilMs));
        return false;
      };
      const quota = quotaInRun(plan, target.settings.enterpriseQuota);
      const days = {
        admittedBefore: leaseBook.admittedInRun(key),
        usedUp: (untilMs: number) => rememberDayUsedUp(target.baseUrl, key, untilMs),
        usedUpEarlier: (untilMs: number) => dayUsedUpEarlier(target.baseUrl, key, untilMs, target.clock.toRealMs(1_000)),
      };
      const resting = rest ? restingOnRefusals(transport, rest, target.clock) : transport;
      const watched = watchedKey(resting, target.clock, { spent, banned, admitted: () => leaseBook.countAdmitted(key), ...days }, { untilAdmitted: onSpent === 'own-day', ...(quota ? { quota } : {}) });
      return watchedPlan(watched, plan, quota, keyName(target.keys, plan, key), misconfigured);
    },
  };
}

function client(
  transport: Transport,
  target: Target,
  judge: RuleJudge,
  testInfo: TestInfo,
  authorization: string | undefined,
  plan: PlanId | undefined,
  politeness: Politeness,
  rest?: KeyRest,
): PetStoreClient {
  return new PetStoreClient({
    transport: countingCreations(transport, createdBy(testInfo)),
    baseUrl: target.baseUrl,
    authorization,
    plan,
    judge,
    politeness,
    ...(rest ? { rest } : {}),
    clock: target.clock,
    ...(target.settings.enterpriseQuota ? { enterpriseQuota: target.settings.enterpriseQuota } : {}),
    timeLeftMs: timeLeft(testInfo),
  });
}

const answerTimeoutMs = (target: Target): number => target.settings.answerTimeoutSeconds * 1000;

/** The real time a test has left to wait out a 429, with two seconds to spare. */
function timeLeft(testInfo: TestInfo): () => number {
  return () => (testInfo.timeout === 0 ? Number.POSITIVE_INFINITY : testInfo.timeout - (Date.now() - testStart(testInfo)) - 2_000);
}

/** The animals each test's clients created, for the report's count of what the run added to the store. */
const creations = new WeakMap<TestInfo, CreatedPets>();
function createdBy(testInfo: TestInfo): CreatedPets {
  let tally = creations.get(testInfo);
  if (!tally) creations.set(testInfo, (tally = new Map()));
  return tally;
}

/** When each test's fixtures began, for the time it has left to wait out a 429. */
const testStarts = new WeakMap<TestInfo, number>();
const testStart = (testInfo: TestInfo): number => testStarts.get(testInfo) ?? Date.now();

function primaryRule(testInfo: TestInfo): string {
  const cited = testInfo.annotations.find((annotation) => annotation.type === 'rule')?.description;
  if (!cited) throw new Error(`"${testInfo.title}" cites no rule; declare it with test(...rule(id, words), body)`);
  return cited;
}

export interface RuleOptions {
  /** Further rules the test checks; they are cited after the primary one. */
  also?: string[];
  /** Tags, such as CREATES for tests that create pets. */
  tag?: string[];
}

/**
 * The title and details of the test of one rule: `test(...rule('LIST-1', 'only … are returned'), async (…) => …)`.
 * The title is `<ID> <LEVEL> <words>` with the level from fixtures/rules.yaml; the details cite the rule (and
 * `also`) in `rule` annotations. An unknown id throws when the spec file loads. (`test` itself is called in
 * the spec so that Playwright records the spec's own file and line for the test.)
 */
export function rule(id: string, words: string, options: RuleOptions = {}): [string, TestDetails] {
  const cited = [id, ...(options.also ?? [])];
  const level = ruleById(id).level;
  cited.forEach(ruleById);
  return [`${id} ${level} ${words}`, { annotation: cited.map((description) => ({ type: 'rule', description })), tag: options.tag ?? [] }];
}
