/** `--clock-skew S` of every command that judges traffic (judge, record --judge): the same default and bounds. */
import { FlagError } from './vocabulary.ts';

export const DEFAULT_CLOCK_SKEW_SECONDS = 1;
const MAX_CLOCK_SKEW_SECONDS = 3600;

/** The flag's seconds as milliseconds; a FlagError naming the flag for anything but 0 to 3600 seconds. */
export function clockSkewMs(text: string | undefined): number {
  const seconds = text ?? String(DEFAULT_CLOCK_SKEW_SECONDS);
  if (!/^\d+(\.\d+)?$/.test(seconds) || Number(seconds) > MAX_CLOCK_SKEW_SECONDS) throw new FlagError(`--clock-skew must be a number of seconds from 0 to ${MAX_CLOCK_SKEW_SECONDS}, not "${seconds}"`);
  return Number(seconds) * 1000;
}
