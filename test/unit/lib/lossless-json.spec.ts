import { expect, test } from '@playwright/test';
import { idText, JsonSyntaxError, parseLossless, stringifyLossless } from '../../../lib/lossless-json.ts';

test.describe('lossless JSON', () => {
  test('keeps integers above 2^53 exact as BigInt', () => {
    const value = parseLossless('{"id": 9007199254740993, "small": 7, "neg": -9223372036854775808}') as Record<string, unknown>;
    expect(value.id).toBe(9007199254740993n);
    expect(value.small).toBe(7);
    expect(value.neg).toBe(-9223372036854775808n);
  });

  test('parses what JSON.parse parses, the same way, for safe values', () => {
    const text = '{"a":[1,2.5,-3e2,true,false,null,"x\\"y\\u00e9"],"b":{"c":{}},"d":[]}';
    expect(parseLossless(text)).toEqual(JSON.parse(text));
  });

  test('rejects malformed text with a position', () => {
    for (const bad of ['', '{', '{"a":}', '[1,]', '{"a":1}x', 'nul', '"open', '{a:1}', '01']) {
      expect(() => parseLossless(bad), bad).toThrow(JsonSyntaxError);
    }
  });

  test('does not let __proto__ in data change the prototype', () => {
    const value = parseLossless('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  test('round-trips BigInts as bare integer literals', () => {
    const text = '{"id":18446744073709551615,"name":"a"}';
    expect(stringifyLossless(parseLossless(text))).toBe(text);
  });

  test('idText gives exact decimal text for numbers and BigInts only', () => {
    expect(idText(12)).toBe('12');
    expect(idText(9007199254740993n)).toBe('9007199254740993');
    expect(idText(1.5)).toBeUndefined();
    expect(idText('12')).toBeUndefined();
  });
});

test('refuses nesting past MAX_DEPTH with a syntax error instead of overflowing the stack', () => {
  expect(() => parseLossless('['.repeat(100_000) + ']'.repeat(100_000))).toThrow(/Nesting deeper than 512 levels/);
  const deepest = '['.repeat(512) + ']'.repeat(512);
  expect(() => parseLossless(deepest)).not.toThrow();
  expect(() => parseLossless('{"a":'.repeat(513) + '1' + '}'.repeat(513))).toThrow(JsonSyntaxError);
});

test('gives the same tree whichever way it parses: natively for plain text, carefully past 2^53 or deep', () => {
  const deep = `${'['.repeat(300)}${'{"a":'.repeat(250)}1${'}'.repeat(250)}${']'.repeat(300)}`;
  expect(() => parseLossless(deep)).toThrow(/Nesting deeper than 512 levels/);
  const long = `[${Array.from({ length: 600 }, (_, index) => `{"id":${index},"n":"x"}`).join(',')}]`;
  expect(parseLossless(long)).toEqual(JSON.parse(long));
  const mixed = parseLossless('{"small":9007199254740991,"big":9007199254740993,"name":"1234567890123456789"}') as Record<string, unknown>;
  expect(mixed).toEqual({ small: 9007199254740991, big: 9007199254740993n, name: '1234567890123456789' });
});

test('a repeated key keeps its last value on either path, as JSON.parse does (lossless-json alone would refuse the body)', () => {
  expect(parseLossless('{"a":1,"a":2}')).toEqual({ a: 2 });
  expect(parseLossless('{"a":1,"a":9007199254740993}')).toEqual({ a: 9007199254740993n });
  expect(() => parseLossless('[9007199254740993, "a\tb"]')).toThrow(JsonSyntaxError);
});
