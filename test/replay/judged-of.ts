/** What the judge reads of a HAR entry, taken from the entry JSON.parse gave: what the reader must build from its bytes. */
import type { JudgedHarEntry } from '../../lib/capture/judged-fields.ts';

export function judgedOf(entry: Record<string, unknown>): JudgedHarEntry {
  const request = entry.request as Record<string, unknown>;
  const response = entry.response as Record<string, unknown>;
  const pairs = (list: unknown): Array<{ name: unknown; value: unknown }> | undefined => (list as Array<{ name: unknown; value: unknown }> | undefined)?.map(({ name, value }) => ({ name, value }));
  const pick = (part: unknown, first: string, second: string): Record<string, unknown> | undefined => {
    const record = part as Record<string, unknown> | undefined;
    return record?.[first] === undefined && record?.[second] === undefined ? undefined : { [first]: record?.[first], [second]: record?.[second] };
  };
  return {
    startedDateTime: entry.startedDateTime,
    time: entry.time,
    request: { method: request.method, url: request.url, headers: pairs(request.headers), postData: pick(request.postData, 'text', 'mimeType') as JudgedHarEntry['request']['postData'] },
    response: { status: response.status, headers: pairs(response.headers), content: pick(response.content, 'text', 'encoding') as JudgedHarEntry['response']['content'], _error: response._error },
    _error: entry._error,
    _fromCache: entry._fromCache,
  };
}
