/**
 * Loaded into a Node client under test with `node --import` (certify-client puts it in NODE_OPTIONS), it does two
 * things. At every rate, it records the client's own side of each exchange with the refusing server, so that
 * whether a request crossed a 429 on the wire is read from evidence (crossing.ts): into PETSTORE_CLIENT_EVIDENCE
 * go the real time each request was written to its socket (named by the CLIENT_REQUEST_HEADER it carries; this
 * project's raw-socket client carries the time itself, the CLIENT_SENT_HEADER) and the real time each 429
 * reached the client. With --clock-rate N, it is also a fast clock:
 * Date, performance.now and every timer run PETSTORE_CLIENT_CLOCK_RATE times faster,
 * equal to the wall clock at PETSTORE_CLIENT_CLOCK_ANCHOR_MS, as the refusing server's clock does. A client
 * that waits "Retry-After: 30" then waits 30 seconds of that clock, a thirtieth of a second at rate 1000, and
 * reads an HTTP-date against a Date.now() on the server's clock. Plain JavaScript: it runs inside the client's
 * own process, which may not load TypeScript.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { subscribe } from 'node:diagnostics_channel';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

/** Real ms since the epoch, to the microsecond, read before the clock below is made fast. */
const realTimeOrigin = performance.timeOrigin;
const realPerformanceNow = performance.now.bind(performance);
const realMs = () => realTimeOrigin + realPerformanceNow();

const evidence = process.env.PETSTORE_CLIENT_EVIDENCE;
if (evidence) {
  // Names shared with harness/client-rules/crossing.ts (this file stays plain JavaScript).
  const SENT = 'x-petstore-client-sent';
  const REQUEST = 'x-petstore-client-request';
  const REFUSAL = 'x-petstore-refusal';
  const file = path.join(evidence, String(process.pid));
  const note = (what, id) => {
    try {
      appendFileSync(file, `${what} ${id} ${realMs().toFixed(3)}\n`);
    } catch {
      // The run is over, or the folder is gone: nothing to tell.
    }
  };
  // A request is named as it is made and noted as sent when it is written to its socket: a request made while
  // its pool's connections are busy waits, and may go out after a 429 its client had read meanwhile.
  let made = 0;
  const named = new WeakMap();
  const name = (request, add) => {
    const id = `${process.pid}.${++made}`;
    try {
      add(REQUEST, id);
      named.set(request, id);
    } catch {
      // Headers already sent: this request goes without, and is read by the allowance.
    }
  };
  const written = (request) => {
    const id = named.get(request);
    if (id !== undefined) note('sent', id);
  };
  // Node's http (got, axios) from 22.12 on: 'start' comes as the request gets its socket and is written.
  subscribe('http.client.request.created', ({ request }) => name(request, (header, value) => request.setHeader(header, value)));
  subscribe('http.client.request.start', ({ request }) => written(request));
  subscribe('http.client.response.finish', ({ response }) => {
    const id = response?.headers?.[REFUSAL];
    if (response?.statusCode === 429 && id !== undefined) response.once('end', () => note('received', id));
  });
  // fetch and undici (ky, undici's RetryAgent): 'sendHeaders' comes just before the request is written.
  subscribe('undici:request:create', ({ request }) => name(request, (header, value) => request.addHeader(header, value)));
  subscribe('undici:client:sendHeaders', ({ request }) => written(request));
  // This project's own raw-socket client (lib/http/client.ts: the load script, replay, the suite's bursts)
  // publishes each request as it writes it, and lets the time be put in it.
  subscribe('petstore:http-client:request', (request) => {
    const end = request.bytes.indexOf('\r\n');
    if (end > 0) request.bytes = Buffer.concat([request.bytes.subarray(0, end + 2), Buffer.from(`${SENT}: ${realMs().toFixed(3)}\r\n`), request.bytes.subarray(end + 2)]);
  });
  subscribe('petstore:http-client:response', ({ response }) => {
    const id = response?.headers?.[REFUSAL];
    if (response?.status === 429 && id !== undefined) note('received', id);
  });
  // A 429 has reached the client once its answer is complete (trailers: after the body), as the application sees it.
  const refusals = new WeakMap();
  subscribe('undici:request:headers', ({ request, response }) => {
    if (response?.statusCode !== 429) return;
    const headers = response.headers ?? [];
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === REFUSAL) refusals.set(request, String(headers[i + 1]));
  });
  subscribe('undici:request:trailers', ({ request }) => {
    const id = refusals.get(request);
    if (id !== undefined) note('received', id);
  });
}

const rate = Number(process.env.PETSTORE_CLIENT_CLOCK_RATE ?? '1');
const anchor = Number(process.env.PETSTORE_CLIENT_CLOCK_ANCHOR_MS ?? String(Date.now()));

if (rate > 0 && Number.isFinite(rate) && rate !== 1 && Number.isFinite(anchor)) {
  // certify-client traces each connection to its process, to know the client's clock followed (clock-followers.ts).
  const followers = process.env.PETSTORE_CLIENT_CLOCK_PIDS;
  if (followers) {
    try {
      writeFileSync(path.join(followers, String(process.pid)), '');
    } catch {
      // The run is over, or the folder is gone: nothing to tell.
    }
  }
  const require = createRequire(import.meta.url);
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const now = () => Math.floor(anchor + (realNow() - anchor) * rate);
  const scaled = (ms) => (typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms / rate : ms);

  class FastDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = FastDate;

  performance.now = () => realPerformanceNow() * rate;

  const timers = require('node:timers');
  const { setTimeout: realSetTimeout, setInterval: realSetInterval } = timers;
  const fastSetTimeout = (callback, ms, ...args) => realSetTimeout(callback, scaled(ms), ...args);
  const fastSetInterval = (callback, ms, ...args) => realSetInterval(callback, scaled(ms), ...args);
  globalThis.setTimeout = fastSetTimeout;
  globalThis.setInterval = fastSetInterval;
  timers.setTimeout = fastSetTimeout;
  timers.setInterval = fastSetInterval;

  const promises = require('node:timers/promises');
  const realDelay = promises.setTimeout;
  promises.setTimeout = (ms, value, options) => realDelay(scaled(ms), value, options);
  const realWait = promises.scheduler.wait.bind(promises.scheduler);
  promises.scheduler.wait = (ms, options) => realWait(scaled(ms), options);

  const realTimeout = AbortSignal.timeout.bind(AbortSignal);
  AbortSignal.timeout = (ms) => realTimeout(scaled(ms));

  syncBuiltinESMExports();
}
