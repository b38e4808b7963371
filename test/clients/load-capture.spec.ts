/**
 * The done-when of the client rules in the field: the load harness drives the reference server with both of
 * its behaviours at once, through the recording proxy; the capture, judged, names the naive key's client for
 * ERR-3 and ERR-4 and never the compliant one's (harness/load/client-behaviour.ts).
 */
import { expect, test } from '@playwright/test';
import { overLimit } from '../load/support/run.ts';
import { judged, recordLoad } from '../judge/support.ts';

test('ERR-3 ERR-4 a load run with a naive and a compliant key, recorded and judged, names the naive key\'s client only', async () => {
  test.setTimeout(60_000);
  const capture = await recordLoad({
    timeScale: 10,
    durationMs: 6_000,
    keys: [
      { plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: overLimit(1.5) },
      { plan: 'pro', keyNumber: 1, behaviour: 'naive', rate: overLimit(1.2) },
    ],
  });
  const report = await judged(capture);
  for (const rule of ['ERR-3', 'ERR-4']) {
    const row = report.rules.find((candidate) => candidate.id === rule);
    expect(row?.verdict, rule).toBe('warn');
    const said = [...(row?.warnings ?? []), ...(row?.observations ?? [])].map((note) => note.text).join('\n');
    expect(said, rule).toMatch(new RegExp(`client of key pro-1 broke ${rule}: `));
    expect(row?.warnings.map((note) => note.text).join('\n'), rule).not.toContain('free-1');
    expect(said, rule).not.toContain('client of key free-1');
    expect(row?.evidence.length, rule).toBeGreaterThan(0);
  }
});
