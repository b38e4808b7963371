/** What the judge reads of a HAR entry, taken from the entry JSON.parse gave: what the reader must build from its bytes. */
import { HarHeaders, addHeaderText, headerText } from '../../lib/capture/har-headers.ts';
import type { JudgedHarEntry } from '../../lib/capture/judged-fields.ts';
import { STARTED_MS_READ, startedMsOf } from '../../lib/capture/started-read-in-place.ts';

export function judgedOf(entry: Record<string, unknown>): JudgedHarEntry {
  const request = entry.request as Record<string, unknown>;
  const response = entry.response as Record<string, unknown>;
  const headers = (list: unknown): HarHeaders | undefined => {
    if (list === undefined) return undefined;
    const record: Record<string, string> = {};
    for (const { name, value } of list as Array<{ name: string; value: unknown }>) addHeaderText(record, name.toLowerCase(), headerText(value));
    return new HarHeaders(record, (list as unknown[]).length);
  };
  const pick = (part: unknown, first: string, second: string): Record<string, unknown> | undefined => {
    const record = part as Record<string, unknown> | undefined;
    return record?.[first] === undefined && record?.[second] === undefined ? undefined : { [first]: record?.[first], [second]: record?.[second] };
  };
  // A time the reading thread reads itself (started-read-in-place.ts): a string of 40 ASCII characters at most, whole milliseconds.
  const startedMs = typeof entry.startedDateTime === 'string' && /^[\x00-\x7f]{0,40}$/.test(entry.startedDateTime) ? startedMsOf(entry.startedDateTime) : undefined;
  return {
    startedDateTime: startedMs === undefined ? entry.startedDateTime : undefined,
    [STARTED_MS_READ]: startedMs,
    time: entry.time,
    request: { method: request.method, url: request.url, headers: headers(request.headers), postData: pick(request.postData, 'text', 'mimeType') as JudgedHarEntry['request']['postData'] },
    response: { status: response.status, headers: headers(response.headers), content: pick(response.content, 'text', 'encoding') as JudgedHarEntry['response']['content'], _error: response._error },
    _error: entry._error,
    _fromCache: entry._fromCache,
  };
}

/**
 * What a reading for the judge gives of an entry JSON.parse gave: a HAR entry's judged fields, any other entry whole,
 * as is a HAR entry with a header the judge refuses or reads as its text (no name that is a string, a value that is an
 * object or array), left to JSON.parse and the judge.
 */
export function readForTheJudge(entry: unknown): unknown {
  const { request, response } = entry as { request?: { headers?: unknown }; response?: { headers?: unknown } };
  if (typeof request !== 'object') return entry;
  const vouched = (list: unknown): boolean => !Array.isArray(list) || list.every((pair: { name?: unknown; value?: unknown }) => typeof pair.name === 'string' && (typeof pair.value !== 'object' || pair.value === null));
  return vouched(request.headers) && vouched(response?.headers) ? judgedOf(entry as Record<string, unknown>) : entry;
}
