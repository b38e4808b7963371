/**
 * npm run record:sample: re-records fixtures/traffic/sample.har from the scripted session in
 * harness/record/sample-session.ts against a fresh reference server.
 */
import { fixturePath } from '../lib/fixtures.ts';
import { recordSampleSession } from '../harness/record/sample-session.ts';

const out = fixturePath('traffic', 'sample.har');
const { exchanges } = await recordSampleSession(out);
process.stdout.write(`recorded ${exchanges} exchanges to fixtures/traffic/sample.har\n`);
