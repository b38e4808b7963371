import { expect, test } from '@playwright/test';
import { DEFAULT_START_TIMEOUT_SECONDS, ImplementationsFileError, parseImplementations } from '../../matrix/implementations-file.ts';

const FILE = '/work/x/implementations.yaml';

test('a valid file gives each entry its reach, keys, flags and expectations path', () => {
  const parsed = parseImplementations(
    `implementations:
  - name: reference
    bundled: true
  - name: express
    version: "4.21 / express-rate-limit 7"
    start: npm --prefix examples/express start
    startTimeoutSeconds: 120
    expectations: examples/express/expectations.yaml
  - name: staging
    baseUrl: https://staging.example.com/v1/
    keys: { free: STAGING_FREE, pro: STAGING_PRO }
    readOnly: true
`,
    FILE,
  );
  expect(parsed.rejected).toEqual([]);
  expect(parsed.order).toEqual(['reference', 'express', 'staging']);
  const [reference, express, staging] = parsed.implementations;
  expect(reference).toMatchObject({ name: 'reference', reach: { kind: 'bundled' }, keys: { kind: 'demo' }, quotaTests: true, readOnly: false });
  expect(express).toMatchObject({ version: '4.21 / express-rate-limit 7', reach: { kind: 'start', timeoutMs: 120_000 }, expectations: '/work/x/examples/express/expectations.yaml', quotaTests: false });
  expect(staging).toMatchObject({ reach: { kind: 'url', baseUrl: 'https://staging.example.com/v1' }, keys: { kind: 'variables', variables: { free: 'STAGING_FREE', pro: 'STAGING_PRO' } }, readOnly: true });
  expect(parseImplementations('implementations:\n  - { name: a, start: "x" }\n', FILE).implementations[0]?.reach).toEqual({ kind: 'start', command: 'x', timeoutMs: DEFAULT_START_TIMEOUT_SECONDS * 1000 });
});

test('each bad entry is one line naming it and what is wrong; the good entries still stand', () => {
  const parsed = parseImplementations(
    `implementations:
  - name: good
    bundled: true
  - name: typo
    baseurl: http://127.0.0.1:8080/v1
  - name: both
    bundled: true
    start: node server.js
  - name: literal-key
    baseUrl: http://127.0.0.1:8080/v1
    keys: { free: "sk-live-1234 5678" }
  - name: no-keys
    baseUrl: http://127.0.0.1:8080/v1
  - name: demo-remote
    baseUrl: http://127.0.0.1:8080/v1
    keys: demo
  - name: "../escape"
    bundled: true
  - name: good
    bundled: true
  - bundled: true
  - name: slow
    start: sleep 1
    startTimeoutSeconds: forever
  - name: creds
    baseUrl: http://user:pw@127.0.0.1:8080/v1
    keys: { free: K }
  - name: plan
    baseUrl: http://127.0.0.1:8080/v1
    keys: { gold: K }
`,
    FILE,
  );
  expect(parsed.implementations.map((item) => item.name)).toEqual(['good']);
  const problems = Object.fromEntries(parsed.rejected.map(({ name, problem }) => [name, problem]));
  expect(problems.typo).toContain('unknown field "baseurl"');
  expect(problems.both).toBe('gives both start and bundled; give one');
  expect(problems['literal-key']).toContain('NAME of an environment variable');
  expect(problems['literal-key']).not.toContain('sk-live');
  expect(problems['no-keys']).toContain('needs keys');
  expect(problems['demo-remote']).toContain('not a baseUrl');
  expect(problems['../escape']).toContain('letters, digits');
  expect(problems['good (entry 8)']).toContain('used by an earlier entry');
  expect(problems['entry 9']).toBe('needs a name');
  expect(problems.slow).toContain('startTimeoutSeconds must be a number');
  expect(problems.creds).toContain('must not carry credentials');
  expect(problems.plan).toContain('unknown plan "gold"');
  for (const { problem } of parsed.rejected) expect(problem).not.toContain('\n');
});

test('a file that is not an implementations file at all is one error naming the file', () => {
  for (const [text, message] of [
    ['implementations: [', 'not valid YAML'],
    ['targets: []', 'expected "implementations:"'],
    ['implementations: []', 'expected "implementations:"'],
    ['implementations:\n  - { name: a, bundled: true }\nextra: 1', 'unknown top-level field "extra"'],
  ] as const) {
    expect(() => parseImplementations(text, FILE), text).toThrow(ImplementationsFileError);
    expect(() => parseImplementations(text, FILE), text).toThrow(message);
  }
});
