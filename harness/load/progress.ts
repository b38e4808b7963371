/**
 * Progress while a run lasts, on stderr: one line rewritten in place on a terminal, a plain line every few
 * seconds otherwise (CI logs), so that stdout keeps only the summary.
 */
import { describeDuration } from './duration.ts';
import type { Progress } from './runner.ts';

export interface ProgressSink {
  update(progress: Progress): void;
  /** Clears the live line before other output. */
  done(): void;
  /** How often the runner should report. */
  intervalMs: number;
}

export function progressSink(stream: NodeJS.WriteStream, durationMs: number, redact: (text: string) => string): ProgressSink {
  if (stream.isTTY) {
    let shown = false;
    return {
      intervalMs: 250,
      update(progress) {
        const line = redact(progressLine(progress)).slice(0, Math.max(20, (stream.columns || 120) - 1));
        stream.write(`\r\x1b[2K${line}`);
        shown = true;
      },
      done() {
        if (shown) stream.write('\r\x1b[2K');
        shown = false;
      },
    };
  }
  const every = Math.min(30_000, Math.max(2_000, Math.round(durationMs / 10 / 1000) * 1000));
  return {
    intervalMs: every,
    update(progress) {
      stream.write(`${redact(progressLine(progress))}\n`);
    },
    done() {},
  };
}

export function progressLine(progress: Progress): string {
  const totals = progress.keys.reduce(
    (sum, key) => ({
      admitted: sum.admitted + key.admitted,
      refused: sum.refused + key.refused,
      errors: sum.errors + key.errors,
      windows: sum.windows + key.windows,
      over: sum.over + key.windowsOverLimit,
    }),
    { admitted: 0, refused: 0, errors: 0, windows: 0, over: 0 },
  );
  const waiting = progress.keys.filter((key) => key.waiting).map((key) => key.label);
  const elapsed = describeDuration(progress.elapsedMs);
  const left = describeDuration(Math.max(0, progress.durationMs - progress.elapsedMs));
  const windows = `${totals.windows} window${totals.windows === 1 ? '' : 's'}`;
  const quota = totals.over > 0 ? `QUOTA BROKEN in ${totals.over} of ${windows}` : `${windows}, none over quota`;
  return [
    `${elapsed} elapsed, ${left} left`,
    `${Math.round(progress.currentRate).toLocaleString('en-US')} req/s`,
    `admitted ${totals.admitted.toLocaleString('en-US')}, 429 ${totals.refused.toLocaleString('en-US')}, errors ${totals.errors.toLocaleString('en-US')}`,
    quota,
    ...(waiting.length ? [`waiting out 429: ${waiting.join(', ')}`] : []),
  ].join(' · ');
}
