/** The version in the base address, and environments of the same shape. */
import { OPERATION_IDS, operation } from '../../lib/contract.ts';
import { answer } from '../support/pets.ts';
import { rule, test } from '../support/test.ts';

test(...rule('VER-1', 'the version is the path segment /v1 of the base address, and the operations answer under it'), async ({ api, check, target }) => {
  const path = new URL(target.baseUrl).pathname;
  check.expect(/(^|\/)v1$/.test(path), `expected the base URL to end in the segment /v1, got ${target.baseUrl}`);
  const list = await api.listPets({ limit: 1 });
  check.expect(list.response.status === 200, `expected GET ${path}/pets to answer 200, got ${answer(list)}`, { evidence: list });
});

test(...rule('VER-2', 'this environment has the shape of the interface: every operation answers at its base URL'), async ({ api, check, target }) => {
  // Production and staging each pass this suite at their own base URL; this run certifies this one.
  for (const id of OPERATION_IDS) {
    const exchange = id === 'createPet' ? await api.createPet({}) : await api.operation(id, String(2n ** 63n - 5n));
    const documented = operation(id).statuses;
    check.expect(
      documented.has(exchange.response.status) && exchange.response.status !== 401,
      `expected ${id} at ${target.baseUrl} to answer a documented status other than 401, got ${answer(exchange)}`,
      { evidence: exchange },
    );
  }
});

test(...rule('VER-GAP-1', 'how later versions of the interface are introduced'), async ({ api, check }) => {
  const answers = [await api.listPets({ limit: 1 }), await api.listOrders()];
  const hints = answers.flatMap((exchange) =>
    Object.entries(exchange.response.headers)
      .filter(([name, value]) => /version/i.test(name) || (name === 'link' && /version/i.test(value)))
      .map(([name, value]) => `${exchange.operation}: ${name}: ${value}`),
  );
  check.observe(hints.length > 0 ? `version hints in responses: ${hints.join('; ')}` : 'no response names a version beyond the /v1 in its path (no version header, no version link)');
  check.gist(hints.length > 0 ? 'version hints in headers' : 'path only');
});
