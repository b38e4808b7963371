/**
 * The judge against Redocly's `drift` on the same HAR, each as a user runs it (a whole process: start-up,
 * reading, judging, the report written), one after the other in each round so both meet the same machine.
 * Each run is timed by GNU time (`/usr/bin/time`): wall and CPU seconds and peak RSS as the kernel counted them.
 * On a shared machine the ratio of a pair, taken minutes apart at most, is the figure to quote, not either time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAR_BASE_URL } from './har.ts';

export interface ProcessRun {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  exitCode: number;
}

export interface DriftPair {
  judge: ProcessRun;
  drift: ProcessRun;
  /** drift's wall time over the judge's: how many times faster the judge is (> 1: the judge is ahead). */
  wallRatio: number;
  cpuRatio: number;
}

const TIME = '/usr/bin/time';

export async function judgeVersusDrift(root: string, har: string): Promise<DriftPair> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-drift-'));
  try {
    const judge = await timed([process.execPath, join(root, 'bin', 'petstore-conformance.js'), 'judge', har, '--output', join(scratch, 'judge'), '--base-url', HAR_BASE_URL], root, scratch);
    // 0: conforming; 3: rules a capture cannot show were not checked. Anything else is a failure to report.
    if (judge.exitCode !== 0 && judge.exitCode !== 3) throw new Error(`judge exited with ${judge.exitCode} on ${har}`);
    const failing = (JSON.parse(readFileSync(join(scratch, 'judge', 'conformance.json'), 'utf8')) as { rules: Array<{ id: string; verdict: string }> }).rules.filter((rule) => rule.verdict === 'fail');
    if (failing.length > 0) throw new Error(`the judge failed ${failing.map((rule) => rule.id).join(', ')} on a correct limiter's capture`);
    const drift = await timed([process.execPath, join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'drift', har, '--api', join(root, 'fixtures', 'openapi.yaml'), '--server', HAR_BASE_URL, '--format', 'json', '-o', join(scratch, 'drift.json')], root, scratch);
    if (drift.exitCode !== 0) throw new Error(`drift exited with ${drift.exitCode} on ${har}`);
    return { judge, drift, wallRatio: drift.wallSeconds / judge.wallSeconds, cpuRatio: drift.cpuSeconds / judge.cpuSeconds };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function timed(command: readonly string[], cwd: string, scratch: string): Promise<ProcessRun> {
  const figures = join(scratch, 'time.txt');
  const child = spawn(TIME, ['-f', '%e %U %S %M %x', '-o', figures, ...command], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (errors = (errors + text).slice(-2_000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`${TIME} could not be started (${error.message}): install GNU time (apt-get install time)`)));
    child.once('close', resolve);
  });
  const line = readFileSync(figures, 'utf8').trim().split('\n').at(-1) ?? '';
  const [wall, user, system, rssKb, exit] = line.split(' ').map(Number);
  if (code === null || wall === undefined || exit === undefined || Number.isNaN(wall)) throw new Error(`${command.slice(1, 3).join(' ')}: no timing (${line}); its errors: ${errors}`);
  return { wallSeconds: wall, cpuSeconds: (user ?? 0) + (system ?? 0), peakRssMb: (rssKb ?? 0) / 1024, exitCode: exit };
}
