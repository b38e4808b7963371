import { expect, test } from '@playwright/test';
import { NOT_HELD, RecurringBytes, RecurringStrings } from '../../lib/capture/recurring-strings.ts';

test('a text placed again is read as written, and texts that share a place or differ by a byte are each their own', () => {
  const placing = new RecurringBytes();
  const strings = new RecurringStrings();
  const texts = Array.from({ length: 20_000 }, (_, n) => `x-ratelimit-${n % 5_000}`);
  texts.push('ab', 'ba', 'content-type', 'content-typf', '', 'Content-Type');
  const wrong: string[] = [];
  for (const text of [...texts, ...texts.reverse()]) {
    const bytes = Buffer.from(` "${text}" `, 'latin1');
    const place = placing.place(bytes, 2, 2 + text.length);
    const read = placing.placedAfresh ? strings.placed(place, bytes, 2, 2 + text.length) : strings.at(place);
    if (read !== text) wrong.push(`${text} read as ${read}`);
    if (strings.lowerCaseAt(place) !== text.toLowerCase()) wrong.push(`${text} in lower case read as ${strings.lowerCaseAt(place)}`);
  }
  expect(wrong).toEqual([]);
  placing.place(Buffer.from('xcontent-type'), 1, 13);
  expect(placing.placedAfresh, 'a text held already, from other bytes').toBe(false);
});

test('a text longer than the table holds is not placed', () => {
  const placing = new RecurringBytes();
  expect(placing.place(Buffer.from('a'.repeat(97)), 0, 97)).toBe(NOT_HELD);
  expect(placing.place(Buffer.from('a'.repeat(96)), 0, 96)).not.toBe(NOT_HELD);
});
