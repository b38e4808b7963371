/**
 * A broken server's fault that the run did not exercise (its rule left partly checked, no test failing on it) is
 * neither caught nor passed: the group says so by name, so it can fail for that reason and no other.
 */
import { expect, test } from '@playwright/test';
import { describeOutcome, judgeGroup } from './support/fault-runs.ts';
import { faultById } from './support/faults.ts';
import type { SuiteRunResult, SuiteTest } from './support/run-suite.ts';

const create5 = (status: SuiteTest['status'], errors: string[], annotations: SuiteTest['annotations']): SuiteTest => ({
  title: 'CREATE-5 MUST every created animal gets a unique id, also when animals are created concurrently',
  fullTitle: 'CREATE-5 MUST every created animal gets a unique id, also when animals are created concurrently',
  file: 'specs/functional/concurrent-creates.spec.ts',
  line: 13,
  rules: ['CREATE-5'],
  status,
  errors,
  namedRules: errors.length > 0 ? ['CREATE-5'] : [],
  annotations: [{ type: 'rule', description: 'CREATE-5' }, ...annotations],
  durationMs: 500,
});

const runOf = (test: SuiteTest): SuiteRunResult => ({ label: 'fault-unexercised', tests: [test], exitCode: 0, durationMs: 1_000, globalErrors: [], output: '' });

test('a fault whose rule the run left partly checked is reported not exercised, not caught, and one the run judged is caught', () => {
  const group = { name: 'creates', faults: ['duplicate-ids-under-load'] };
  const faults = [faultById('duplicate-ids-under-load')];
  const note = '[CREATE-5] concurrent creation was not exercised: at most 4 of 20 creates were in flight together (sent before the first of them was answered) in 3 batches, 10 needed';

  const partly = judgeGroup(group, faults, runOf(create5('passed', [], [{ type: 'unchecked', description: note }, { type: 'unchecked', description: note }])));
  expect(partly.outcomes.map(({ caughtBy, partlyChecked }) => ({ caught: caughtBy.length, partlyChecked }))).toEqual([{ caught: 0, partlyChecked: [note] }]);
  expect(describeOutcome(partly)).toContain(`CREATE-5 duplicate-ids-under-load: NOT EXERCISED, its rule left partly checked: ${note}`);

  const caught = judgeGroup(group, faults, runOf(create5('failed', ['Error: [CREATE-5] expected every created animal to get its own id, got id 139 for 20 of them'], [])));
  expect(caught.outcomes.map(({ caughtBy, partlyChecked }) => ({ caught: caughtBy.length, partlyChecked }))).toEqual([{ caught: 1, partlyChecked: [] }]);
  expect(describeOutcome(caught)).toContain('CREATE-5 duplicate-ids-under-load: caught by');
});
