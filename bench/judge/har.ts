/**
 * The judge's benchmark capture as one HAR 1.2 document, what a peer that reads only HAR (Redocly's `drift`)
 * can be given too: each line of the NDJSON capture (capture.ts) as a HAR entry, a key sent as the recorder
 * writes it (its placeholder, `Bearer $PETSTORE_API_KEY_PRO#3`), the URL under a base URL ending in /v1.
 * The same arguments give the same file.
 */
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { planPlaceholder } from '../../lib/capture/credentials.ts';
import { CaptureWriter } from '../../lib/capture/write.ts';
import type { HarEntry } from '../../lib/capture/types.ts';
import { countLines } from '../replay/capture.ts';
import { ensureJudgeCapture } from './capture.ts';

export const HAR_BASE_URL = 'http://127.0.0.1:8080/v1';

interface Line {
  time: string;
  duration: string;
  key: string;
  method: string;
  url: string;
  status: number;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

export async function ensureJudgeHar(path: string, exchanges: number, keys: number, log: (line: string) => void): Promise<void> {
  const lines = path.replace(/\.har$/, '.ndjson');
  await ensureJudgeCapture(lines, exchanges, keys, log);
  if (existsSync(path) && existsSync(`${path}.count`) && (await countLines(`${path}.count`)) === exchanges) {
    log(`using ${path}`);
    return;
  }
  log(`writing ${path} ...`);
  const partial = `${path}.partial`;
  const writer = await CaptureWriter.open(partial, { name: 'petstore-conformance bench', version: '1' });
  for await (const text of createInterface({ input: createReadStream(lines), crlfDelay: Infinity })) {
    if (text !== '') writer.write(harEntry(JSON.parse(text) as Line) as HarEntry);
  }
  await writer.close();
  renameSync(partial, path);
  const count = createWriteStream(`${path}.count`);
  count.end('\n'.repeat(exchanges));
  await once(count, 'finish');
}

function harEntry(line: Line): object {
  const answeredMs = Number(line.time) * 1000;
  const tookMs = Number(line.duration) * 1000;
  const ordinal = Number(line.key.replace(/^pro-/, ''));
  const headers = (record: Record<string, string>): Array<{ name: string; value: string }> => Object.entries(record).map(([name, value]) => ({ name, value }));
  const requestHeaders = { ...line.requestHeaders, authorization: `Bearer ${planPlaceholder('pro', ordinal)}` };
  return {
    startedDateTime: new Date(answeredMs - tookMs).toISOString(),
    time: tookMs,
    request: {
      method: line.method,
      url: `${HAR_BASE_URL}${line.url.replace(/^\/v1/, '')}`,
      httpVersion: 'HTTP/1.1',
      headers: headers(requestHeaders),
      queryString: [...new URL(line.url, HAR_BASE_URL).searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: line.requestBody?.length ?? 0,
      ...(line.requestBody ? { postData: { mimeType: 'application/json', text: line.requestBody } } : {}),
    },
    response: {
      status: line.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: headers(line.responseHeaders),
      cookies: [],
      content: { size: line.responseBody.length, mimeType: 'application/json', text: line.responseBody },
      redirectURL: '',
      headersSize: -1,
      bodySize: line.responseBody.length,
    },
    cache: {},
    timings: { send: 0, wait: tookMs, receive: 0 },
  };
}
