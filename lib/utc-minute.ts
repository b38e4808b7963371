/** "2026-11-22 14:03 UTC" from an ISO timestamp: to the minute, one zone for every reader; a text that is no date stays as it is. */
export function utcMinute(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
