import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { keptFileOf, parseYamlCached } from '../../../lib/yaml-cache.ts';

/** A text no other run has kept: the cache is shared by every process of the user. */
function freshText(body: string): string {
  return `# ${randomUUID()}\n${body}`;
}

test.describe('YAML parsed once per text', () => {
  test('gives what the parser gives, and keeps it as JSON for the next process', () => {
    const text = freshText('plans:\n  pro: { perMinute: 300, names: [a, "b"] }\n  free: ~\n');
    const file = keptFileOf(text)!;
    expect(existsSync(file)).toBe(false);
    expect(parseYamlCached(text)).toEqual(parse(text));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(parse(text));
    rmSync(file);
  });

  test('a kept value is read back, not parsed again; one cut short is parsed again', () => {
    const text = freshText('a: 1\n');
    const file = keptFileOf(text)!;
    writeFileSync(file, '{"a": 2}');
    expect(parseYamlCached(text)).toEqual({ a: 2 });
    writeFileSync(file, '{"a": ');
    expect(parseYamlCached(text)).toEqual({ a: 1 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ a: 1 });
    rmSync(file);
  });

  test('a value JSON would change is parsed each time, not kept', () => {
    const text = freshText('limit: .inf\n');
    expect(parseYamlCached(text)).toEqual({ limit: Infinity });
    expect(existsSync(keptFileOf(text)!)).toBe(false);
  });
});
