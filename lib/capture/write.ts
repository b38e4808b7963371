/**
 * Writes a capture entry by entry, so a recording of any length costs the memory of one exchange and a
 * recording cut short by a signal still closes into a valid document.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { captureFormat, type CaptureFormat } from './read.ts';
import { HAR_VERSION, type HarCreator, type HarEntry } from './types.ts';

/** Headers and query parameters one per line keep a committed capture short and its diffs readable. */
const NAME_VALUE_PAIR = /\{\n\s*"name": ("(?:[^"\\]|\\.)*"),\n\s*"value": ("(?:[^"\\]|\\.)*")\n\s*\}/g;

export class CaptureWriter {
  private written = 0;
  private closed = false;

  private constructor(
    private readonly stream: WriteStream,
    private readonly format: CaptureFormat,
  ) {}

  static async open(path: string, creator: HarCreator): Promise<CaptureWriter> {
    mkdirSync(dirname(path), { recursive: true });
    const stream = createWriteStream(path, { encoding: 'utf8' });
    await Promise.race([once(stream, 'open'), once(stream, 'error').then(([error]) => Promise.reject(error as Error))]);
    const format = captureFormat(path);
    if (format === 'har') stream.write(`{\n  "log": {\n    "version": ${JSON.stringify(HAR_VERSION)},\n    "creator": ${JSON.stringify(creator)},\n    "entries": [`);
    return new CaptureWriter(stream, format);
  }

  get count(): number {
    return this.written;
  }

  write(entry: HarEntry): void {
    if (this.closed) return;
    if (this.format === 'ndjson') {
      this.stream.write(`${JSON.stringify(entry)}\n`);
    } else {
      const text = JSON.stringify(entry, null, 2).replace(NAME_VALUE_PAIR, '{ "name": $1, "value": $2 }').replace(/\n/g, '\n      ');
      this.stream.write(`${this.written === 0 ? '' : ','}\n      ${text}`);
    }
    this.written++;
  }

  /** Ends the document and waits until it is on disk. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.format === 'har') this.stream.write(`${this.written === 0 ? '' : '\n    '}]\n  }\n}\n`);
    this.stream.end();
    await once(this.stream, 'finish');
  }
}
