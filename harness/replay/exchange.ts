/**
 * A capture entry as the replayer needs it: validated once, with the parts a browser or another tool may
 * leave out made explicit (no recorded body, no start time), and base64 bodies decoded.
 */
import { JsonBody } from '../../lib/json-body.ts';
import { CaptureInputError, type RawEntry } from '../../lib/capture/read.ts';

export interface RecordedResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** undefined when the capture holds no body text (browsers may leave it out). */
  body: string | undefined;
  /** The same body, parsed once for the id it created and the comparison. */
  json: JsonBody | undefined;
}

export interface RecordedExchange {
  /** 1-based position in the capture. */
  number: number;
  /** The entry's startedDateTime as written; read with startedMs() only when pacing needs it. */
  startedDateTime: string | undefined;
  /** How long the recorded exchange took (the entry's `time`), in milliseconds. */
  recordedMs: number | undefined;
  method: string;
  url: URL;
  /** As recorded, in order (placeholders in place of keys). */
  headers: Array<[string, string]>;
  body: string | undefined;
  /** The same body, parsed once for the ids it names and their remapping. */
  json: JsonBody | undefined;
  response: RecordedResponse;
}

interface LooseNameValue {
  name?: unknown;
  value?: unknown;
}

interface LooseEntry {
  startedDateTime?: unknown;
  time?: unknown;
  request?: { method?: unknown; url?: unknown; headers?: unknown; postData?: { text?: unknown } };
  response?: { status?: unknown; headers?: unknown; content?: { text?: unknown; encoding?: unknown } };
}

// Runs for every entry, twice per replay: so no closure is made per call.
export function toRecordedExchange({ number, entry }: RawEntry, file: string): RecordedExchange {
  const loose = entry as LooseEntry;
  const request = loose.request ?? invalid(file, number, 'has no "request"');
  const response = loose.response ?? invalid(file, number, 'has no "response"');
  if (typeof request.method !== 'string' || !/^[A-Za-z]+$/.test(request.method)) invalid(file, number, 'has no valid request.method');
  if (typeof request.url !== 'string') invalid(file, number, 'has no request.url');
  let url: URL;
  try {
    url = new URL(request.url as string);
  } catch {
    return invalid(file, number, `has a request.url that is not an absolute URL: ${JSON.stringify(String(request.url).slice(0, 80))}`);
  }
  if (typeof response.status !== 'number' || !Number.isInteger(response.status)) invalid(file, number, 'has no numeric response.status');
  const postText = request.postData?.text;
  const body = typeof postText === 'string' && postText.length > 0 ? postText : undefined;
  const responseBody = contentText(response.content);
  return {
    number,
    startedDateTime: typeof loose.startedDateTime === 'string' ? loose.startedDateTime : undefined,
    recordedMs: typeof loose.time === 'number' && loose.time >= 0 ? loose.time : undefined,
    method: (request.method as string).toUpperCase(),
    url,
    headers: nameValues(request.headers, file, number, 'request'),
    body,
    json: body === undefined ? undefined : new JsonBody(body),
    response: {
      status: response.status as number,
      headers: lowerCaseHeaders(nameValues(response.headers, file, number, 'response')),
      body: responseBody,
      json: responseBody === undefined ? undefined : new JsonBody(responseBody),
    },
  };
}

/** Milliseconds since the epoch when the exchange started; undefined when the entry has no usable startedDateTime. */
export function startedMs(recorded: Pick<RecordedExchange, 'startedDateTime'>): number | undefined {
  const started = recorded.startedDateTime === undefined ? NaN : Date.parse(recorded.startedDateTime);
  return Number.isNaN(started) ? undefined : started;
}

function invalid(file: string, number: number, what: string): never {
  throw new CaptureInputError(`${file}: entry ${number} ${what}`);
}

function nameValues(value: unknown, file: string, number: number, part: 'request' | 'response'): Array<[string, string]> {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return invalid(file, number, `has ${part}.headers that are not a list of {name, value}`);
  const pairs: Array<[string, string]> = [];
  for (const pair of value as LooseNameValue[]) {
    if (typeof pair?.name !== 'string') return invalid(file, number, `has ${part}.headers that are not a list of {name, value}`);
    pairs.push([pair.name, pair.value === undefined || pair.value === null ? '' : String(pair.value)]);
  }
  return pairs;
}

export function lowerCaseHeaders(headers: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    result[lower] = result[lower] === undefined ? value : `${result[lower]}, ${value}`;
  }
  return result;
}

function contentText(content: { text?: unknown; encoding?: unknown } | undefined): string | undefined {
  if (typeof content?.text !== 'string') return undefined;
  return content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text;
}
