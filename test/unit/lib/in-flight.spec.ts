/** How many requests were in flight together, from their send and answer times. */
import { expect, test } from '@playwright/test';
import { peakInFlight } from '../../../lib/in-flight.ts';

const interval = (sentAt: number, receivedAt: number) => ({ sentAt, receivedAt });

test('requests all sent before the first of them was answered were in flight together; one sent as another was answered was not with it', () => {
  expect(peakInFlight([])).toBe(0);
  expect(peakInFlight([interval(0, 5)])).toBe(1);
  // One at a time: each sent as (or after) the one before was answered.
  expect(peakInFlight([interval(0, 5), interval(5, 9), interval(9, 12)])).toBe(1);
  // Sent together, answered one after the other (a server that queues them): all three were in flight at 1.
  expect(peakInFlight([interval(0, 5), interval(1, 9), interval(1, 12)])).toBe(3);
  // Two overlapping pairs that never overlap each other.
  expect(peakInFlight([interval(0, 4), interval(2, 6), interval(7, 10), interval(8, 12)])).toBe(2);
  // Answered in the same millisecond it was sent, while another was out: both were in flight.
  expect(peakInFlight([interval(0, 10), interval(5, 5)])).toBe(2);
  // A request answered before another was sent is not counted with it, whatever their order in the list.
  expect(peakInFlight([interval(6, 20), interval(0, 10), interval(12, 14)])).toBe(2);
});
