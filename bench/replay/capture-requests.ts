/**
 * The requests of a capture as the benchmark's peers send them to a target: under the target's base, with
 * one key for all, and none of replay's remapping, placeholders or ordering.
 */
import { basename } from 'node:path';
import { readCapture } from '../../lib/capture/read.ts';
import { CaptureBase, operationBase } from '../../lib/capture/base.ts';
import { toRecordedExchange } from '../../harness/replay/exchange.ts';
import type { PlainRequest } from '../../lib/http/request-bytes.ts';

export async function* captureRequests(capture: string, target: string, authorization: string): AsyncGenerator<PlainRequest & { url: URL; body: string | undefined }> {
  let base: CaptureBase | undefined;
  for await (const raw of readCapture(capture)) {
    const recorded = toRecordedExchange(raw, basename(capture));
    base ??= new CaptureBase(operationBase(recorded.method, recorded.url) ?? recorded.url.origin);
    const below = base.below(recorded.url);
    if (below === undefined) continue;
    const headers: Record<string, string> = { authorization };
    if (recorded.body !== undefined) headers['content-type'] = 'application/json';
    yield { method: recorded.method, url: new URL(target + below + recorded.url.search), headers, body: recorded.body };
  }
}
