/**
 * npm run verdicts:repeat -- [legitimate|broken|both] [runs]: the ten-run demonstration. Runs the whole suite
 * `runs` times (default 10) against one legitimate server and one broken only on unusual inputs, prints each
 * run's verdict, and exits 1 unless every run of a server got the same verdict and the same failing tests.
 */
import { REPEAT_SERVERS, repeatRuns, type RunOutcome } from './support/repeat-runs.ts';

const [which = 'both', runsText = '10'] = process.argv.slice(2);
const runs = Number(runsText);
if (!['legitimate', 'broken', 'both'].includes(which) || !Number.isInteger(runs) || runs < 2) {
  process.stderr.write('usage: npm run verdicts:repeat -- [legitimate|broken|both] [runs, at least 2]\n');
  process.exit(2);
}
const names = which === 'both' ? (['legitimate', 'broken'] as const) : ([which] as Array<'legitimate' | 'broken'>);
let same = true;
for (const name of names) {
  const server = REPEAT_SERVERS[name];
  process.stdout.write(`\n${name}: ${server.description}\n`);
  const outcomes = await repeatRuns(server, runs, {
    label: `repeat-${name}`,
    onRun: (outcome: RunOutcome) => process.stdout.write(`  run ${outcome.run}: ${outcome.headline} (${outcome.seconds.toFixed(0)} s${outcome.failedTests.length > 0 ? `; failing: ${outcome.failedTests.map((title) => title.split(' ')[0]).join(', ')}` : ''})\n`),
  });
  const verdicts = new Set(outcomes.map((outcome) => `${outcome.headline} | ${outcome.failedTests.join(' ; ')}`));
  const requests = new Set(outcomes.map((outcome) => outcome.generatedClasses));
  process.stdout.write(`  ${verdicts.size === 1 ? `the same verdict in all ${runs} runs` : `${verdicts.size} different verdicts in ${runs} runs`}; ${requests.size === 1 ? 'the same input classes sent every run' : 'the generated requests differed between runs'}\n`);
  same &&= verdicts.size === 1 && requests.size === 1;
}
process.exit(same ? 0 : 1);
