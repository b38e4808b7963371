/**
 * The broken servers of the suite's own proof (test/suite/support/faults.ts), shown traffic: the shipped
 * sample's exchanges, each passed through a fault's edits as its fault proxy would pass them, then judged.
 * Every fault is named here by what the sample shows of it: a breach the judge must fail by the fault's own rule
 * (and no rule the fault does not break), a breach only other rules can show (the rule is about something a
 * recording does not hold), answers changed in a way traffic cannot tell from a correct server's, or nothing at
 * all (the sample sends no request the fault changes, or the fault rewrites requests, which a recording cannot
 * ask again). A fault the judge would miss has no list to go in: naming it as one traffic cannot show would need
 * its answers to be a correct server's. The correct server's sample fails nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { HarEntry } from '../../lib/capture/types.ts';
import { NEEDS } from '../../harness/judge/report.ts';
import { FAULTS, faultById, type Fault } from '../suite/support/faults.ts';
import { isProxyResponse, RESET_CONNECTION, type ProxyRequest, type ProxyResponse } from '../support/fault-proxy.ts';
import { harEntries, SAMPLE_HAR } from '../replay/support.ts';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { failures, judged, tempDir } from './support.ts';

const SAMPLE = harEntries(SAMPLE_HAR);

/**
 * The sample as the fault's server would have answered it, or undefined when the fault needs to ask the
 * upstream again (a request rewritten), which a recording cannot.
 */
async function asAnsweredBy(fault: Fault): Promise<HarEntry[] | undefined> {
  const transform = fault.proxy?.({ upstreamBaseUrl: 'http://127.0.0.1:9/v1' });
  if (!transform) return undefined;
  const edited: HarEntry[] = [];
  for (const entry of SAMPLE) {
    const url = new URL(entry.request.url);
    const request: ProxyRequest = { method: entry.request.method, path: url.pathname + url.search, headers: lower(entry.request.headers), body: entry.request.postData?.text ?? '' };
    let response: ProxyResponse = { status: entry.response.status, headers: lower(entry.response.headers), body: entry.response.content.text ?? '' };
    try {
      const forwarded = transform.request ? await transform.request(request) : request;
      if (isProxyResponse(forwarded)) response = forwarded;
      else if (forwarded.path !== request.path || forwarded.method !== request.method || forwarded.body !== request.body) return undefined;
      if (transform.response && !isProxyResponse(forwarded)) response = await transform.response(response, request);
    } catch {
      // The fault asks the upstream itself (no upstream answers here): a recording cannot show it.
      return undefined;
    }
    // A connection reset is what a browser's HAR records so: status 0, and the cause.
    const reset = response.status === RESET_CONNECTION.status ? { _error: 'net::ERR_CONNECTION_RESET' } : {};
    edited.push({
      ...entry,
      response: { ...entry.response, status: response.status, headers: Object.entries(response.headers).map(([name, value]) => ({ name, value })), content: { ...entry.response.content, text: response.body }, ...reset },
    });
  }
  return edited;
}

function lower(headers: ReadonlyArray<{ name: string; value: string }>): Record<string, string> {
  return Object.fromEntries(headers.map(({ name, value }) => [name.toLowerCase(), value]));
}

async function judgeEntries(entries: readonly HarEntry[], clockSkewMs?: number): Promise<Record<string, string>> {
  return failures(await reportOf(entries, clockSkewMs));
}

/** The entries judged, with the default clock skew unless told. */
async function reportOf(entries: readonly HarEntry[], clockSkewMs?: number): Promise<ConformanceReport> {
  const file = join(tempDir('fault'), 'fault.har.ndjson');
  writeFileSync(file, `${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
  if (clockSkewMs === undefined) return judged(file);
  return (await judgeCapture(file, { env: {}, clockSkewMs, run: { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' } })).report;
}

/** Faults the sample shows, with what shows them: each fails its own rule, and no rule the fault does not break. */
const CAUGHT_BY_ITS_RULE: Readonly<Record<string, string>> = {
  'list-not-json-content-type': 'every list answer says text/plain',
  'list-category-as-string': 'every listed pet has a string categoryId',
  'list-answers-203': 'every list answer is a 203',
  'list-wrapped-in-object': 'every list answer is an object around the array',
  'created-without-status': 'the 201s to creations with a status answer none',
  'sunset-wrong-date': "the getPet answers' Sunset",
  'orders-refuse-valid-key': 'the 401 to GET /store/orders with a valid key',
  'error-without-message': 'the Error bodies without message',
  'error-status-always-400': "the Error bodies' status field",
  'no-reset-on-errors': 'the error answers without X-RateLimit-Reset',
  'reset-wobbles': 'Reset moving within a window, one key, in order',
  'category-cut-to-int32': 'a created categoryId past int32 answered cut',
  'resets-every-9th-list': 'seven list requests whose connection was reset (status 0, net::ERR_CONNECTION_RESET)',
  'list-deprecated': 'Deprecation on every listPets answer',
  'orders-not-found': 'a 404 to GET /store/orders with a valid key',
  'remaining-stuck': 'Remaining that never falls over 60 admissions of the Free key, answered within a second, long before their Reset',
  'remaining-at-limit': 'Remaining equal to the Limit on each of 60 admissions of the Free key, answered within a second, long before their Reset',
};

/**
 * Faults the sample shows only in the order of its exchanges: getPet of pets 7 to 10, and lists by status, tens of
 * milliseconds after their creations were answered. Judged as what it is, one proxy's recording on one clock (--clock-skew 0), each fails its
 * own rule; under the default skew of a second, two clocks could have put the gets first, and the rule is not judged
 * (never failed), saying so.
 */
const CAUGHT_IN_ORDER: Readonly<Record<string, string>> = {
  'get-renames-pet': 'getPet of pets 7 to 10 answers another name than their creations did',
  'get-pet-removed': 'getPet of pets 7 to 10 answers 404, as if the operation were gone',
  'list-frozen-at-start': 'the lists by status after the creations, not full, leave pets 7, 9 and 10 out, and getPet of each, sent after the lists came, still answers the status it was created with',
};

/** Faults whose own rule a recording cannot show (which base path or which operations are deployed), caught by the rules their answers break. */
const CAUGHT_BY_OTHER_RULES: Readonly<Record<string, string>> = {
  'served-under-v2': 'VER-1: the sample asked /v1, and every answer is a 404 there',
  'create-not-deployed': 'VER-2: the creations are answered 404',
};

/**
 * Faults whose own rule the judge shows on other traffic, but this sample's answers cannot: caught by the rules their
 * answers break (the fault's alsoBreaks).
 */
const OWN_RULE_NOT_IN_SAMPLE: Readonly<Record<string, string>> = {
  'static-example-mock':
    "every creation is answered with the example pet, so the sample never shows that pets 7 to 10 exist: their getPet answered with the example pet breaks GET-1 if they do and GET-2 if not, which traffic cannot tell apart; CREATE-1 fails",
};

/** Faults that change the sample's answers in ways traffic cannot tell from a correct server's. */
const NOT_SHOWN: Readonly<Record<string, string>> = {
  'unknown-id-placeholder': 'a 200 to an id the sample never created: another client may have created it',
};

async function judgedFailures(fault: Fault): Promise<string[]> {
  const entries = await asAnsweredBy(fault);
  if (!entries) throw new Error(`${fault.id}: the sample cannot be answered as this fault answers`);
  return Object.keys(await judgeEntries(entries));
}

/** How many of the sample's answers the fault changes; undefined when it rewrites requests. */
async function changedAnswers(fault: Fault): Promise<number | undefined> {
  const entries = await asAnsweredBy(fault);
  if (!entries) return undefined;
  const answer = (entry: HarEntry): string => JSON.stringify([entry.response.status, entry.response.content.text ?? '', Object.entries(lower(entry.response.headers)).sort()]);
  return entries.filter((entry, index) => answer(entry) !== answer(SAMPLE[index]!)).length;
}

test("the correct server's sample fails nothing, on one clock too", async () => {
  expect(await judgeEntries(SAMPLE)).toEqual({});
  expect(await judgeEntries(SAMPLE, 0)).toEqual({});
});

test('every fault the sample shows is named here; every other fault changes none of its answers, or rewrites requests', async () => {
  const named = new Set([...Object.keys(CAUGHT_BY_ITS_RULE), ...Object.keys(CAUGHT_IN_ORDER), ...Object.keys(OWN_RULE_NOT_IN_SAMPLE), ...Object.keys(CAUGHT_BY_OTHER_RULES), ...Object.keys(NOT_SHOWN)]);
  expect([...named].filter((id) => !FAULTS.some((fault) => fault.id === id)), 'named faults that do not exist').toEqual([]);
  const unnamed: string[] = [];
  for (const fault of FAULTS.filter((each) => !named.has(each.id))) {
    const changed = await changedAnswers(fault);
    if (changed !== undefined && changed > 0) unnamed.push(`${fault.id} (${fault.rule}) changes ${changed} of the sample's answers`);
  }
  expect(unnamed, 'name each in one of the lists above').toEqual([]);
});

for (const [id, shownBy] of Object.entries(CAUGHT_BY_ITS_RULE)) {
  const fault = faultById(id);
  test(`${id} (${shownBy}) fails ${fault.rule}, and no rule it does not break`, async () => {
    const failed = await judgedFailures(fault);
    expect(failed).toContain(fault.rule);
    const allowed = new Set([fault.rule, ...(fault.alsoBreaks ?? [])]);
    expect(failed.filter((rule) => !allowed.has(rule))).toEqual([]);
  });
}

for (const [id, shownBy] of Object.entries(CAUGHT_IN_ORDER)) {
  const fault = faultById(id);
  test(`${id} (${shownBy}) fails ${fault.rule} on one clock, and no rule it does not break; under the default skew it is not judged, and says why`, async () => {
    const entries = (await asAnsweredBy(fault))!;
    const failed = Object.keys(await judgeEntries(entries, 0));
    expect(failed).toContain(fault.rule);
    const allowed = new Set([fault.rule, ...(fault.alsoBreaks ?? [])]);
    expect(failed.filter((rule) => !allowed.has(rule))).toEqual([]);
    const skewed = await reportOf(entries);
    expect(Object.keys(failures(skewed))).not.toContain(fault.rule);
    const row = skewed.rules.find((each) => each.id === fault.rule)!;
    expect(row.verdict).toBe('skipped');
    expect(row.reason).toContain('two clocks may have put them first');
  });
}

for (const [id, why] of Object.entries(CAUGHT_BY_OTHER_RULES)) {
  const fault = faultById(id);
  test(`${id} (${why}) fails the rules its answers break`, async () => {
    expect(NEEDS[fault.rule], `${fault.rule} is a rule the judge cannot show`).toBeUndefined();
    expect(await judgedFailures(fault)).not.toEqual([]);
  });
}

for (const [id, why] of Object.entries(OWN_RULE_NOT_IN_SAMPLE)) {
  const fault = faultById(id);
  test(`${id} does not fail ${fault.rule} (${why}), but fails only rules it breaks`, async () => {
    for (const clockSkewMs of [undefined, 0]) {
      const failed = Object.keys(await judgeEntries((await asAnsweredBy(fault))!, clockSkewMs));
      expect(failed).not.toContain(fault.rule);
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.filter((rule) => !(fault.alsoBreaks ?? []).includes(rule))).toEqual([]);
    }
  });
}

for (const [id, why] of Object.entries(NOT_SHOWN)) {
  test(`${id} fails nothing: ${why}`, async () => {
    const fault = faultById(id);
    expect(await changedAnswers(fault)).toBeGreaterThan(0);
    expect(await judgedFailures(fault)).toEqual([]);
  });
}
