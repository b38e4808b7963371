/**
 * The watcher follows a gateway's log through Debian's logrotate, both ways it rotates (`create`: renamed and a
 * new file made; `copytruncate`: copied and truncated in place), and through a restart from its saved position,
 * and judges every line exactly once: the lines judged across the watchers add up to the lines written, and a
 * correct gateway's traffic (the bench's generated capture: a correct limiter, clients that honour Retry-After)
 * fails no rule; a renamed file its writer still writes is read on. The metrics it serves count what its judge judged, in OpenMetrics text, with no key in them.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ensureJudgeCapture } from '../../bench/judge/capture.ts';
import { LogFollower } from '../../harness/watch/log-follower.ts';
import { Watcher } from '../../harness/watch/watcher.ts';
import { toolPath } from '../support/installed-tools.ts';
import { tempDir } from '../judge/support.ts';

const logrotate = toolPath('logrotate', 'bash scripts/ensure-logrotate.sh (npm test runs it) or apt-get install logrotate');
const CHUNKS = 8;
const PER_CHUNK = 400;

async function capturedLines(dir: string): Promise<string[]> {
  const capture = join(dir, 'capture.ndjson');
  await ensureJudgeCapture(capture, CHUNKS * PER_CHUNK, 5, () => {});
  return readFileSync(capture, 'utf8').trimEnd().split('\n');
}

function rotate(dir: string, log: string, mode: 'create' | 'copytruncate'): void {
  const config = join(dir, 'logrotate.conf');
  writeFileSync(config, `${log} {\n  ${mode}\n  rotate 3\n  missingok\n  nocompress\n}\n`);
  const result = spawnSync(logrotate as string, ['-f', '-s', join(dir, 'logrotate.state'), config], { encoding: 'utf8', timeout: 20_000 });
  expect(result.status, result.stderr).toBe(0);
}

for (const mode of ['create', 'copytruncate'] as const) {
  test(`every line is judged once across logrotate's ${mode} and a restart`, async () => {
    const dir = tempDir(`watch-${mode}`);
    const lines = await capturedLines(dir);
    const log = join(dir, 'access.log');
    writeFileSync(log, '');
    const warnings: string[] = [];
    const start = (): Watcher => new Watcher({ log, stateFile: join(dir, 'watch-state.json'), env: {}, clockSkewMs: 1_000, maxKeys: 100, warn: (line) => warnings.push(line) });
    const watchers = [start()];
    for (let chunk = 0; chunk < CHUNKS; chunk++) {
      const text = lines.slice(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK);
      // Half the chunk before a rotation, half after: the watcher has read neither half when the log rotates.
      appendFileSync(log, `${text.slice(0, PER_CHUNK / 2).join('\n')}\n`);
      if (chunk % 2 === 1) rotate(dir, log, mode);
      appendFileSync(log, `${text.slice(PER_CHUNK / 2).join('\n')}\n`);
      (watchers.at(-1) as Watcher).poll();
      if (chunk === 4) watchers.push(start());
      if (chunk === 2) rotate(dir, log, mode); // rotated with everything read
    }
    const judged = watchers.map((watcher) => watcher.counts);
    expect(judged.reduce((sum, { lines: read }) => sum + read, 0)).toBe(lines.length);
    expect(judged.reduce((sum, { exchanges }) => sum + exchanges, 0)).toBe(lines.length);
    expect(warnings).toEqual([]);

    const metrics = await (watchers[0] as Watcher).live.metrics.text();
    expect(metrics).toContain(`petstore_watch_exchanges_judged_total{rule="RESP-1"} ${judged[0]?.exchanges}`);
    expect(metrics).toContain('petstore_watch_lines_lost_total 0');
    expect(metrics).toContain('petstore_watch_unreadable_lines_total 0');
    expect(metrics.trimEnd().endsWith('# EOF')).toBe(true);
    expect(metrics).not.toMatch(/petstore_watch_rule_failures_total\{[^}]*\} [1-9]/);

    const failing = watchers.map((watcher) => watcher.finish({ suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' }).rules.filter((row) => row.verdict === 'fail').map((row) => row.id));
    expect(failing).toEqual([[], []]);
  });
}

test('a rotated file gone before its rest was read (compressed while the watcher was down) is reported as lost lines, never guessed at', async () => {
  const dir = tempDir('watch-gap');
  const lines = await capturedLines(dir);
  const log = join(dir, 'access.log');
  writeFileSync(log, `${lines.slice(0, 100).join('\n')}\n`);
  const warnings: string[] = [];
  const start = (): Watcher => new Watcher({ log, stateFile: join(dir, 'state.json'), env: {}, clockSkewMs: 1_000, maxKeys: 100, warn: (line) => warnings.push(line) });
  start().poll();
  appendFileSync(log, `${lines.slice(100, 200).join('\n')}\n`);
  // The watcher is down; the log is rotated and compressed at once: a new file, the old one unlinked.
  writeFileSync(`${log}.1.gz`, readFileSync(log));
  unlinkSync(log);
  writeFileSync(log, `${lines.slice(200, 300).join('\n')}\n`);
  const watcher = start();
  watcher.poll();
  expect(watcher.counts.lines).toBe(100);
  expect(warnings).toEqual([expect.stringMatching(/^petstore-conformance watch: a rotated file of access\.log was gone/)]);
  expect(await watcher.live.metrics.text()).toContain('petstore_watch_lines_lost_total 1');
});

test('a renamed file its writer still writes (nginx between logrotate\'s rename and its USR1) is read on: no line written late to it is lost', () => {
  const dir = tempDir('watch-trailing');
  const log = join(dir, 'access.log');
  const writer = openSync(log, 'a');
  const follower = new LogFollower(log, undefined);
  writeSync(writer, 'one\n');
  expect(follower.read().lines).toEqual(['one']);
  writeSync(writer, 'two\n');
  renameSync(log, `${log}.1`);
  writeFileSync(log, '');
  expect(follower.read().lines).toEqual(['two']);
  // The writer has not reopened yet: it writes the renamed file, then the new one.
  writeSync(writer, 'three\n');
  closeSync(writer);
  appendFileSync(log, 'four\n');
  expect(follower.read().lines).toEqual(['three', 'four']);
  follower.close();
});

test('a batch of lines shipped again (a relay delivering at least once) is judged once, as the judge counts it, and the report says how many were dropped', async () => {
  const dir = tempDir('watch-repeats');
  const lines = (await capturedLines(dir)).slice(0, PER_CHUNK);
  const log = join(dir, 'access.log');
  writeFileSync(log, `${lines.join('\n')}\n`);
  appendFileSync(log, `${lines.slice(-100).join('\n')}\n`);
  const warnings: string[] = [];
  const watcher = new Watcher({ log, stateFile: join(dir, 'state.json'), env: {}, clockSkewMs: 1_000, maxKeys: 100, warn: (line) => warnings.push(line) });
  watcher.poll();
  expect(watcher.counts).toEqual({ lines: PER_CHUNK + 100, exchanges: PER_CHUNK });
  expect(warnings).toEqual([]);
  const report = watcher.finish({ suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' });
  expect(report.rules.filter((row) => row.verdict === 'fail').map((row) => row.id)).toEqual([]);
  expect(report.target.url).toContain('100 lines that repeated ones already read counted once');
});
