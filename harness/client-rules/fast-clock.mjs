/**
 * A fast clock for a Node client under test, loaded with `node --import` (certify-client --clock-rate N puts
 * it in NODE_OPTIONS): Date, performance.now and every timer run PETSTORE_CLIENT_CLOCK_RATE times faster,
 * equal to the wall clock at PETSTORE_CLIENT_CLOCK_ANCHOR_MS, as the refusing server's clock does. A client
 * that waits "Retry-After: 30" then waits 30 seconds of that clock, a thirtieth of a second at rate 1000, and
 * reads an HTTP-date against a Date.now() on the server's clock. Plain JavaScript: it runs inside the client's
 * own process, which may not load TypeScript.
 */
import { writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

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

  const realPerformanceNow = performance.now.bind(performance);
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
