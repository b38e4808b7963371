/**
 * A real capture as lines the field's transformations can edit: the nginx gateway's log (the how-to's format) or
 * the recording proxy's HAR lines. Each line is read through one view, whatever its format: when it was answered and
 * how long it took, its status, key, operation and response headers, so a transformation or a planted fault is
 * written once for both.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support.ts';

export type CaptureKind = 'nginx' | 'har';

/** One exchange of a capture: its parsed line, edited in place by the transformations (each works on copies). */
export interface Line {
  entry: Record<string, unknown>;
}

export interface Capture {
  kind: CaptureKind;
  lines: Line[];
}

export function readLines(path: string): Capture {
  const lines = readFileSync(path, 'utf8').split('\n').filter((text) => text.trim() !== '').map((text) => ({ entry: JSON.parse(text) as Record<string, unknown> }));
  return { kind: path.endsWith('.log') ? 'nginx' : 'har', lines };
}

export function writeLines(capture: Capture, name = capture.kind === 'nginx' ? 'capture.log' : 'capture.har.ndjson'): string {
  const file = join(tempDir('invariance'), name);
  writeFileSync(file, `${capture.lines.map((line) => JSON.stringify(line.entry)).join('\n')}\n`);
  return file;
}

export function copyLine(line: Line): Line {
  return { entry: structuredClone(line.entry) };
}

interface HarHeader {
  name: string;
  value: string;
}
interface HarLike {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: HarHeader[] };
  response: { status: number; headers: HarHeader[]; content?: { size: number; mimeType: string; text: string } };
}
interface NginxLike {
  time: string;
  duration?: string;
  method: string;
  url: string;
  status: string;
  key: string;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
}

/** How one format reads and writes what the transformations touch. */
export interface LineView {
  /** When the answer came back, ms since the epoch. */
  answeredAt(line: Line): number;
  /** ms, undefined when the line does not say. */
  duration(line: Line): number | undefined;
  /** Moves the answer to `at`, the request's leaving where `keepSent` (a slower answer), else with it. */
  setAnsweredAt(line: Line, at: number, keepSent: boolean): void;
  dropDuration(line: Line): void;
  status(line: Line): number;
  setStatus(line: Line, status: number): void;
  /** Who the request spoke for: the key's name in a log, the Authorization in a HAR. */
  key(line: Line): string;
  path(line: Line): string;
  method(line: Line): string;
  header(line: Line, name: string): string | undefined;
  setHeader(line: Line, name: string, value: string | undefined): void;
  /** Removes what a sanitizer removes from a request: its Authorization. */
  sanitize(line: Line): void;
  /** The answer's body, undefined where the capture holds none. */
  responseBody(line: Line): string | undefined;
  /** Replaces the answer's body, where the capture holds one. */
  setBody(line: Line, text: string): void;
  /** The request's body, '' when none was sent or logged. */
  requestBody(line: Line): string;
}

const nginx: LineView = {
  answeredAt: (line) => Math.round(Number((line.entry as unknown as NginxLike).time) * 1000),
  duration: (line) => {
    const text = (line.entry as unknown as NginxLike).duration;
    return text === undefined || text === '' ? undefined : Math.round(Number(text) * 1000);
  },
  setAnsweredAt: (line, at, keepSent) => {
    const entry = line.entry as unknown as NginxLike;
    const took = nginx.duration(line);
    if (keepSent && took !== undefined) entry.duration = ((took + at - nginx.answeredAt(line)) / 1000).toFixed(3);
    entry.time = (at / 1000).toFixed(3);
  },
  dropDuration: (line) => {
    delete (line.entry as unknown as NginxLike).duration;
  },
  status: (line) => Number((line.entry as unknown as NginxLike).status),
  setStatus: (line, status) => {
    (line.entry as unknown as NginxLike).status = String(status);
  },
  key: (line) => (line.entry as unknown as NginxLike).key,
  path: (line) => (line.entry as unknown as NginxLike).url.replace(/^\/petstore\/v1/, ''),
  method: (line) => (line.entry as unknown as NginxLike).method,
  header: (line, name) => {
    const value = (line.entry as unknown as NginxLike).responseHeaders[name];
    return value === undefined || value === '' ? undefined : value;
  },
  setHeader: (line, name, value) => {
    (line.entry as unknown as NginxLike).responseHeaders[name] = value ?? '';
  },
  sanitize: (line) => {
    const headers = (line.entry as unknown as NginxLike).requestHeaders;
    if (headers.authorization !== '') headers.authorization = '<redacted>';
  },
  // The how-to's log holds no answer's body.
  responseBody: () => undefined,
  setBody: () => {},
  requestBody: (line) => String((line.entry as unknown as NginxLike & { requestBody?: string }).requestBody ?? ''),
};

function harHeader(headers: HarHeader[], name: string): HarHeader | undefined {
  return headers.find((header) => header.name.toLowerCase() === name);
}

const har: LineView = {
  answeredAt: (line) => {
    const entry = line.entry as unknown as HarLike;
    return Date.parse(entry.startedDateTime) + entry.time;
  },
  duration: (line) => (line.entry as unknown as HarLike).time,
  setAnsweredAt: (line, at, keepSent) => {
    const entry = line.entry as unknown as HarLike;
    if (keepSent) entry.time += at - har.answeredAt(line);
    else entry.startedDateTime = new Date(Date.parse(entry.startedDateTime) + at - har.answeredAt(line)).toISOString();
  },
  // A HAR entry always says how long it took.
  dropDuration: () => {},
  status: (line) => (line.entry as unknown as HarLike).response.status,
  setStatus: (line, status) => {
    (line.entry as unknown as HarLike).response.status = status;
  },
  key: (line) => harHeader((line.entry as unknown as HarLike).request.headers, 'authorization')?.value ?? '',
  path: (line) => new URL((line.entry as unknown as HarLike).request.url).pathname.replace(/^\/v1/, '') + new URL((line.entry as unknown as HarLike).request.url).search,
  method: (line) => (line.entry as unknown as HarLike).request.method,
  header: (line, name) => harHeader((line.entry as unknown as HarLike).response.headers, name)?.value,
  setHeader: (line, name, value) => {
    const response = (line.entry as unknown as HarLike).response;
    const found = harHeader(response.headers, name);
    if (value === undefined) response.headers = response.headers.filter((header) => header !== found);
    else if (found) found.value = value;
    else response.headers.push({ name, value });
  },
  sanitize: (line) => {
    const request = (line.entry as unknown as HarLike).request;
    request.headers = request.headers.filter((header) => header.name.toLowerCase() !== 'authorization');
  },
  responseBody: (line) => (line.entry as unknown as HarLike).response.content?.text,
  setBody: (line, text) => {
    const response = (line.entry as unknown as HarLike).response;
    response.content = { size: Buffer.byteLength(text), mimeType: 'application/json', text };
  },
  requestBody: (line) => (line.entry as unknown as HarLike & { request: { postData?: { text?: string } } }).request.postData?.text ?? '',
};

export function viewOf(kind: CaptureKind): LineView {
  return kind === 'nginx' ? nginx : har;
}
