import { hash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import { REPEATS_WITHIN_MS, RepeatedLines } from '../../harness/judge/repeated-lines.ts';
import { entry, tempDir, writeHar } from '../replay/support.ts';

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
  const taken = (line: string): Buffer => hash('sha1', Buffer.from(line, 'utf8'), 'buffer');
  const lines = new RepeatedLines();
  expect(lines.repeats(LINE, 0)).toBe(false);
  expect(lines.fingerprintRepeats(taken(LINE), 0, 1)).toBe(true);
  const other = LINE.replace('"41"', '"40 é"');
  expect(lines.fingerprintRepeats(taken(other), 0, 2)).toBe(false);
  expect(lines.repeats(other, 3)).toBe(true);
  expect(lines.fingerprintRepeats(taken(LINE.replace('"41"', '"39"')), 0, 4)).toBe(false);
  expect(lines.dropped).toBe(2);
});

test('in a HAR read on a worker thread, an entry written again within the span is dropped once and counted; one written again out of reach is judged again', async () => {
  const dir = tempDir('repeated-har');
  const start = Date.UTC(2026, 10, 28, 3);
  const pets = (minute: number, id: number) => entry({ url: `http://127.0.0.1:8080/v1/pets/${id}`, status: 200, responseBody: `{"id":${id},"name":"Rex","status":"available"}`, startedMs: start + minute * 60_000 });
  const judgeHar = (entries: unknown[]) => judgeCapture(writeHar(dir, `${entries.length}.har`, entries), { env: {}, clockSkewMs: 1_000, harInWorkerFrom: 0, run: { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' } });

  const within = [pets(0, 1), pets(1, 2), pets(0, 1), pets(14, 3), pets(1, 2)];
  const judged = await judgeHar(within);
  expect(judged.repeatsDropped).toBe(2);
  expect(judged.exchanges).toBe(3);
  expect(judged.report.target.url).toContain('2 lines that repeated ones already read counted once');

  const outOfReach = [pets(0, 1), pets(1, 2), pets(17, 3), pets(1, 2)];
  const judgedOutOfReach = await judgeHar(outOfReach);
  expect(judgedOutOfReach.repeatsDropped).toBe(0);
  expect(judgedOutOfReach.exchanges).toBe(4);
  expect(judgedOutOfReach.report.target.url).not.toContain('repeated');
});
