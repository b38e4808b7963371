/**
 * `--shard i/n`: processes over the same traffic, each judging the keys whose pseudonym hashes to it, and their
 * reports merged by certify --evidence, say what one process says of every rule: on the nginx log and the recorded
 * load run (two keys each, one per shard), correct and with each planted fault.
 */
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import { ownsKey, parseShard, type Shard } from '../../harness/judge/shard.ts';
import { asTrafficEvidence, writeJudgeReports } from '../../cli/judge-reports.ts';
import type { ReportEvidence } from '../../lib/verdicts/evidence.ts';
import { EvidenceInputError, readEvidence } from '../../lib/verdicts/evidence-files.ts';
import { readLines, writeLines } from './invariance/capture-lines.ts';
import { FAULTS } from './invariance/faults.ts';
import { LOAD_CAPTURE, NGINX_CAPTURE } from './invariance/record-captures.ts';
import { tempDir } from './support.ts';

const BASE_URL = 'https://api.example.test/v1';
const RUN = { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' };

/** The report of judging `capture` (as `shard`, if given) written to a folder of its own, as judge writes it. */
async function judgedInto(capture: string, shard?: Shard): Promise<string> {
  const { report, period } = await judgeCapture(capture, { env: {}, clockSkewMs: 1_000, ...(shard ? { shard } : {}), run: RUN });
  const dir = tempDir(`shard-${shard ? `${shard.index}-of-${shard.count}` : 'whole'}`);
  const quiet = process.stdout.write;
  process.stdout.write = () => true;
  try {
    writeJudgeReports(asTrafficEvidence(report, BASE_URL, 'production traffic', shard, period), { outputDir: dir, summaryFile: undefined }, {});
  } finally {
    process.stdout.write = quiet;
  }
  return join(dir, 'conformance.json');
}

function results(evidence: ReportEvidence): Record<string, string> {
  return Object.fromEntries(evidence.parts.map((part) => [`${part.rule}:${part.part}`, `${part.result}${part.checked ? '' : ' (unchecked)'}`]));
}

test('a shard is written i/n, 1 to n; every key belongs to one shard, and exchanges with no key to the first', () => {
  expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
  for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '']) expect(() => parseShard(bad), bad).toThrow(/--shard takes i\/n/);
  const shards = [1, 2, 3].map((index) => ({ index, count: 3 }));
  for (const key of ['free-1', 'pro-1', 'pro-2', 'business-7', 'unknown-3']) expect(shards.filter((shard) => ownsKey(shard, key)), key).toHaveLength(1);
  expect(shards.filter((shard) => ownsKey(shard, undefined))).toEqual([shards[0]]);
});

for (const [name, path] of [['the nginx gateway log', NGINX_CAPTURE], ['the recorded load run', LOAD_CAPTURE]] as const) {
  test(`${name}: two shards merged by certify's evidence reading give every rule the verdict one process gives, correct and with each planted fault`, async () => {
    test.setTimeout(120_000);
    const capture = readLines(path);
    const variants = [{ fault: 'none', file: path }, ...FAULTS.flatMap((fault) => {
      const planted = fault.plant(capture, 0);
      return planted ? [{ fault: fault.name, file: writeLines(planted) }] : [];
    })];
    let failedSomewhere = 0;
    for (const { fault, file } of variants) {
      const [whole] = readEvidence([await judgedInto(file)], '/');
      const shards = [await judgedInto(file, { index: 1, count: 2 }), await judgedInto(file, { index: 2, count: 2 })];
      const merged = readEvidence(shards, '/');
      expect(merged, fault).toHaveLength(1);
      expect(merged[0]?.evidence.shard, 'the merged report is no shard').toBeUndefined();
      // Every shard read all of the traffic: the merged report covers the period one process judged.
      expect(merged[0]?.evidence.period, fault).toEqual(whole!.evidence.period);
      expect(whole!.evidence.period, fault).toBeDefined();
      expect(results(merged[0]!.evidence), `${fault}: the merged shards against one process`).toEqual(results(whole!.evidence));
      if (Object.values(results(whole!.evidence)).includes('fail')) failedSomewhere++;
    }
    expect(failedSomewhere, 'some planted fault failed a rule, so merging failures was put to the test').toBeGreaterThan(0);
  });
}

test('a shard missing, or one given twice, is refused naming it: its keys would otherwise go unjudged, or count twice', async () => {
  const first = await judgedInto(NGINX_CAPTURE, { index: 1, count: 2 });
  expect(() => readEvidence([first], '/')).toThrow(EvidenceInputError);
  expect(() => readEvidence([first], '/')).toThrow(/shard 2\/2 of "production traffic" of https:\/\/api\.example\.test\/v1 for the traffic from [\d-]+ [\d:]+ to [\d-]+ [\d:]+ UTC missing/);
  expect(() => readEvidence([first, first], '/')).toThrow(/shard 1\/2 .* is given twice/);
});
