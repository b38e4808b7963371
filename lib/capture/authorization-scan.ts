/**
 * Whether any entry of a HAR carries an Authorization header. A browser's export can leave the header out of
 * every entry (Chrome's default export is "sanitized": no Authorization, Cookie or Set-Cookie), and then an
 * entry without one says nothing about what was sent. Read as text, once, before the entries are judged: the
 * header's name as a HAR writes it ({"name": "Authorization", ...}) is enough, and costs a fraction of parsing.
 */
import { createReadStream } from 'node:fs';

const HEADER_NAME = /"name"\s*:\s*"authorization"/i;
/** Enough of a chunk's end to hold the pattern cut in two by the next chunk. */
const OVERLAP = 64;

export async function harCarriesAuthorization(path: string): Promise<boolean> {
  let tail = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = tail + (chunk as string);
    if (HEADER_NAME.test(text)) return true;
    tail = text.slice(-OVERLAP);
  }
  return false;
}
