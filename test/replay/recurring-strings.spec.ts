import { expect, test } from '@playwright/test';
import { RecurringStrings } from '../../lib/capture/recurring-strings.ts';

test('a string read again from other bytes is the same text, and strings that share a place in the table or differ by a byte are each their own', () => {
  const strings = new RecurringStrings();
  const texts = Array.from({ length: 20_000 }, (_, n) => `x-ratelimit-${n % 5_000}`);
  texts.push('a'.repeat(97), 'ab', 'ba', 'content-type', 'content-typf', '');
  const wrong: string[] = [];
  for (const text of [...texts, ...texts.reverse()]) {
    const bytes = Buffer.from(` "${text}" `, 'latin1');
    const read = strings.of(bytes, 2, 2 + text.length);
    if (read !== text) wrong.push(`${text} read as ${read}`);
  }
  expect(wrong).toEqual([]);
  expect(strings.of(Buffer.from('content-type'), 0, 12)).toBe(strings.of(Buffer.from('xcontent-type'), 1, 13));
});
