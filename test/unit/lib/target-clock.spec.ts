/**
 * Where a fast clock's day falls: placed at the start of a UTC day when a run begins, its next midnight is a whole
 * day of the clock away whatever the hour of the wall clock, so a run's daily tests never meet it by chance.
 */
import { expect, test } from '@playwright/test';
import { anchorAtDayStart, anchorReading, targetClock } from '../../../lib/target-clock.ts';

const DAY_MS = 86_400_000;

test('at every hour of the wall clock, a clock placed at the start of a day reads a midnight now and the next one a day of it later', () => {
  for (const rate of [60, 120, 240]) {
    for (const hour of [0, 1, 12, 22, 23.99]) {
      const realMs = Date.UTC(2026, 10, 27) + hour * 3_600_000;
      const clock = targetClock(rate, anchorAtDayStart(rate, realMs));
      const startsAt = clock.at(realMs);
      const nextMidnight = (Math.floor(startsAt / DAY_MS) + 1) * DAY_MS;
      expect(clock.toRealMs(nextMidnight - startsAt), `rate ${rate} at ${hour} h: real time to the clock's next midnight`).toBeGreaterThan(DAY_MS / rate - 1_000);
      expect(startsAt, 'ahead of the wall clock, as a fast clock soon is').toBeGreaterThanOrEqual(realMs);
    }
  }
});

test('a clock can be placed to read any instant at any real one, and at rate 1 it is the wall clock', () => {
  const realMs = Date.UTC(2026, 10, 27, 23, 0);
  const midnight = Date.UTC(2026, 10, 28);
  const placed = targetClock(120, anchorReading(120, realMs, midnight)).at(realMs);
  expect(placed).toBeGreaterThanOrEqual(midnight);
  expect(placed).toBeLessThan(midnight + 120);
  expect(targetClock(1, anchorReading(1, realMs, midnight)).at(realMs)).toBe(realMs);
});
