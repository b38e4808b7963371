/**
 * A window's Remaining countdown, whatever order its answers came in: a window that gives nothing back hands out
 * each value once, one less per admission, from below its limit. Where the values first break that, or undefined
 * when they count down, and that break in words (countdownWords): the suite's burst, the load verdicts and the
 * window accountant (whether a window is whole) all judge a countdown by it.
 */
export type CountdownBreak =
  | { kind: 'above-limit'; value: number }
  | { kind: 'repeated'; value: number; times: number }
  | { kind: 'skipped'; from: number; to: number };

/** `highest`: the most a value may be (the limit; limit - 1 for the answers of a window seen whole). */
export function countdownBreak(values: Iterable<number>, highest: number): CountdownBreak | undefined {
  const sorted = [...values].sort((a, b) => b - a);
  const top = sorted[0];
  if (top !== undefined && top > highest) return { kind: 'above-limit', value: top };
  for (let index = 1; index < sorted.length; index++) {
    const [before, value] = [sorted[index - 1]!, sorted[index]!];
    if (value === before) return { kind: 'repeated', value, times: sorted.filter((other) => other === value).length };
    if (value !== before - 1) return { kind: 'skipped', from: before, to: value };
  }
  return undefined;
}

/**
 * What breaks a countdown of `values` (in any order) from `highest` down, in words, or undefined when it steps by
 * one. `highestIs`: what bounds the values, as a reader knows it (the limit, the probe's Remaining).
 */
export function countdownWords(values: Iterable<number>, highest: number, highestIs = `the limit ${highest}`): string | undefined {
  const broken = countdownBreak(values, highest);
  if (broken === undefined) return undefined;
  if (broken.kind === 'above-limit') return `${broken.value} is above ${highestIs}`;
  if (broken.kind === 'skipped') return `it jumped from ${broken.from} to ${broken.to}`;
  return `${broken.value} came ${broken.times === 2 ? 'twice' : `${broken.times} times`}`;
}
