import { InputError } from './input-error.ts';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, min: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?)(ms|min|s|m|h)/gy;

/** "90s", "3m", "1m30s", "500ms", "1h" as milliseconds; `what` names the setting in the error. */
export function parseDuration(text: string, what = 'duration'): number {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(trimmed)) throw new InputError(`${what} "${text}" needs a unit, e.g. ${trimmed}s, ${trimmed}m or ${trimmed}ms`);
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = PART.exec(trimmed); match; match = PART.exec(trimmed)) {
    total += Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? NaN);
    consumed = PART.lastIndex;
  }
  if (trimmed === '' || consumed !== trimmed.length || !Number.isFinite(total)) {
    throw new InputError(`${what} "${text}" is not a duration; write it like 90s, 3m, 1m30s, 500ms or 1h`);
  }
  if (total <= 0) throw new InputError(`${what} must be longer than 0, got "${text}"`);
  return Math.round(total);
}

/** A duration for people: "90 s" stays seconds below two minutes, "3 min", "1 h 5 min". */
export function describeDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Number((ms / 1_000).toPrecision(3))} s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}
