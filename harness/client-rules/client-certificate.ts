/**
 * A client's run against the refusing server, judged: the client rules as the judge judges any capture
 * (harness/judge/client-rule-judge.ts), plus what the client did at each case of the plan, as the conformance
 * report the suite and the judge write, with only the client rules in it. The verdict is the client's: its rules are
 * SHOULD, so a breach warns, and fails only when asked (--fail-on should); a rule the run never put to the
 * test leaves the client not certified.
 */
import { MEASURE_SLACK_MS } from '../../lib/rate-limiter/retry-after.ts';
import { catalogue } from '../../lib/rules.ts';
import { buildReport, type ConformanceReport, type RunState } from '../../lib/verdicts/model.ts';
import { recordOf } from '../judge/report.ts';
import { RuleTallies } from '../judge/rule-tally.ts';
import { CLIENT_RULES, type ClientRule } from '../judge/client-exchange.ts';
import { ClientRuleJudge, count, seconds, type RefusedRequest } from '../judge/client-rule-judge.ts';
import { PLANNED, SCENARIO_TEXT, type Scenario } from './refusal-plan.ts';
import { refusalWaits } from './refusal-waits.ts';
import { exchangesByKey, type RecordedExchange } from './refusing-server.ts';
import { CLIENT_ENV_NAMES, type ClientRun } from './run-client.ts';

export interface CertificateOptions {
  /** As the report names the client: its command. */
  command: string;
  seed: number;
  failOnShould: boolean;
  timeoutMs: number;
  facts: { suiteVersion: string; rulesHash: string; gitCommit: string };
}

/**
 * How long, in real time, a request may leave after a 429 and still have been on its way before its client had
 * the 429, where neither the connection nor the client's own clock tells (a request from a process that did not
 * load fast-clock.mjs, on another connection than the 429's): a loaded client's event loop reads its socket late.
 * Each request sent within a 429's wait is shown in the report with the reading that judged it.
 */
export const CROSSING_REAL_MS = 40;

const [WAITS, BACKS_OFF] = CLIENT_RULES;
const RULE_OF: Readonly<Record<Scenario, ClientRule>> = {
  'delta-seconds': WAITS,
  'http-date': WAITS,
  zero: WAITS,
  long: WAITS,
  consecutive: BACKS_OFF,
  ban: BACKS_OFF,
  'still-refused': WAITS,
};

export function clientCertificate(run: ClientRun, options: CertificateOptions): ConformanceReport {
  const tallies = new RuleTallies();
  // Every wait of a client on the real clock would look clockRate times longer than it was: nothing is judged.
  const clockLost = run.clockFollowed === 'not-followed' && run.exchanges.length > 0;
  let refused: readonly RefusedRequest[] = [];
  if (!clockLost) {
    // One clock for both ends (the server's): no skew between them. A fast clock stretches the time a request may
    // cross a 429 (the client's event loop, in real milliseconds) as much as it shortens the waits.
    const judge = new ClientRuleJudge(tallies, 0, Math.max(MEASURE_SLACK_MS, CROSSING_REAL_MS * run.clockRate), true);
    for (const exchange of run.exchanges) judge.add(exchange);
    judge.finish();
    refused = judge.refused;
  }
  const byKey = exchangesByKey(run.exchanges);
  const reached = new Set<Scenario>();
  const byRefusal = new Map<number, RefusedRequest[]>();
  for (const request of refused) {
    const list = byRefusal.get(request.refusal);
    if (list) list.push(request);
    else byRefusal.set(request.refusal, [request]);
  }
  for (const [key, exchanges] of byKey) for (const scenario of describeRefusals(tallies, key, exchanges, byRefusal)) reached.add(scenario);
  // A case is put to the test once any key met it: a client that uses one key of the three is judged whole.
  for (const scenario of PLANNED.filter((planned) => !reached.has(planned))) {
    const sent = [...byKey].map(([key, exchanges]) => `${count(exchanges.length, 'request')} on key ${key}`).join(', ');
    tallies.unchecked(RULE_OF[scenario], `the client's run ended before the plan's ${SCENARIO_TEXT[scenario]} on every key (it sent ${sent || 'nothing'})`);
  }
  const file = 'certify-client';
  const records = CLIENT_RULES.map((rule) => recordOf(rule, tallies, file)).map((record) => (clockLost ? { ...record, skipReason: `not judged: ${clockNotFollowed(run.clockRate)}` } : record));
  const clientCatalogue = { ...catalogue, rules: catalogue.rules.filter((rule) => (CLIENT_RULES as readonly string[]).includes(rule.id)) };
  const report = buildReport(
    records,
    clientCatalogue,
    {
      targetUrl: `client \`${options.command}\` against the refusing server (seed ${options.seed}${run.clockRate === 1 ? '' : `, clock ${run.clockRate} times faster`})`,
      bundled: true,
      readOnly: false,
      quotaTests: false,
      specVersion: catalogue.specVersion,
      ...options.facts,
    },
    { status: run.timedOut ? 'timedout' : 'passed', startedAt: run.startedAt.toISOString(), durationMs: run.durationMs, generatedAt: new Date().toISOString() },
  );
  report.verdict = clientVerdict(report, run, options, clockLost);
  if (!clockLost) report.clientWaits = refusalWaits(byKey);
  return report;
}

/**
 * What the client did after every 429 of one key (the plan's cases, "still refused" answers and bans alike),
 * beside the rule its case is about, each followed by the requests sent within its wait and the reading that
 * judged each; returns the cases the key met.
 */
function describeRefusals(tallies: RuleTallies, key: string, exchanges: readonly RecordedExchange[], byRefusal: ReadonlyMap<number, readonly RefusedRequest[]>): Set<Scenario> {
  const met = new Set<Scenario>();
  for (const [index, refusal] of exchanges.entries()) {
    const scenario = refusal.scenario;
    if (refusal.status !== 429 || scenario === undefined) continue;
    met.add(scenario);
    const rule = RULE_OF[scenario];
    const next = exchanges.slice(index + 1).find((exchange) => (exchange.sentAt ?? exchange.answeredAt) > refusal.answeredAt);
    const asked = `Retry-After ${refusal.retryAfter ?? 'absent'}`;
    const then = next === undefined ? 'the client sent nothing more on this key' : `next request ${seconds((next.sentAt ?? next.answeredAt) - refusal.answeredAt)} later (exchange ${next.number}, ${next.status})`;
    tallies.noted(rule, `key ${key}, ${SCENARIO_TEXT[scenario]} (exchange ${refusal.number}, ${asked}): ${then}`);
    for (const request of byRefusal.get(refusal.number) ?? []) tallies.noted(rule, `  exchange ${request.number} (${request.method} ${request.path}) sent ${seconds(request.afterMs)} after it, within its wait: ${readingText(request)}`);
  }
  return met;
}

/** How a request sent while refused was read, and what it counted for. */
function readingText(request: RefusedRequest): string {
  const by = { connection: 'the connection that carried the 429', 'client clock': "the client's own clock", allowance: 'the allowance, nothing else told' }[request.reading];
  if (!request.held) return `on its way before the 429 reached the client (by ${by}), not held to it`;
  return `left after the 429 reached the client (by ${by})${request.earlyAgainst === undefined ? '' : `, early (ERR-3, against the 429 of exchange ${request.earlyAgainst})`}`;
}

/** The requests that carried none of the keys the client was given, and what the first carried instead. */
function strayText(run: ClientRun): string {
  return `${count(run.strays.requests, 'request')} came without one of the keys the client was given (the first: ${run.strays.first ?? 'unknown'})`;
}

/** The one line that says why the exit code is what it is. */
function failOnLine(warned: readonly string[], failOnShould: boolean): string {
  const rules = warned.join(' and ');
  return failOnShould
    ? `Exit code 1: ${rules} ${warned.length === 1 ? 'is a SHOULD rule' : 'are SHOULD rules'}, and --fail-on should fails the run on a broken SHOULD rule.`
    : `Exit code 0: ${rules} ${warned.length === 1 ? 'is a SHOULD rule' : 'are SHOULD rules'}, and without --fail-on should (the default is must) a broken SHOULD rule warns; pass --fail-on should to fail the run on it.`;
}

function clockNotFollowed(rate: number): string {
  return `the client's requests came from a process whose clock did not run ${rate} times faster (--clock-rate ${rate} speeds up Node processes only, through NODE_OPTIONS), so its waits cannot be told; run it at --clock-rate 1`;
}

function clientVerdict(report: ConformanceReport, run: ClientRun, options: CertificateOptions, clockLost: boolean): ConformanceReport['verdict'] {
  const warned = report.rules.filter((row) => row.verdict === 'warn').map((row) => row.id);
  const notJudged = report.rules.filter((row) => row.verdict === 'skipped' || row.verdict === 'not-run');
  const notes: string[] = [];
  if (run.timedOut) notes.push(`The client's run was stopped at the timeout (${Math.round(options.timeoutMs / 1000)} s); it is judged on what it sent until then.`);
  if (run.strays.requests > 0 && run.exchanges.length > 0) notes.push(`${strayText(run)}: answered, not judged.`);
  if (run.clockFollowed === 'unknown' && run.exchanges.length > 0) notes.push(`Run at --clock-rate ${run.clockRate}: a process of the client loaded the fast clock, but which process sent the requests could not be traced (no /proc here, or each connection closed before its answer); a client that is not a Node process must be run at --clock-rate 1.`);
  if (run.exitCode !== null && run.exitCode !== 0) notes.push(`The client exited with code ${run.exitCode}: that is the client's own verdict, not this one.`);
  let state: RunState;
  let headline: string;
  if (warned.length > 0) notes.push(failOnLine(warned, options.failOnShould));
  if (warned.length > 0 && options.failOnShould) {
    state = 'not-conforming';
    headline = `Client fails: it breaks ${warned.join(' and ')}, SHOULD rules, failed as --fail-on should asks`;
  } else if (clockLost) {
    state = 'incomplete';
    headline = `Not certified: ${clockNotFollowed(run.clockRate)}`;
  } else if (notJudged.length > 0) {
    state = 'incomplete';
    headline = run.exchanges.length === 0
      ? run.strays.requests === 0
        ? `Not certified: the client sent no request to the server it was given (its address is in ${CLIENT_ENV_NAMES.baseUrl.join(', ')}: is the client configured from one of them?)`
        : `Not certified: none of the client's ${count(run.strays.requests, 'request')} carried one of the keys it was given (the first: ${run.strays.first ?? 'unknown'}); send \`Authorization: Bearer <key>\` with a key from PETSTORE_API_KEY or PETSTORE_API_KEY_<PLAN>`
      : `Not certified: ${notJudged.map((row) => row.id).join(' and ')} not judged (the client met no refusal it could be judged on)`;
  } else {
    state = 'conforming';
    headline = warned.length > 0
      ? `Client breaks ${warned.join(' and ')}, SHOULD rules: warned, not failed (--fail-on should fails on them)`
      : 'Client rules hold: ERR-3 and ERR-4, as far as the client went through the plan';
  }
  return {
    state,
    conforming: state === 'conforming',
    headline,
    failedMust: [],
    skippedMust: [],
    partlyCheckedMust: [],
    partiallySkipped: [],
    warnedShould: warned,
    notes,
  };
}
