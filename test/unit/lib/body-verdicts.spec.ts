/** Remembered body verdicts: the same text is judged once, the verdict is the one judging gives, and memory stays bounded. */
import { expect, test } from '@playwright/test';
import { BodyVerdicts, type BodyVerdict } from '../../../lib/body-verdicts.ts';
import { checkResponse } from '../../../lib/response-checks.ts';
import { JsonBody } from '../../../lib/json-body.ts';
import { operation } from '../../../lib/contract.ts';

const valid: BodyVerdict = { empty: false, problems: [] };

function counted(verdicts: BodyVerdicts): { judge: (operation: 'listPets' | 'getPet', status: number, text: string) => BodyVerdict; judged: () => number } {
  let judged = 0;
  return {
    judge: (operation, status, text) => {
      const body = new JsonBody(text);
      const known = verdicts.known(operation, status, body);
      if (known) return known;
      judged++;
      verdicts.remember(operation, status, body, valid);
      return valid;
    },
    judged: () => judged,
  };
}

test('the same text for the same operation and status is judged once; another operation or status is judged apart', () => {
  const { judge, judged } = counted(new BodyVerdicts(1_000));
  judge('getPet', 200, '{"id":1}');
  judge('getPet', 200, '{"id":1}');
  expect(judged()).toBe(1);
  judge('getPet', 404, '{"id":1}');
  judge('listPets', 200, '{"id":1}');
  judge('getPet', 200, '{"id":2}');
  expect(judged()).toBe(4);
});

test('past its budget of characters the oldest texts are forgotten, and a text longer than 16 KiB is never kept', () => {
  const { judge, judged } = counted(new BodyVerdicts(20));
  for (const text of ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc']) judge('getPet', 200, text);
  expect(judged()).toBe(3);
  judge('getPet', 200, 'cccccccccc');
  judge('getPet', 200, 'bbbbbbbbbb');
  expect(judged()).toBe(3);
  judge('getPet', 200, 'aaaaaaaaaa');
  expect(judged()).toBe(4);

  const { judge: judgeLong, judged: judgedLong } = counted(new BodyVerdicts(1_000_000));
  const long = 'x'.repeat(16_385);
  judgeLong('getPet', 200, long);
  judgeLong('getPet', 200, long);
  expect(judgedLong()).toBe(2);
});

test('a body shared among answers finds its verdict by itself, even once its text is forgotten', () => {
  const verdicts = new BodyVerdicts(10);
  const shared = new JsonBody('aaaaaaaaaa');
  verdicts.remember('getPet', 200, shared, valid);
  verdicts.remember('getPet', 200, new JsonBody('bbbbbbbbbb'), valid);
  expect(verdicts.known('getPet', 200, new JsonBody('aaaaaaaaaa'))).toBeUndefined();
  expect(verdicts.known('getPet', 200, shared)).toBe(valid);
  expect(verdicts.known('getPet', 404, shared)).toBeUndefined();
});

test('a body met again earns the same violations, and its Content-Type is still judged each time', () => {
  const bad = '{"id":"seven","name":"Rex","categoryId":2}';
  const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 30) };
  const first = checkResponse({ operation: operation('getPet'), status: 200, headers, body: bad });
  const again = checkResponse({ operation: operation('getPet'), status: 200, headers, body: bad });
  expect(first.map((violation) => violation.rule)).toEqual(['RESP-2']);
  expect(again).toEqual(first);
  const asText = checkResponse({ operation: operation('getPet'), status: 200, headers: { ...headers, 'content-type': 'text/plain' }, body: bad });
  expect(asText.map((violation) => violation.rule)).toEqual(['SVC-1', 'RESP-2']);
});
