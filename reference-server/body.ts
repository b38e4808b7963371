/** Reading a request body with a size limit, so a large or endless body costs no more than the limit. */
import type { IncomingMessage } from 'node:http';

export type BodyResult = { kind: 'body'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult): void => {
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) finish({ kind: 'too-large' });
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish({ kind: 'body', bytes: Buffer.concat(chunks, size) });
    const onAbort = (): void => finish({ kind: 'aborted' });
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
  });
}
