/**
 * The parts of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) that the recorder writes and the
 * replayer reads. Browser devtools and Playwright add fields of their own (prefixed with `_`); they are kept
 * when read and never required.
 */
export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostData {
  mimeType: string;
  text?: string;
  params?: HarNameValue[];
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
}

export interface HarContent {
  size: number;
  mimeType: string;
  text?: string;
  /** "base64" when `text` holds binary content, as browsers write it. */
  encoding?: string;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

export interface HarTimings {
  send: number;
  wait: number;
  receive: number;
}

export interface HarEntry {
  startedDateTime: string;
  /** Milliseconds from the first byte sent to the last byte received. */
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: HarTimings;
  comment?: string;
}

export interface HarCreator {
  name: string;
  version: string;
}

export const HAR_VERSION = '1.2';
