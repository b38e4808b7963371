/**
 * The largest and smallest of many numbers, as Math.max and Math.min give them (-Infinity and Infinity for
 * none). Math.max(...values) passes every value as an argument, and a long load run has more answers in one
 * window (about 120,000 at Enterprise rates) than a call has room for.
 */
export function largest(values: Iterable<number>): number {
  let result = -Infinity;
  for (const value of values) result = Math.max(result, value);
  return result;
}

export function smallest(values: Iterable<number>): number {
  let result = Infinity;
  for (const value of values) result = Math.min(result, value);
  return result;
}
