import type { CaptureFormat } from '../../lib/capture/read.ts';

/** .ndjson, .jsonl and .log hold one exchange per line (a gateway's access log is a .log); anything else is HAR. */
export function judgeFormat(path: string): CaptureFormat {
  return /\.(ndjson|jsonl|log)$/i.test(path) ? 'ndjson' : 'har';
}
