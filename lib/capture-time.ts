/**
 * A capture's time as milliseconds since the epoch, read the same on every machine: an ISO 8601 date and time
 * without an offset ("2026-05-01T12:00:00.250", as some loggers write it) is taken as UTC, never as the judging
 * machine's local time, which would move every answer against the Reset the target sent in Unix seconds.
 */
const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

export function captureTimeMs(text: string): number {
  const trimmed = text.trim();
  return Date.parse(WITHOUT_OFFSET.test(trimmed) ? `${trimmed.replace(' ', 'T')}Z` : trimmed);
}
