/** LIST-7's test alone against a reference server whose store is seeded full, or nearly, status by status. */
import { expect } from '@playwright/test';
import { faultById } from './faults.ts';
import { ruleTitle, runSuite, type SuiteTest } from './run-suite.ts';
import { startVariant } from './variant-target.ts';

const LIST_7 = [ruleTitle('LIST-7', 'an animal just created')];

/** The reference server seeds statuses in turn (3 available, 2 pending, 1 sold of every 6). */
export const EVERY_STATUS_FULL = 600;
/** 296 available, 196 pending, 98 sold: one sold animal more still leaves its list short of a full page. */
export const SOLD_NOT_FULL = 590;

/** The functional LIST-7 test, run alone against a server seeded with `seedPets` animals (behind `fault`, if named). */
export async function list7(label: string, seedPets: number, fault?: string): Promise<SuiteTest> {
  const target = await startVariant({ seedPets, ...(fault ? { transforms: [faultById(fault).proxy!] } : {}) });
  try {
    const run = await runSuite({ label, baseUrl: target.baseUrl, titles: LIST_7 });
    expect(run.tests.map((test) => test.title)).toHaveLength(1);
    return run.tests[0]!;
  } finally {
    await target.close();
  }
}

/** A test's annotations of one type (the JSON report lists them on the test and on its result alike). */
export const notes = (test: SuiteTest, type: string): string[] => [...new Set(test.annotations.filter((annotation) => annotation.type === type).map((annotation) => annotation.description ?? ''))];
