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
  return canonicalTimeMs(text) ?? writtenTimeMs(text);
}

/** The date of the latest canonical time read (yyyymmdd), and the start of its day: a capture's times come in order. */
let latestDate = -1;
let latestDateMs = NaN;

/**
 * A time as HAR tools and JavaScript write it (`toISOString`: 2026-10-31T23:59:59.997Z), read digit by digit: the
 * regular expression, the text joined again and Date.parse cost a judge of millions of entries a tenth of turning
 * each into an exchange. The day's start is Date.parse's own, so a day it reads oddly (30 February) is read the
 * same; a time of day beyond 23:59:59 is left to it. Undefined for any other form.
 */
function canonicalTimeMs(text: string): number | undefined {
  if (text.length !== 24 || text.charCodeAt(10) !== T || text.charCodeAt(23) !== Z || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON || text.charCodeAt(19) !== DOT) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hours = digitsAt(text, 11, 2);
  const minutes = digitsAt(text, 14, 2);
  const seconds = digitsAt(text, 17, 2);
  const ms = digitsAt(text, 20, 3);
  if (year < 0 || month < 0 || day < 0 || hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59 || ms < 0) return undefined;
  const date = year * 10_000 + month * 100 + day;
  if (date !== latestDate) {
    const dayMs = Date.parse(`${text.slice(0, 10)}T00:00:00Z`);
    if (Number.isNaN(dayMs)) return undefined;
    latestDate = date;
    latestDateMs = dayMs;
  }
  return latestDateMs + ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms;
}

const T = 0x54;
const Z = 0x5a;
const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const ZERO = 0x30;

/** The whole number written by `count` digits from `from`; -1 where one is not a digit. */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let at = from; at < from + count; at++) {
    const digit = text.charCodeAt(at) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

function writtenTimeMs(text: string): number {
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
