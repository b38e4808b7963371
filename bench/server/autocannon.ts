/**
 * One autocannon run, in a process of its own (its bin with --json), so the load generator, the server
 * under test and this script never share an event loop.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SpawnedServer } from '../../reference-server/spawn.ts';

const AUTOCANNON = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  seconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Responses with a status outside 2xx, and socket errors or timeouts: both must be 0 for a fair figure. */
  non2xx: number;
  errors: number;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

export function runLoad({ url, headers = {}, connections = 32, seconds }: LoadOptions): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '-c', String(connections), '-d', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`autocannon failed: ${stderr.trim() || error.message}`));
      const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as AutocannonJson;
      resolve({
        requestsPerSecond: result.requests.average,
        requests: result.requests.total,
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
    });
  });
}

export interface ServerLoadResult extends LoadResult {
  /** The server's own CPU time per answered request, in microseconds: less swayed by a busy machine than req/s. */
  cpuMicrosPerRequest: number;
}

/** Loads a server started by spawnServerScript and reads its CPU time before and after. */
export async function loadServer(server: SpawnedServer, options: LoadOptions): Promise<ServerLoadResult> {
  const cpuBefore = cpuTimeMs(server.pid);
  const result = await runLoad(options);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${options.url} answered ${result.non2xx} non-2xx and ${result.errors} errors; the figures would not be comparable`);
  }
  return { ...result, cpuMicrosPerRequest: ((cpuTimeMs(server.pid) - cpuBefore) * 1000) / result.requests };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** A plain-text table with aligned columns, for the console and for Markdown alike. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc (Linux). */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** USER_HZ, 100 on Linux for every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
