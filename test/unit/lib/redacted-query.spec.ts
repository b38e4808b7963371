/**
 * A query a gateway's log redacted whole, because it carried a credential (the how-to's nginx map writes
 * `?<redacted>`), says nothing of what was asked: a page of 50 to it is no LIST-2 failure, as 50 may have been asked.
 */
import { expect, test } from '@playwright/test';
import { JsonBody } from '../../../lib/json-body.ts';
import { judgeRequestAnswer, type RequestAnswer } from '../../../lib/request-rules.ts';

const PAGE = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i + 1, name: 'Rex', categoryId: 1, status: 'sold' })));

function listed(path: string): RequestAnswer {
  return { operation: 'listPets', method: 'GET', path, requestContentType: undefined, requestBody: undefined, credential: 'configured', kind: 'within', status: 200, responseHeaders: {}, responseBody: new JsonBody(PAGE) };
}

test('a redacted query judges only what needs no query: LIST-4 and LIST-5, not the page size or the filter asked', () => {
  for (const path of ['/pets?<redacted>', '/pets?%3Credacted%3E']) {
    const findings = judgeRequestAnswer(listed(path));
    expect(findings.violations, path).toEqual([]);
    expect(findings.judged.sort(), path).toEqual(['AUTH-5', 'LIST-4', 'LIST-5', 'VER-3']);
  }
  expect(judgeRequestAnswer(listed('/pets')).violations.map((violation) => violation.rule)).toEqual(['LIST-2']);
});
