/**
 * Splits a HAR document, fed in chunks of any size, into the JSON text of each element of `log.entries`,
 * without ever holding the whole document: a capture of a million exchanges (or a browser HAR full of
 * base64 images) is read in constant memory, one entry at a time. Everything outside the entries
 * (creator, pages, browser, ...) is checked for balance and skipped.
 *
 * It reads the file's bytes, not decoded text: JSON's structure is ASCII and no byte of a UTF-8 sequence
 * beyond ASCII is an ASCII byte, so only each entry's own bytes are decoded, once (decoding the whole file
 * first cost more than scanning it).
 */
export class HarFormatError extends Error {
  override name = 'HarFormatError';
}

type Container = 'root' | 'log' | 'other';

interface ObjectFrame {
  kind: 'object';
  container: Container;
  /** expecting a key (or the end), a colon, a value, or a comma (or the end) */
  expect: 'key-or-end' | 'key' | 'colon' | 'value' | 'comma-or-end';
  key: string;
}

interface EntriesFrame {
  kind: 'entries';
  expect: 'element-or-end' | 'element' | 'comma-or-end';
}

type Frame = ObjectFrame | EntriesFrame;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const PRIMITIVE = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

const QUOTE_BYTES = Uint8Array.of(QUOTE);
const OPEN_BRACE_BYTES = Uint8Array.of(OPEN_BRACE);

function isWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/** A byte of a literal (true, false, null) or a number: letters, digits, _, -, + and '.'. */
function isPrimitivePart(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45 || code === 43 || code === 46;
}

const decoder = new TextDecoder();
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

function copied(chunk: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(chunk.subarray(start, end));
}

/** Pieces of one value's bytes as text (a UTF-8 sequence cut by a chunk's end is joined before decoding). */
function decoded(pieces: readonly Uint8Array[]): string {
  if (pieces.length === 1) return decoder.decode(pieces[0]);
  return Buffer.concat(pieces).toString('utf8');
}

/**
 * Walks an entry that starts in a chunk (at its '{') in a pass of its own: the index past the entry's end, or -1 where
 * the entry does not end in the chunk or is left to the scanner, which then walks it as any other.
 */
export type EntryWalker = (chunk: Uint8Array, start: number) => number;

export class HarEntryScanner {
  private readonly frames: Frame[] = [];
  private started = false;
  private finished = false;
  private sawLog = false;
  private sawEntries = false;
  private position = 0;
  /** How many bytes of a byte order mark the file started with. */
  private byteOrderMarkBytes = 0;
  private entryCount = 0;

  /** A pass over each entry that finds its end while doing more (judged-field-index.ts), in place of the scanner's. */
  private readonly walker: EntryWalker | undefined;

  // Not a parameter property: the reading thread loads this file with Node's own type stripping, which has none.
  constructor(walker?: EntryWalker) {
    this.walker = walker;
  }

  /** A value being captured (an entry) or skipped (anything else), tracked by depth and string state. */
  private value: { keep: boolean; depth: number; inString: boolean; escape: boolean; pieces: Uint8Array[] } | undefined;
  /** A key string or a primitive value being read across chunks. */
  private token: { type: 'key' | 'primitive' | 'string'; pieces: Uint8Array[]; escape: boolean } | undefined;

  /** How many entries have been returned so far. */
  get entries(): number {
    return this.entryCount;
  }

  /** Feeds the next chunk of the file's bytes; returns the JSON texts of the entries it completed. */
  push(chunk: Uint8Array): string[] {
    return this.pushBytes(chunk).map(decoded);
  }

  /**
   * Feeds the next chunk of the file's bytes; returns the UTF-8 bytes of the entries it completed, each as the pieces
   * it came in (one, unless it straddled chunks). A piece may be a view of `chunk`: use it before the next push.
   */
  pushBytes(chunk: Uint8Array): Uint8Array[][] {
    const out: Uint8Array[][] = [];
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.value) {
        i = this.continueValue(chunk, i, out);
        continue;
      }
      if (this.token) {
        i = this.continueToken(chunk, i);
        continue;
      }
      const code = chunk[i] as number;
      if (isWhitespace(code) || this.inByteOrderMark(code)) {
        i++;
        this.position++;
        continue;
      }
      const end = code === OPEN_BRACE ? this.walked(chunk, i) : -1;
      if (end !== -1) {
        this.entryCount++;
        out.push([chunk.subarray(i, end)]);
        this.position += end - i;
        i = end;
        continue;
      }
      this.structural(code);
      i++;
      this.position++;
    }
    return out;
  }

  /** Where an entry that starts at chunk[start] ends, where the walker found it; -1 elsewhere. */
  private walked(chunk: Uint8Array, start: number): number {
    const frame = this.frames.at(-1);
    if (!this.walker || frame?.kind !== 'entries' || frame.expect === 'comma-or-end') return -1;
    const end = this.walker(chunk, start);
    if (end !== -1) frame.expect = 'comma-or-end';
    return end;
  }

  /** A byte of the UTF-8 byte order mark some tools write before a HAR, at its start: JSON's RFC lets a reader ignore it. */
  private inByteOrderMark(code: number): boolean {
    if (this.position !== this.byteOrderMarkBytes || code !== BYTE_ORDER_MARK[this.position]) return false;
    this.byteOrderMarkBytes++;
    return true;
  }

  /** Checks that the document ended where it should; call after the last chunk. */
  end(): void {
    if (!this.started) throw new HarFormatError('the file is empty; expected a HAR document ({"log": {"entries": [...]}})');
    if (!this.finished) {
      const where = this.frames.some((frame) => frame.kind === 'entries') ? ` inside log.entries (after entry ${this.entryCount})` : '';
      throw new HarFormatError(`the file ends before the HAR document does${where}: is it truncated?`);
    }
    if (!this.sawLog) throw new HarFormatError('the document has no "log" object, so it is not a HAR');
    if (!this.sawEntries) throw new HarFormatError('"log" has no "entries" array, so it is not a HAR');
  }

  private fail(message: string): never {
    throw new HarFormatError(`${message} at byte ${this.position + 1}`);
  }

  private structural(code: number): void {
    const char = String.fromCharCode(code);
    if (this.finished) this.fail(`unexpected ${JSON.stringify(char)} after the end of the HAR document`);
    const frame = this.frames.at(-1);
    if (!frame) {
      if (this.started) this.fail('unexpected data');
      if (code !== OPEN_BRACE) this.fail(`the file is not a HAR document: it starts with ${JSON.stringify(char)} instead of {`);
      this.started = true;
      this.frames.push({ kind: 'object', container: 'root', expect: 'key-or-end', key: '' });
      return;
    }
    if (frame.kind === 'entries') return this.inEntries(frame, code, char);
    switch (frame.expect) {
      case 'key-or-end':
      case 'key':
        if (code === CLOSE_BRACE && frame.expect === 'key-or-end') return this.closeObject();
        if (code !== QUOTE) this.fail(`expected a property name, found ${JSON.stringify(char)}`);
        this.token = { type: 'key', pieces: [QUOTE_BYTES], escape: false };
        return;
      case 'colon':
        if (char !== ':') this.fail(`expected ":" after "${frame.key}", found ${JSON.stringify(char)}`);
        frame.expect = 'value';
        return;
      case 'value':
        frame.expect = 'comma-or-end';
        return this.startValue(frame, code);
      case 'comma-or-end':
        if (char === ',') frame.expect = 'key';
        else if (code === CLOSE_BRACE) this.closeObject();
        else this.fail(`expected "," or "}", found ${JSON.stringify(char)}`);
        return;
    }
  }

  private startValue(frame: ObjectFrame, code: number): void {
    if (frame.container === 'root' && frame.key === 'log') {
      if (code !== OPEN_BRACE) this.fail('"log" must be an object');
      this.sawLog = true;
      this.frames.push({ kind: 'object', container: 'log', expect: 'key-or-end', key: '' });
      return;
    }
    if (frame.container === 'log' && frame.key === 'entries') {
      if (code !== OPEN_BRACKET) this.fail('"log.entries" must be an array');
      this.sawEntries = true;
      this.frames.push({ kind: 'entries', expect: 'element-or-end' });
      return;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) this.value = { keep: false, depth: 1, inString: false, escape: false, pieces: [] };
    else if (code === QUOTE) this.token = { type: 'string', pieces: [QUOTE_BYTES], escape: false };
    else this.token = { type: 'primitive', pieces: [Uint8Array.of(code)], escape: false };
  }

  private inEntries(frame: EntriesFrame, code: number, char: string): void {
    if (code === CLOSE_BRACKET && frame.expect !== 'element') {
      this.frames.pop();
      return;
    }
    if (frame.expect === 'comma-or-end') {
      if (char !== ',') this.fail(`expected "," or "]" after entry ${this.entryCount}, found ${JSON.stringify(char)}`);
      frame.expect = 'element';
      return;
    }
    if (code !== OPEN_BRACE) this.fail(`entry ${this.entryCount + 1} is not an object`);
    frame.expect = 'comma-or-end';
    this.value = { keep: true, depth: 1, inString: false, escape: false, pieces: [OPEN_BRACE_BYTES] };
  }

  private closeObject(): void {
    this.frames.pop();
    if (this.frames.length === 0) this.finished = true;
  }

  private continueValue(chunk: Uint8Array, start: number, out: Uint8Array[][]): number {
    const value = this.value;
    if (!value) return start;
    let { depth, inString, escape } = value;
    const n = chunk.length;
    let i = start;
    for (; i < n; i++) {
      const code = chunk[i] as number;
      if (inString) {
        if (escape) escape = false;
        else if (code === BACKSLASH) escape = true;
        else if (code === QUOTE) inString = false;
        continue;
      }
      if (code === QUOTE) inString = true;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      }
    }
    this.position += i - start;
    // An entry begun and ended in this chunk is one view of it, its brace included: a reader can hand it on in place.
    // A piece kept past this chunk is copied: the reader may reuse the chunk's memory for the next.
    if (value.keep && depth === 0 && start > 0 && value.pieces.length === 1 && value.pieces[0] === OPEN_BRACE_BYTES) value.pieces[0] = chunk.subarray(start - 1, i);
    else if (value.keep) value.pieces.push(depth === 0 ? chunk.subarray(start, i) : copied(chunk, start, i));
    if (depth === 0) {
      this.value = undefined;
      if (value.keep) {
        this.entryCount++;
        out.push(value.pieces);
      }
    } else {
      Object.assign(value, { depth, inString, escape });
    }
    return i;
  }

  private continueToken(chunk: Uint8Array, start: number): number {
    const token = this.token;
    if (!token) return start;
    let i = start;
    if (token.type === 'primitive') {
      while (i < chunk.length && isPrimitivePart(chunk[i] as number)) i++;
      token.pieces.push(copied(chunk, start, i));
      this.position += i - start;
      if (i < chunk.length) this.finishPrimitive();
      return i;
    }
    for (; i < chunk.length; i++) {
      const code = chunk[i] as number;
      if (token.escape) token.escape = false;
      else if (code === BACKSLASH) token.escape = true;
      else if (code === QUOTE) {
        i++;
        token.pieces.push(copied(chunk, start, i));
        this.position += i - start;
        this.finishString();
        return i;
      }
    }
    token.pieces.push(copied(chunk, start, i));
    this.position += i - start;
    return i;
  }

  private finishPrimitive(): void {
    const text = decoded(this.token?.pieces ?? []);
    this.token = undefined;
    if (!PRIMITIVE.test(text)) this.fail(`${JSON.stringify(text)} is not a JSON value`);
  }

  private finishString(): void {
    const token = this.token;
    this.token = undefined;
    if (!token || token.type !== 'key') return;
    const text = decoded(token.pieces);
    let key: string;
    try {
      key = JSON.parse(text) as string;
    } catch {
      this.fail(`invalid property name ${text}`);
    }
    const frame = this.frames.at(-1);
    if (frame?.kind === 'object') {
      frame.key = key;
      frame.expect = 'colon';
    }
  }
}
