/** A rule an answer broke, and how: what every response check returns (a leaf, so the checks and their caches import it alike). */
export interface Violation {
  rule: string;
  message: string;
}
