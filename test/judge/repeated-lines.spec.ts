import { hash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { REPEATS_WITHIN_MS, RepeatedLines } from '../../harness/judge/repeated-lines.ts';

const LINE = '{"time":"2026-11-28T03:00:00.000Z","request":"GET /pets","status":200,"remaining":"41"}';

test('a line shipped again with a CRLF ending, or padded, is the same line: dropped once, counted once', () => {
  const lines = new RepeatedLines();
  expect(lines.repeats(LINE, 0)).toBe(false);
  expect(lines.repeats(`${LINE}\r`, 10)).toBe(true);
  expect(lines.repeats(`  ${LINE}\t`, 20)).toBe(true);
  expect(lines.dropped).toBe(2);
});

test('a line that differs inside is another exchange, and a repeat past the span is no longer known', () => {
  const lines = new RepeatedLines();
  expect(lines.repeats(LINE, 0)).toBe(false);
  expect(lines.repeats(LINE.replace('"41"', '"40"'), 1)).toBe(false);
  expect(lines.repeats(LINE.replace('"41"', '"39"'), REPEATS_WITHIN_MS + 5)).toBe(false);
  expect(lines.repeats(LINE, REPEATS_WITHIN_MS + 6)).toBe(false);
  expect(lines.dropped).toBe(0);
});

test("a line is known again by the fingerprint a HAR's reader took of its bytes, as by its text, either way round", () => {
  const taken = (line: string): string => hash('sha1', Buffer.from(line, 'utf8'), 'base64');
  const lines = new RepeatedLines();
  expect(lines.repeats(LINE, 0)).toBe(false);
  expect(lines.fingerprintRepeats(taken(LINE), 1)).toBe(true);
  const other = LINE.replace('"41"', '"40 é"');
  expect(lines.fingerprintRepeats(taken(other), 2)).toBe(false);
  expect(lines.repeats(other, 3)).toBe(true);
  expect(lines.fingerprintRepeats(taken(LINE.replace('"41"', '"39"')), 4)).toBe(false);
  expect(lines.dropped).toBe(2);
});
