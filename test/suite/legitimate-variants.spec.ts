/**
 * Servers that choose differently where the spec lets them must pass the whole suite: the suite must not
 * over-assert. Each run stacks several independent choices (one changes the store and limiter in-process, one
 * edits the wire), so a choice the suite wrongly refused would fail the run it is in.
 */
import { expect, test } from '@playwright/test';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { ClockWindowLimiter } from '../support/clock-window-limiter.ts';
import { GcraLimiter } from '../support/gcra-limiter.ts';
import { LimiterPerPlan } from '../support/limiter-per-plan.ts';
import { SlidingCounterLimiter } from '../support/sliding-counter-limiter.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { NEIGHBOUR_KEY } from './support/faults.ts';
import {
  bigIds,
  clampedLimit,
  extraFields,
  frameworkRefusals,
  knownCategoriesOnly,
  limitedNames,
  malformedIdsAnswered,
  NewestFirstStore,
  otherClients,
  ownErrorCodes,
  retryAfterAsDate,
  standardRateLimitFields,
  strictJsonRefusals,
  type LegitimateVariant,
} from './support/legitimate-variants.ts';
import { runSuite, type SuiteRunResult } from './support/run-suite.ts';
import { EXPECTED_SKIP, judgeVariantRun } from './support/variant-verdicts.ts';
import { startVariant, type VariantOptions } from './support/variant-target.ts';

/**
 * Longer "minutes" than the bundled server's second: the suite's bursts (1,000 requests for a Business key) pass
 * through the proxy while other runs share the two cores, and must fit in one window. A sliding window gets the
 * most room: once a burst has spilled over one, the suite's probes, spaced by X-RateLimit-Reset (when the oldest
request slides out), find no fresh window for a long while, and the plan test is skipped.
 */
const TIME_SCALE = 20;
const SLIDING_TIME_SCALE = 10;

const SEEDED_PETS = 5_000;

const STORE_AND_LIMITER: readonly LegitimateVariant[] = [
  { id: 'newest-first', description: 'lists animals newest first', freedom: 'no order is documented (LIST-GAP-3)' },
  { id: 'ids-above-2^53', description: 'hands out ids from 2^60 up (int64, above 2^53) and takes them back exactly', freedom: 'id is an int64 (Pet)' },
  { id: 'sliding-window', description: 'limits with sliding windows instead of fixed ones', freedom: 'window boundaries are not shown (RL-GAP-2)' },
  { id: 'extra-fields', description: 'adds fields to every pet and every Error (createdAt, tags, _links, traceId, details)', freedom: 'extra fields are allowed (RESP-2)' },
  { id: 'other-clients', description: 'another client creates and lists pets of every status all through the run', freedom: 'a shared service; the spec promises no isolation' },
  { id: 'thousands-of-pets', description: `starts with ${SEEDED_PETS.toLocaleString('en')} pets in the store`, freedom: 'nothing bounds the store' },
];

const WIRE_FORMATS: readonly LegitimateVariant[] = [
  { id: 'retry-after-http-date', description: 'sends Retry-After as an HTTP-date', freedom: 'Retry-After is delta-seconds or an HTTP-date (RFC 9110 section 10.2.3)' },
  { id: 'standard-ratelimit-fields', description: 'sends the standard RateLimit and RateLimit-Policy fields beside X-RateLimit-*', freedom: 'extra headers are allowed; the standard fields are not mentioned (RL-GAP-3)' },
  { id: 'own-error-codes', description: 'uses error codes of its own (PS-404-NOT_FOUND …)', freedom: 'the values of code are not shown (ERR-GAP-2)' },
  { id: 'clamped-limit', description: 'clamps an out-of-range limit into 1..100 instead of answering 400', freedom: 'the answer to a limit outside 1..100 is not shown (LIST-GAP-2)' },
  { id: 'known-categories-only', description: 'refuses a pet whose categoryId is not one of its categories (1 to 1,000) with 400', freedom: 'which categories exist is not shown (RES-GAP-1)' },
];

test('legitimate server "store-and-limiter" (newest first, ids above 2^53, sliding windows, extra fields, other clients, 5,000 pets) passes the suite', async ({}, testInfo) => {
  test.setTimeout(240_000);
  const target = await startVariant({
    store: new NewestFirstStore(),
    seedPets: SEEDED_PETS,
    limiter: new SlidingWindowLimiter(SLIDING_TIME_SCALE),
    timeScale: SLIDING_TIME_SCALE,
    transforms: [bigIds, extraFields],
  });
  const neighbour = otherClients(target.upstream.baseUrl, NEIGHBOUR_KEY);
  let run: SuiteRunResult;
  let created: number;
  try {
    run = await runSuite({ label: 'legitimate-store-and-limiter', baseUrl: target.baseUrl });
  } finally {
    created = await neighbour.stop();
    await target.close();
  }
  await judgeVariantRun('store-and-limiter', STORE_AND_LIMITER, run, testInfo);
  expect(created, 'the other client created pets while the suite ran').toBeGreaterThan(10);
});

test('legitimate server "wire-formats" (Retry-After as an HTTP-date, the standard RateLimit fields, error codes of its own, a clamped limit, known categories only) passes the suite', async ({}, testInfo) => {
  await passesTheSuite('wire-formats', WIRE_FORMATS, { transforms: [retryAfterAsDate, standardRateLimitFields, ownErrorCodes, clampedLimit, knownCategoriesOnly()], timeScale: TIME_SCALE }, testInfo);
});

/**
 * Runs the whole suite against the reference server changed as `options` says (the suite told of its clock), and
 * judges the run for `variants`; `expectedSkip` widens the skips such a run may have.
 */
async function passesTheSuite(
  name: string,
  variants: readonly LegitimateVariant[],
  options: VariantOptions,
  testInfo: import('@playwright/test').TestInfo,
  { expectedSkip = EXPECTED_SKIP, timeoutMs = 240_000 } = {},
): Promise<void> {
  test.setTimeout(timeoutMs + 20_000);
  const target = await startVariant(options);
  let run: SuiteRunResult;
  try {
    run = await runSuite({ label: `legitimate-${name}`, baseUrl: target.baseUrl, timeoutMs, env: target.clockEnv });
  } finally {
    await target.close();
  }
  await judgeVariantRun(name, variants, run, testInfo, { expectedSkip });
}

/** Categories the strict store knows: a shop of cats, dogs and birds. */
const FEW_CATEGORIES = 3n;

const STRICT_VALIDATION: readonly LegitimateVariant[] = [
  { id: 'malformed-id-400', description: 'answers a petId that is not an int64 (abc, +5, 2^63) with 400 and an Error, as express-openapi-validator or Spring (the reference server answers 404)', freedom: 'such a request is outside the contract (GET-GAP-1)' },
  { id: 'limited-names', description: 'refuses with 400 and an Error a name that is empty or blank, over 100 characters, with control characters, surrounding spaces or characters outside the BMP', freedom: 'limits on name are not shown (RES-GAP-2)' },
  { id: 'three-categories', description: `knows only categories 1 to ${FEW_CATEGORIES} and refuses any other with 400`, freedom: 'which categories exist is not shown (RES-GAP-1)' },
];

const FRAMEWORK_STYLE: readonly LegitimateVariant[] = [
  { id: 'malformed-id-422', description: 'answers a petId that is not an int64 with 422 and an Error (FastAPI), reading +5, " 5" and 5.0 as pet 5 first', freedom: 'such a request is outside the contract (GET-GAP-1)' },
  { id: 'query-422', description: 'answers a limit or status outside its schema with 422 and an Error, and reads a status filter case-insensitively', freedom: 'outside the contract (LIST-GAP-2, LIST-GAP-4)' },
  { id: 'body-413-415', description: 'answers a body over 64 KiB with 413, and one that is not application/json with 415, each with an Error', freedom: 'outside the contract (CREATE-GAP-2)' },
  { id: 'strict-json', description: 'refuses with 400 and an Error a body with a key such as __proto__ or constructor, or an integer written 1e2, 100.0 or -0', freedom: 'outside the contract (CREATE-GAP-2)' },
  { id: 'categories-within-doubles', description: 'refuses with 400 and an Error a categoryId beyond 2^53 - 1, as Fastify\'s schema on JavaScript numbers does', freedom: 'which categories exist is not shown (RES-GAP-1)' },
  { id: 'no-body-415', description: 'answers a POST /pets with no body at all 415 with an Error (express-openapi-validator; a Hono service behind nginx)', freedom: 'a request with no body is outside the contract (CREATE-GAP-2)' },
];

test('legitimate server "strict-validation" (400 for a malformed petId, limited names, three categories) passes the suite', async ({}, testInfo) => {
  await passesTheSuite('strict-validation', STRICT_VALIDATION, { transforms: [() => malformedIdsAnswered(400), limitedNames, knownCategoriesOnly(FEW_CATEGORIES)], timeScale: TIME_SCALE }, testInfo);
});

test('legitimate server "framework-style" (422 for a malformed petId or query value, 413 and 415 for bodies beyond JSON or none, 400 for OWASP\'s inputs and categories beyond 2^53) passes the suite', async ({}, testInfo) => {
  await passesTheSuite('framework-style', FRAMEWORK_STYLE, { transforms: [() => malformedIdsAnswered(422, true), frameworkRefusals, strictJsonRefusals], timeScale: TIME_SCALE }, testInfo);
});

/** The limiter-kinds server's clock, as the bundled server's: a minute lasts a quarter of a second. */
const LIMITER_KINDS_CLOCK_RATE = 240;

const LIMITER_KINDS: readonly LegitimateVariant[] = [
  { id: 'token-bucket', description: 'limits Free keys with token buckets (a minute and a day bucket, as Envoy and AWS API Gateway): Reset is when the bucket is full again, Retry-After when the next token comes', freedom: 'window boundaries are not shown (RL-GAP-2)' },
  { id: 'sliding-counter', description: 'limits Pro keys with a sliding-window counter (the last clock window weighted by its overlap, as Cloudflare and @upstash/ratelimit)', freedom: 'window boundaries are not shown (RL-GAP-2)' },
  { id: 'fixed-on-the-clock', description: 'limits Business keys with fixed windows on clock minutes', freedom: 'window boundaries are not shown (RL-GAP-2)' },
  { id: 'gcra', description: 'limits Enterprise keys with GCRA (a theoretical arrival time per window, as redis-cell)', freedom: 'window boundaries are not shown (RL-GAP-2)' },
];

test('legitimate server "limiter-kinds" (a token bucket, a sliding counter, fixed windows on the clock and GCRA, one per plan) passes the suite', async ({}, testInfo) => {
  const limiter = new LimiterPerPlan(
    new Map<number, RateLimiter>([
      [60, new TokenBucketLimiter()],
      [300, new SlidingCounterLimiter()],
      [1000, new ClockWindowLimiter()],
    ]),
    new GcraLimiter(),
  );
  await passesTheSuite('limiter-kinds', LIMITER_KINDS, { limiter, clockRate: LIMITER_KINDS_CLOCK_RATE }, testInfo, { timeoutMs: 280_000 });
});
