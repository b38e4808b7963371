/**
 * Looks for secrets in everything a run leaves behind: every file under the given folders, and inside every
 * zip among them (Playwright traces, blob reports) and every base64 zip embedded in an HTML page (Playwright's
 * HTML report keeps its data that way), so a key cannot hide behind compression.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

export interface SecretFinding {
  /** The file, and the entry inside a zip when the secret was found there. */
  where: string;
  secret: string;
}

/**
 * `skip` leaves out folders by name (the project's own test output, which quotes its test sources). Files that
 * vanish while being read (another run cleaning its output) are passed over.
 */
export function findSecrets(folders: readonly string[], secrets: readonly string[], skip: readonly string[] = []): { findings: SecretFinding[]; filesRead: number } {
  const findings: SecretFinding[] = [];
  const forms = secrets.map((secret) => ({ secret, forms: [secret, ...base64Forms(secret)] }));
  let filesRead = 0;
  const scan = (where: string, bytes: Buffer, depth: number): void => {
    filesRead++;
    const text = bytes.toString('latin1');
    for (const { secret, forms: written } of forms) {
      const form = written.find((candidate) => text.includes(candidate));
      if (form !== undefined) findings.push({ where: form === secret ? where : `${where} (base64)`, secret });
    }
    if (depth > 3) return;
    if (isZip(bytes)) for (const entry of zipEntries(bytes)) scan(`${where} › ${entry.name}`, entry.data, depth + 1);
    for (const embedded of embeddedZips(text)) for (const entry of zipEntries(embedded)) scan(`${where} › (embedded) ${entry.name}`, entry.data, depth + 1);
    for (const decoded of embeddedBase64(text)) scan(`${where} › (base64 string)`, decoded, depth + 1);
  };
  for (const folder of folders) {
    for (const file of filesUnder(folder, skip)) {
      const bytes = readIfPresent(file);
      if (bytes) scan(file, bytes, 0);
    }
  }
  return { findings, filesRead };
}

/**
 * The base64 text a secret becomes inside any base64 data (attachment bodies in JSON and blob reports), at each
 * of the three alignments it can start at, keeping only the characters that depend on the secret alone.
 */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [0, 1, 2].map((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const start = [0, 2, 3][shift]!;
    const end = Math.floor((shift + bytes.length) / 3) * 4;
    return encoded.slice(start, end);
  });
}

function filesUnder(folder: string, skip: readonly string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const full = path.join(folder, name);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) return [];
    if (stat.isDirectory()) return skip.includes(name) ? [] : filesUnder(full, skip);
    return [full];
  });
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function isZip(bytes: Buffer): boolean {
  return bytes.length > 22 && bytes.readUInt32LE(0) === 0x04034b50;
}

function embeddedZips(text: string): Buffer[] {
  return [...text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)].map((match) => Buffer.from(match[1]!, 'base64')).filter(isZip);
}

/** Long base64 strings (attachment bodies in JSON reports and blobs), decoded, so a key encoded twice is found too. */
function embeddedBase64(text: string): Buffer[] {
  return [...text.matchAll(/"([A-Za-z0-9+/]{64,}={0,2})"/g)].map((match) => Buffer.from(match[1]!, 'base64'));
}

interface ZipEntry {
  name: string;
  data: Buffer;
}

/** The entries of a zip, read from its central directory (stored and deflated entries, which is all Playwright writes). */
export function zipEntries(zip: Buffer): ZipEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) return [];
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count && zip.readUInt32LE(at) === 0x02014b50; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) entries.push({ name, data: raw });
    else if (method === 8) entries.push({ name, data: inflateRawSync(raw) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
