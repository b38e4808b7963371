/**
 * One function turns a rule's level into a verdict (lib/verdicts/level.ts): the suite's judge, the judge's report,
 * the load's breach status and the verdict model all ask it, so the four can never read a level differently.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { breachStatus } from '../../../../lib/verdicts/breach.ts';
import { breachVerdict, LEVELS } from '../../../../lib/verdicts/level.ts';
import { REPO_ROOT } from '../../../fixtures/listed-tests.ts';

const ASKING = ['lib/verdicts/breach.ts', 'specs/support/judge.ts', 'harness/judge/report.ts', 'lib/verdicts/model.ts'];

test('MUST broken fails, SHOULD broken warns, GAP is only observed', () => {
  expect(LEVELS.map((level) => [level, breachVerdict(level)])).toEqual([['MUST', 'fail'], ['SHOULD', 'warn'], ['GAP', 'observed']]);
  expect(breachStatus(['LIST-6', 'ERR-GAP-3'])).toBe('warn');
});

test('every part that turns a level into a verdict asks the one function, and none reads the level itself', () => {
  const ownReadings = ASKING.flatMap((file) => {
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    const asks = /import \{[^}]*\bbreachVerdict\b[^}]*\} from '[./]*(?:lib\/)?verdicts\/level\.ts'|from '\.\/level\.ts'/.test(text) && text.includes('breachVerdict(');
    const reads = [...text.matchAll(/\brule\.level [!=]== '(?:MUST|SHOULD|GAP)'|case '(?:MUST|SHOULD|GAP)'|MUST: 'fail'/g)].map((match) => `${file}: ${match[0]}`);
    return [...(asks ? [] : [`${file} does not ask breachVerdict`]), ...reads];
  });
  expect(ownReadings).toEqual([]);
});
