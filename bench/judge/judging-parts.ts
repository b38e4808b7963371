/**
 * npx tsx bench/judge/judging-parts.ts <checkout> <capture> [har|ndjson]
 *
 * The judging thread's own parts, each alone over a capture's entries held in memory (read and parsed first, as the
 * judge reads them): turning each entry into an exchange (`toJudgedExchange`), the repeat check and
 * `TrafficJudge.add`, in CPU µs an entry, for three repetitions (a fresh key book, check and judge each time), and
 * the least of each. `<checkout>` is the tree whose parts are timed: this one, or another checkout of the project,
 * run in turn with it to compare (the machine's speed drifts; a pair's ratio holds). One JSON line.
 */
import { basename, join, resolve } from 'node:path';
import type { ReadEntry } from '../../lib/capture/read.ts';
import type { JudgedExchange } from '../../lib/capture/exchange.ts';

const [checkout, capture, format = 'har'] = process.argv.slice(2);
if (!checkout || !capture || (format !== 'har' && format !== 'ndjson')) {
  process.stderr.write('usage: npx tsx bench/judge/judging-parts.ts <checkout> <capture> [har|ndjson]\n');
  process.exit(2);
}
const root = resolve(checkout);
const { readCapture } = (await import(join(root, 'lib/capture/read.ts'))) as typeof import('../../lib/capture/read.ts');
const { toJudgedExchange } = (await import(join(root, 'harness/judge/capture-entry.ts'))) as typeof import('../../harness/judge/capture-entry.ts');
const { KeyBook } = (await import(join(root, 'harness/judge/key-book.ts'))) as typeof import('../../harness/judge/key-book.ts');
const { TrafficJudge } = (await import(join(root, 'harness/judge/traffic-judge.ts'))) as typeof import('../../harness/judge/traffic-judge.ts');
const { RepeatedLines } = (await import(join(root, 'harness/judge/repeated-lines.ts'))) as typeof import('../../harness/judge/repeated-lines.ts');

type Repeats = InstanceType<typeof RepeatedLines>;
/**
 * A checkout from before the fingerprint was bytes read in place took it as a base64 string: as a third argument of
 * `repeats` at first, then as `fingerprintRepeats`'s first.
 */
type OlderRepeats = { repeats(text: string, at: number, taken?: string): boolean; fingerprintRepeats(fingerprint: string, at: number): boolean };
type OlderEntry = ReadEntry & { fingerprint?: string };

const entries: OlderEntry[] = [];
// A HAR's entries keep their fingerprint, not their text, as the judge asks them: 300 MB less held.
for await (const raw of readCapture(capture, format) as AsyncGenerator<OlderEntry>) entries.push(raw.fingerprints === undefined && raw.fingerprint === undefined ? raw : { ...raw, text: '' });
const file = basename(capture);

function cpuMicrosEach(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / entries.length;
}

function repeats(check: Repeats, raw: OlderEntry, at: number): boolean {
  if (raw.fingerprints !== undefined) return check.fingerprintRepeats(raw.fingerprints, raw.fingerprintAt, at);
  if (raw.fingerprint === undefined) return check.repeats(raw.text, at);
  const older = check as unknown as OlderRepeats;
  return 'fingerprintRepeats' in check ? older.fingerprintRepeats(raw.fingerprint, at) : older.repeats(raw.text, at, raw.fingerprint);
}

const rounds: Array<{ building: number; repeatCheck: number; judging: number }> = [];
for (let round = 0; round < 3; round++) {
  const keys = new KeyBook({});
  const check = new RepeatedLines();
  const judge = new TrafficJudge({ env: {}, clockSkewMs: 1_000 });
  const exchanges: Array<JudgedExchange | undefined> = [];
  const kept: JudgedExchange[] = [];
  const building = cpuMicrosEach(() => {
    for (const raw of entries) exchanges.push(toJudgedExchange(raw, file, keys));
  });
  const repeatCheck = cpuMicrosEach(() => {
    for (let at = 0; at < entries.length; at++) {
      const exchange = exchanges[at];
      if (exchange && !repeats(check, entries[at] as OlderEntry, exchange.answeredAt)) kept.push(exchange);
    }
  });
  const judging = cpuMicrosEach(() => {
    for (const exchange of kept) judge.add(exchange);
  });
  const failing = judge.finish().failing();
  if (failing.length > 0) throw new Error(`the judge failed ${failing.join(', ')} on ${file}`);
  rounds.push({ building, repeatCheck, judging });
}
const least = (part: 'building' | 'repeatCheck' | 'judging'): number => Number(Math.min(...rounds.map((each) => each[part])).toFixed(2));
process.stdout.write(`${JSON.stringify({ checkout: root, capture: file, entries: entries.length, building: least('building'), repeatCheck: least('repeatCheck'), judging: least('judging'), rounds })}\n`);
