import { expect, test } from '@playwright/test';
import { NOT_HELD, RecurringBytes, RecurringStrings } from '../../lib/capture/recurring-strings.ts';

test('a text placed again is read as written, and texts that share a place or differ by a byte are each their own', () => {
  const placing = new RecurringBytes();
  const strings = new RecurringStrings();
  const texts = Array.from({ length: 20_000 }, (_, n) => (n % 2 === 0 ? `x-ratelimit-${n % 5_000}` : `[{"id":${n % 5_000},"name":"a pet to make it longer than the short texts","status":"available"}]`));
  texts.push('ab', 'ba', 'content-type', 'content-typf', '', 'Content-Type');
  const wrong: string[] = [];
  for (const text of [...texts, ...texts.reverse()]) {
    const bytes = Buffer.from(` "${text}" `, 'latin1');
    const place = placing.place(bytes, 2, 2 + text.length);
    if (placing.placedAfresh) strings.keep(place, bytes.toString('latin1', 2, 2 + text.length));
    const read = strings.at(place);
    if (read !== text) wrong.push(`${text} read as ${read}`);
    if (strings.lowerCaseAt(place) !== text.toLowerCase()) wrong.push(`${text} in lower case read as ${strings.lowerCaseAt(place)}`);
  }
  expect(wrong).toEqual([]);
  placing.place(Buffer.from('content-type'), 0, 12);
  placing.place(Buffer.from('xcontent-type'), 1, 13);
  expect(placing.placedAfresh, 'a text held already, from other bytes').toBe(false);
});

test('a text longer than the table holds is not placed; a short one and a longer one each have their place', () => {
  const placing = new RecurringBytes();
  expect(placing.place(Buffer.from('a'.repeat(513)), 0, 513)).toBe(NOT_HELD);
  const places = [1, 96, 97, 512].map((length) => placing.place(Buffer.from('a'.repeat(length)), 0, length));
  expect(places).not.toContain(NOT_HELD);
  expect(new Set(places).size).toBe(places.length);
});

test('a text keeps its place while one other text of its pair comes and goes; a third pushes out the one met less lately', () => {
  const probe = new RecurringBytes();
  const pairOf = (text: string): number => probe.place(Buffer.from(text), 0, text.length) & ~1;
  const byPair = new Map<number, string[]>();
  let texts: string[] | undefined;
  for (let n = 0; !texts; n++) {
    const text = `x-request-id-${n}`;
    const sharing = byPair.get(pairOf(text)) ?? [];
    byPair.set(pairOf(text), [...sharing, text]);
    if (sharing.length === 2) texts = [...sharing, text];
  }
  const [first, second, third] = texts as [string, string, string];
  const placing = new RecurringBytes();
  const placedAfresh = (text: string): boolean => {
    placing.place(Buffer.from(text), 0, text.length);
    return placing.placedAfresh;
  };
  expect([first, second, first, second, first].map(placedAfresh)).toEqual([true, true, false, false, false]);
  expect([third, first, second].map(placedAfresh), 'the third takes the place of the second, met less lately').toEqual([true, false, true]);
});

test('entries built out of turn are refused, not read with another entry\'s strings', () => {
  const strings = new RecurringStrings();
  strings.inTurn(1);
  strings.inTurn(2);
  expect(() => strings.inTurn(4)).toThrow(/HAR entry 4 built out of turn \(entry 3 is next\)/);
  expect(() => strings.inTurn(2)).toThrow(/HAR entry 2 built out of turn/);
});
