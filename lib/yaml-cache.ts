/**
 * YAML parsed once per text, the value kept as JSON on disk for the next process. Every command reads the
 * package's own YAML (the contract, the rules, the plans) before doing anything: loading the YAML parser and
 * parsing those 31 kB cost about 0.1 CPU-s of each start-up, a tenth of `judge` on a small capture, where reading
 * the same values back as JSON costs under a millisecond.
 *
 * A value is found by a hash of its text and of the parser's version, so an edited file or another parser is
 * parsed afresh, and only a value JSON gives back the same is kept (no dates, no infinities). The folder is the
 * user's own, under the system's temporary folder, as tsx keeps its compiled files: one another user could write
 * to is not read. Nothing here may fail a command: a folder that cannot be made or read, or a file cut short,
 * means the text is parsed as before.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);

export function parseYamlCached(text: string): unknown {
  const file = keptFileOf(text);
  if (file) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch {
      // Not kept yet, or cut short by a process that stopped while writing it: parsed and kept again.
    }
  }
  const value = (require('yaml') as typeof import('yaml')).parse(text) as unknown;
  if (file) keep(file, value);
  return value;
}

/** Where the value of this text is kept; undefined where no folder of the user's own can be had. */
export function keptFileOf(text: string): string | undefined {
  const folder = ownFolder();
  return folder && path.join(folder, `${createHash('sha256').update(parserVersion()).update('\0').update(text).digest('hex')}.json`);
}

function parserVersion(): string {
  return (require('yaml/package.json') as { version: string }).version;
}

/** The user's folder of parsed YAML, made if missing; undefined where it cannot be made or is not the user's alone. */
function ownFolder(): string | undefined {
  const uid = process.getuid?.();
  // One level below the temporary folder, whose sticky bit keeps other users from moving it away.
  const folder = path.join(tmpdir(), `petstore-conformance-yaml-${uid ?? 'user'}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const { uid: owner, mode } = statSync(folder);
    return uid === undefined || (owner === uid && (mode & 0o022) === 0) ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole under another name first, so that a process reading at the same time never meets half a file. */
function keep(file: string, value: unknown): void {
  const json = JSON.stringify(value);
  if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) return;
  const partial = `${file}.${process.pid}.partial`;
  try {
    writeFileSync(partial, json);
    renameSync(partial, file);
  } catch {
    // A full or read-only disk: the next process parses the text too.
  }
}
