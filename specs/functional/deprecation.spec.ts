/**
 * getPet is deprecated, not removed: it keeps working until 5 December 2030, and any deprecation headers are
 * right. Deprecation is signalled per operation: no other operation says it is deprecated.
 */
import { RULE } from '../../lib/checks/registry.ts';
import { OPERATION_IDS, operation } from '../../lib/contract.ts';
import { parseHttpDate } from '../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from '../support/client.ts';
import type { Exchange } from '../support/exchange.ts';
import { parseLinkHeader } from '../support/link-header.ts';
import { answer, existingPet, idOf } from '../support/pets.ts';
import { rule, test } from '../support/test.ts';

const SUNSET_DAY = operation('getPet').sunset ?? '2030-12-05';
const SUNSET_MS = Date.parse(`${SUNSET_DAY}T00:00:00Z`);
const DEPRECATION = /^@(-?\d+)$/;

/** getPet answers for an existing pet and for a missing one: headers are checked on both. */
async function getPetAnswers(api: PetStoreClient, readOnly: boolean): Promise<Exchange[]> {
  const id = idOf(await existingPet(api, readOnly));
  const answers = id === undefined ? [] : [await api.getPet(id)];
  answers.push(await api.getPet(String(2n ** 63n - 11n)));
  return answers;
}

test(...rule('DEP-1', `getPet is deprecated, not removed: it keeps working until its removal date, ${SUNSET_DAY}`), async ({ api, check, target }) => {
  test.skip(Date.now() >= SUNSET_MS, `the removal date ${SUNSET_DAY} has passed: getPet may be gone`);
  const id = idOf(await existingPet(api, target.settings.readOnly));
  if (!check.expect(id !== undefined, 'expected a pet to look up: creating one (or listing one in a read-only run) gave none', { rule: RULE['created-as-sent'] })) return;
  const found = await api.getPet(id!);
  check.expect(found.response.status === 200, `expected getPet to answer 200 for pet ${id} before ${SUNSET_DAY}, got ${answer(found)}`, { evidence: found });
});

test(...rule('DEP-2', `a Sunset header, when sent on getPet, is an HTTP-date on ${SUNSET_DAY}`), async ({ api, check, target }) => {
  for (const exchange of await getPetAnswers(api, target.settings.readOnly)) {
    const sunset = exchange.response.headers.sunset;
    if (sunset === undefined) continue;
    const at = parseHttpDate(sunset);
    if (!check.expect(at !== undefined, `expected Sunset to be an HTTP-date (RFC 8594), got "${sunset}"`, { evidence: exchange })) continue;
    const day = new Date(at!).toISOString().slice(0, 10);
    check.expect(day === SUNSET_DAY, `expected Sunset on ${SUNSET_DAY}, got "${sunset}" (${day})`, { evidence: exchange });
  }
  // Only the deprecation headers are read: an undocumented status or Content-Type of the same answer is another rule's.
  check.judgedWhole();
});

test(...rule('DEP-3', 'a Deprecation header, when sent, is an RFC 9745 date (@ and Unix seconds) not after the sunset'), async ({ api, check, target }) => {
  for (const exchange of await getPetAnswers(api, target.settings.readOnly)) {
    const deprecation = exchange.response.headers.deprecation;
    if (deprecation === undefined) continue;
    const match = DEPRECATION.exec(deprecation.trim());
    if (!check.expect(match !== null, `expected Deprecation as @<Unix seconds> (RFC 9745), got "${deprecation}"`, { evidence: exchange })) continue;
    const at = Number(match![1]) * 1000;
    check.expect(at <= SUNSET_MS, `expected the Deprecation date ${new Date(at).toISOString()} not after the sunset ${SUNSET_DAY}`, { evidence: exchange });
  }
  // Only the deprecation headers are read: an undocumented status or Content-Type of the same answer is another rule's.
  check.judgedWhole();
});

test(...rule('DEP-4', 'a Link header, when sent on getPet, is well formed and its successor-version is GET /pets'), async ({ api, check, target }) => {
  const listPath = `${new URL(target.baseUrl).pathname}/pets`;
  for (const exchange of await getPetAnswers(api, target.settings.readOnly)) {
    const link = exchange.response.headers.link;
    if (link === undefined) continue;
    const parsed = parseLinkHeader(link);
    if (!check.expect('links' in parsed, `expected a well-formed Link header (RFC 8288), got "${link}": ${'problem' in parsed ? parsed.problem : ''}`, { evidence: exchange })) continue;
    if (!('links' in parsed)) continue;
    for (const successor of parsed.links.filter((item) => (item.params.rel ?? '').toLowerCase().split(/\s+/).includes('successor-version'))) {
      const resolved = new URL(successor.target, exchange.request.url);
      check.expect(resolved.pathname === listPath, `expected rel="successor-version" to point at ${listPath} (GET /pets), got <${successor.target}>`, { evidence: exchange });
    }
  }
  // Only the deprecation headers are read: an undocumented status or Content-Type of the same answer is another rule's.
  check.judgedWhole();
});

/** Link relations that say the link's context is deprecated (RFC 9745) or goes away (RFC 8594). */
const DEPRECATING_RELATIONS = ['deprecation', 'sunset'];

/** The deprecation signals an answer carries: its Deprecation and Sunset headers, and Links of a deprecating relation. */
function deprecationSignals(exchange: Exchange): string[] {
  const { headers } = exchange.response;
  const signals = ['deprecation', 'sunset'].filter((name) => headers[name] !== undefined).map((name) => `${name}: ${headers[name]}`);
  const parsed = headers.link === undefined ? undefined : parseLinkHeader(headers.link);
  for (const link of parsed && 'links' in parsed ? parsed.links : []) {
    const relations = (link.params.rel ?? '').toLowerCase().split(/\s+/);
    if (relations.some((relation) => DEPRECATING_RELATIONS.includes(relation))) signals.push(`link: <${link.target}>; rel="${link.params.rel}"`);
  }
  return signals;
}

const NOT_DEPRECATED = OPERATION_IDS.filter((id) => !operation(id).deprecated);

test(...rule('VER-3', `deprecation is signalled per operation: ${NOT_DEPRECATED.join(', ')} carry no Deprecation, Sunset or deprecation Link`), async ({ api, check }) => {
  for (const id of NOT_DEPRECATED) {
    // createPet with an empty body: a 400 that creates nothing, so read-only runs check it too.
    const exchange = id === 'createPet' ? await api.createPet({}) : await api.operation(id, String(2n ** 63n - 5n));
    const signals = deprecationSignals(exchange);
    check.expect(
      signals.length === 0,
      `expected no deprecation signal on ${id}, which the interface does not deprecate (only getPet is), got ${signals.join('; ')} on its ${exchange.response.status}`,
      { evidence: exchange },
    );
  }
  // Only the deprecation headers are read: an undocumented status or Content-Type of the same answer is another rule's.
  check.judgedWhole();
});

test(...rule('DEP-GAP-1', "whether and how getPet's responses signal the deprecation"), async ({ api, check, target }) => {
  const signals = new Set<string>();
  for (const exchange of await getPetAnswers(api, target.settings.readOnly)) {
    const headers = ['deprecation', 'sunset', 'link', 'warning'].filter((name) => exchange.response.headers[name] !== undefined);
    for (const name of headers) signals.add(name);
    check.observe(
      `getPet ${exchange.response.status} carries ${headers.length > 0 ? headers.map((name) => `${name}: ${exchange.response.headers[name]}`).join('; ') : 'no deprecation header'}`,
    );
  }
  check.gist(signals.size > 0 ? [...signals].join(' + ') : 'no deprecation header');
});
