/** The store-orders area: it exists and is secured like every operation; its shapes and markers are gaps. */
import { answer, show } from '../support/pets.ts';
import { rule, test } from '../support/test.ts';

test(...rule('ORD-1', 'GET /store/orders exists: with a valid key it answers a documented status, not 404 or 405'), async ({ api, check }) => {
  const orders = await api.listOrders();
  check.expect(orders.response.status === 200, `expected 200 from GET /store/orders with a valid key, got ${answer(orders)}`, { evidence: orders });
});

test(...rule('ORD-GAP-1', 'the request and response shapes of the store-orders area'), async ({ api, check }) => {
  const orders = await api.listOrders();
  const body = orders.json;
  const shape = Array.isArray(body) ? `an array of ${body.length} item${body.length === 1 ? '' : 's'}${body.length > 0 ? `, such as ${show(body[0])}` : ''}` : show(body);
  check.observe(`GET /store/orders answered ${orders.response.status} with ${shape}`);
  check.gist(`${orders.response.status} ${Array.isArray(body) ? 'array' : body === null || typeof body !== 'object' ? 'no object' : 'object'}`);
});

const STANDARD = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'transfer-encoding', 'vary', 'etag', 'server']);

test(...rule('ORD-GAP-2', "how an endpoint's stability marker (experimental or beta) reaches a client"), async ({ api, check }) => {
  const orders = await api.listOrders();
  const extra = Object.entries(orders.response.headers).filter(([name]) => !STANDARD.has(name));
  const marked = extra.filter(([, value]) => /experimental|beta/i.test(value));
  check.observe(
    marked.length > 0
      ? `GET /store/orders carries ${marked.map(([name, value]) => `${name}: ${value}`).join('; ')}`
      : `no header of GET /store/orders names a stability (other headers: ${extra.map(([name]) => name).join(', ') || 'none'})`,
  );
  check.gist(marked.length > 0 ? marked.map(([name, value]) => `${name}: ${value.slice(0, 30)}`).join('; ') : 'no marker');
});
