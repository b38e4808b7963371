/**
 * A window's Remaining countdown, whatever order its answers came in: a window that gives nothing back hands out
 * each value once, one less per admission, from below its limit. Where the values first break that, or undefined
 * when they count down; the load verdicts word it, and the window accountant asks whether a window is whole by it.
 */
export type CountdownBreak =
  | { kind: 'above-limit'; value: number }
  | { kind: 'repeated'; value: number }
  | { kind: 'skipped'; from: number; to: number };

/** `highest`: the most a value may be (the limit; limit - 1 for the answers of a window seen whole). */
export function countdownBreak(values: Iterable<number>, highest: number): CountdownBreak | undefined {
  const sorted = [...values].sort((a, b) => b - a);
  const top = sorted[0];
  if (top !== undefined && top > highest) return { kind: 'above-limit', value: top };
  for (let index = 1; index < sorted.length; index++) {
    const [before, value] = [sorted[index - 1]!, sorted[index]!];
    if (value === before) return { kind: 'repeated', value };
    if (value !== before - 1) return { kind: 'skipped', from: before, to: value };
  }
  return undefined;
}
