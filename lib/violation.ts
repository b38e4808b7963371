/** A rule an answer broke, and how: what every response check returns (a leaf, so the checks and their caches import it alike). */
export interface Violation {
  rule: string;
  message: string;
}

/** A check's one possible violation as a list: none, or it. */
export function listed(violation: Violation | undefined): Violation[] {
  return violation === undefined ? [] : [violation];
}
