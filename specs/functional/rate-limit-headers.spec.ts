/** The X-RateLimit-* headers on every kind of answer, and the limit they state per plan. */
import { PLAN_IDS, plans } from '../../lib/plans.ts';
import { existingPet, idOf, newPet } from '../support/pets.ts';
import { rule, test } from '../support/test.ts';

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

test(...rule('RL-4', 'X-RateLimit-Limit, -Remaining and -Reset are present on 200, 201, 400, 401 and 404 responses'), async ({ api, anonymous, check, target }) => {
  const answers = [await api.listPets({ limit: 1 }), await api.createPet({}), await api.getPet(String(2n ** 63n - 9n)), await anonymous.listPets()];
  if (!target.settings.readOnly) answers.push(await api.createPet(newPet()));
  const id = idOf(await existingPet(api, target.settings.readOnly));
  if (id !== undefined) answers.push(await api.getPet(id));
  for (const exchange of answers) {
    const missing = HEADERS.filter((name) => exchange.response.headers[name] === undefined);
    check.expect(missing.length === 0, `expected ${HEADERS.join(', ')} on ${exchange.operation} ${exchange.response.status}, missing ${missing.join(', ')}`, { evidence: exchange });
  }
  // Presence reads no header's value: a wrong Limit or Reset elsewhere leaves this verdict standing.
  check.judgedWhole();
});

for (const plan of PLAN_IDS.filter((id) => plans[id].documented)) {
  const { perMinute, perDay } = plans[plan].documented!;
  test(...rule('RL-5', `X-RateLimit-Limit for a ${plans[plan].name} key is its per-minute (${perMinute}) or per-day (${perDay}) quota`), async ({ keys, check }) => {
    const client = await keys.common(plan);
    const exchange = await client.listPets({ limit: 1 });
    const limit = exchange.response.headers['x-ratelimit-limit'];
    check.expect(limit === String(perMinute) || limit === String(perDay), `expected X-RateLimit-Limit ${perMinute} or ${perDay} for a ${plans[plan].name} key, got ${limit ?? 'none'}`, { evidence: exchange });
    check.judgedWhole();
  });
}
