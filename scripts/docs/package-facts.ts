/**
 * What a newcomer installs, as measured: the size of the package's tarball (`npm pack --dry-run`, the files
 * package.json ships) and the Node lines its `engines` allows (the ones npm test runs on, scripts/on-node.sh).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface PackedSize {
  /** The .tgz npm would publish, in bytes. */
  packed: number;
  /** Its files unpacked, in bytes. */
  unpacked: number;
}

let measured: Promise<PackedSize> | undefined;

/** `npm pack --dry-run`, once per process: it packs nothing to disk, and takes seconds. */
export function packedSize(): Promise<PackedSize> {
  measured ??= promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).then(({ stdout }) => {
    const [pack] = JSON.parse(stdout) as Array<{ size: number; unpackedSize: number }>;
    if (!pack) throw new Error('npm pack --dry-run --json printed no package');
    return { packed: pack.size, unpacked: pack.unpackedSize };
  });
  return measured;
}

/** package.json's engines.node, as written. */
export function nodeEngines(): string {
  return (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { engines: { node: string } }).engines.node;
}

/** The major Node lines engines names ("^22.12.0 || ^24.0.0 || >=26.0.0": 22, 24, 26). */
export function nodeLines(engines = nodeEngines()): number[] {
  return [...new Set([...engines.matchAll(/(?:\^|>=|~)(\d+)\./g)].map((match) => Number(match[1])))].sort((a, b) => a - b);
}

/** "22, 24 and 26" (or "22, 24 or 26"). */
export function inWords(lines: readonly number[], conjunction: 'and' | 'or' = 'and'): string {
  return lines.length < 2 ? lines.join('') : `${lines.slice(0, -1).join(', ')} ${conjunction} ${lines.at(-1)}`;
}
