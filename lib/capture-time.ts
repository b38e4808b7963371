/**
 * A capture's time as milliseconds since the epoch, read the same on every machine: an ISO 8601 date and time
 * without an offset ("2026-05-01T12:00:00.250", as some loggers write it) is taken as UTC, never as the judging
 * machine's local time, which would move every answer against the Reset the target sent in Unix seconds.
 *
 * Only ISO 8601 is read (a space for the T, a comma for the decimal point, an offset of +hh, +hhmm or +hh:mm
 * allowed, as the standard and common loggers write it). Anything else is NaN, for the caller to refuse:
 * JavaScript's own parser also takes "2026/05/01 12:00:00" or "May 1 2026 12:00" and reads them in the judging
 * machine's zone, so the same log would fail a correct target's Resets in one zone and pass them in another.
 */
const ISO_8601 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) ?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

export function captureTimeMs(text: string): number {
  const parts = ISO_8601.exec(text.trim());
  if (!parts) return NaN;
  const [, date, time, offset] = parts as unknown as [string, string, string, string | undefined];
  return Date.parse(`${date}T${time.replace(',', '.')}${offsetOf(offset)}`);
}

/** The offset as Date.parse reads it without doubt: Z, or +hh:mm. */
function offsetOf(offset: string | undefined): string {
  if (offset === undefined || offset.toUpperCase() === 'Z') return 'Z';
  const digits = offset.slice(1).replace(':', '');
  return `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2) || '00'}`;
}
