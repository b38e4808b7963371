import type { CheckName } from '../../lib/checks/registry.ts';

/** What a key's answers showed that no order and no rounding the capture allows explains. */
export interface Contradiction {
  /** The check it breaks (lib/checks/registry.ts); for minute-max the caller names the plan's rule. */
  check: Extract<CheckName, 'minute-max' | 'reset-stable' | 'remaining-steps' | 'refusal-says-left'>;
  message: string;
  /** The exchanges that prove it, by their position in the capture. */
  exchanges: number[];
}
