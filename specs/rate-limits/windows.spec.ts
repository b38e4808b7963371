/**
 * What one request or a pair of plans shows: higher plans get more, the standard RateLimit fields, an Enterprise
 * key's quota. The rules a minute window's measurement shows (RL-3, RL-6, RL-7, RL-GAP-1) are judged from the
 * shared measurement in minute-limits.spec.ts.
 */
import { plans, type PlanId } from '../../lib/plans.ts';
import { readRateLimit } from '../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from '../support/client.ts';
import { freshWindow, measuringRequest, sendAtOnce } from '../support/minute-window.ts';
import { answer } from '../support/pets.ts';
import type { RuleJudge } from '../support/judge.ts';
import { rule, test, type KeyLeasing, type Target } from '../support/test.ts';
import { isAdmitted, readingOf, windowKind, type WindowKind } from '../support/window-analysis.ts';
import { compareStandardFields } from '../../lib/rate-limiter/standard-fields.ts';
import { cheapestPlan, count, DOCUMENTED_PLANS, maxWindowWaitMs, quotaOf } from '../support/plan-quotas.ts';

function cheapest(target: Target): PlanId {
  const plan = cheapestPlan(target.keys);
  if (typeof plan === 'object') test.skip(true, plan.skip);
  return plan as PlanId;
}

test(...rule('RL-GAP-3', 'whether the standard RateLimit and RateLimit-Policy fields are sent too, and agree with X-RateLimit-*'), async ({ keys, check, target }) => {
  const exchange = await measuringRequest(await keys.common(cheapest(target)));
  const report = compareStandardFields(exchange.response.headers, exchange.receivedAt);
  if (report.absent) {
    check.observe('the target sends no RateLimit or RateLimit-Policy field (draft-ietf-httpapi-ratelimit-headers), only X-RateLimit-*');
    return check.gist('not sent');
  }
  const agreement = report.disagreements.length === 0 ? 'they agree with X-RateLimit-*' : `they disagree with X-RateLimit-*: ${report.disagreements.join('; ')}`;
  check.observe(`${report.said}; ${agreement}`);
  check.gist(report.disagreements.length === 0 ? 'sent, agreeing with X-RateLimit-*' : 'sent, disagreeing with X-RateLimit-*');
});

test(...rule('RL-8', 'a higher plan gets higher limits: Free below Pro below Business'), async ({ keys, check, target }, testInfo) => {
  const given = DOCUMENTED_PLANS.filter((plan) => target.keys[plan].length > 0);
  test.skip(given.length < 2, 'set keys of at least two of PETSTORE_API_KEY_FREE, PETSTORE_API_KEY_PRO, PETSTORE_API_KEY_BUSINESS to run this');
  const limits: Array<{ plan: PlanId; limit: number | undefined; kind: WindowKind }> = [];
  for (const plan of given) {
    const reading = readingOf(await (await keys.common(plan)).listPets({ limit: 1 }));
    limits.push({ plan, limit: reading.limit, kind: windowKind(reading, quotaOf(plan)) });
  }
  const maxWaitMs = maxWindowWaitMs(testInfo.timeout, target.clock);
  // One measuring client a plan: a plan compared twice (Pro with Free, then with Business) keeps its key's lease.
  const measuring = new Map<PlanId, Promise<PetStoreClient>>();
  const clientOf = (plan: PlanId): Promise<PetStoreClient> => measuring.get(plan) ?? measuring.set(plan, keys.measuring(plan)).get(plan)!;
  for (let index = 1; index < limits.length; index++) {
    const [lower, higher] = [limits[index - 1]!, limits[index]!];
    if (lower.limit !== undefined && higher.limit !== undefined && lower.kind === higher.kind && lower.kind !== 'neither') {
      check.expect(
        lower.limit < higher.limit,
        `expected a ${plans[higher.plan].name} key's X-RateLimit-Limit above a ${plans[lower.plan].name} key's (${lower.limit}), got ${higher.limit}`,
      );
    } else {
      await compareByCount(lower.plan, higher.plan, { clientOf, alone: keys.alone, check, maxWaitMs });
    }
  }
  check.judgedWhole();
});

/**
 * Two plans whose headers name no documented window of the same kind are compared by what they admit: the lower
 * plan's key must be limited at all, and the higher plan's key must admit more than the lower plan's minute quota
 * in one fresh window.
 */
async function compareByCount(
  lower: PlanId,
  higher: PlanId,
  { clientOf, alone, check, maxWaitMs }: { clientOf: (plan: PlanId) => Promise<PetStoreClient>; alone: KeyLeasing['alone']; check: RuleJudge; maxWaitMs: number },
): Promise<void> {
  const [lowerName, higherName] = [plans[lower].name, plans[higher].name];
  const lowerFresh = await freshWindow(await clientOf(lower), { quota: quotaOf(lower), maxWaitMs });
  if ('unavailable' in lowerFresh) return check.unchecked(`${lowerName} below ${higherName}: ${lowerFresh.unavailable}`);
  if ('unlimited' in lowerFresh) {
    check.expect(false, `expected a ${lowerName} key limited below a ${higherName} key: ${lowerFresh.unlimited.message}`, { evidence: lowerFresh.unlimited.evidence });
    return;
  }
  const client = await clientOf(higher);
  const admits = quotaOf(lower).perMinute + 1;
  const higherFresh = await freshWindow(client, { quota: quotaOf(higher), maxWaitMs });
  if ('unavailable' in higherFresh) return check.unchecked(`${lowerName} below ${higherName}: ${higherFresh.unavailable}`);
  if ('unlimited' in higherFresh) return;
  const burst = await alone(() => sendAtOnce(client, admits - 1));
  const refused = burst.find((exchange) => !isAdmitted(readingOf(exchange)));
  if (refused === undefined) return;
  check.expect(
    false,
    `expected a ${higherName} key admitted more than a ${lowerName} key's ${count(admits - 1)} requests in one fresh minute window, got ${answer(refused)} after ${count(1 + burst.indexOf(refused))}`,
    { evidence: refused },
  );
}

test(...rule('PLAN-ENTERPRISE', 'the quotas of an Enterprise key'), async ({ keys, check, target }) => {
  test.skip(target.keys.enterprise.length === 0, 'set PETSTORE_API_KEY_ENTERPRISE to run this');
  const exchange = await (await keys.common('enterprise')).listPets({ limit: 1 });
  const headers = readRateLimit(exchange.response.headers);
  check.observe(
    headers
      ? `an Enterprise key is limited to ${count(headers.limit)} requests per window (Remaining ${count(headers.remaining)}, Reset in ${headers.reset - Math.floor(target.clock.now() / 1000)} s)`
      : 'an Enterprise key carried no readable X-RateLimit-* headers',
  );
  check.gist(headers ? `${count(headers.limit)} per window` : 'no readable headers');
});

