import { expect, test } from '@playwright/test';
import { configFromEnv, DEFAULT_ANONYMOUS_PER_MINUTE, DEFAULT_SEED_PETS } from '../../../reference-server/config.ts';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { plans } from '../../../lib/plans.ts';

test.describe('configFromEnv', () => {
  test('an empty environment gives the documented defaults', () => {
    expect(configFromEnv({})).toEqual({
      host: '127.0.0.1',
      port: 8080,
      keys: DEMO_KEYS,
      quotas: {
        free: { perMinute: 60, perDay: 1000 },
        pro: { perMinute: 300, perDay: 10000 },
        business: { perMinute: 1000, perDay: 100000 },
        enterprise: plans.enterprise.referenceDefault,
      },
      anonymousPerMinute: DEFAULT_ANONYMOUS_PER_MINUTE,
      timeScale: 1,
      clockRate: 1,
      clockAnchorMs: undefined,
      seedPets: DEFAULT_SEED_PETS,
      log: 'json',
      maxBodyBytes: 65536,
    });
  });

  test('reads every variable', () => {
    const config = configFromEnv({
      HOST: '0.0.0.0',
      PORT: '0',
      PETSTORE_API_KEY_FREE: 'a, b',
      PETSTORE_API_KEY_ENTERPRISE: 'e',
      PETSTORE_TIME_SCALE: '60',
      PETSTORE_ENTERPRISE_PER_MINUTE: '5000',
      PETSTORE_ENTERPRISE_PER_DAY: '90000',
      PETSTORE_SEED_PETS: '1000000',
      PETSTORE_LOG: 'off',
      PETSTORE_ANONYMOUS_PER_MINUTE: '30',
    });
    expect(config).toMatchObject({ host: '0.0.0.0', port: 0, timeScale: 60, seedPets: 1_000_000, log: 'off', anonymousPerMinute: 30 });
    expect(config.keys).toEqual({ free: ['a', 'b'], pro: DEMO_KEYS.pro, business: DEMO_KEYS.business, enterprise: ['e'] });
    expect(config.quotas.enterprise).toEqual({ perMinute: 5000, perDay: 90000 });
    expect(configFromEnv({ PETSTORE_TIME_SCALE: '0.5' }).timeScale).toBe(0.5);
    expect(configFromEnv({ PETSTORE_CLOCK_RATE: '360', PETSTORE_CLOCK_ANCHOR_MS: '1795000000000' })).toMatchObject({ timeScale: 1, clockRate: 360, clockAnchorMs: 1_795_000_000_000 });
  });

  test('a blank variable means the default', () => {
    expect(configFromEnv({ PORT: '', PETSTORE_TIME_SCALE: '  ' })).toMatchObject({ port: 8080, timeScale: 1 });
  });

  test('a bad value is one line naming the variable and what it should hold', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'http' }, /^PORT must be a whole number from 0 to 65535, got "http"$/],
      [{ PORT: '70000' }, /^PORT must be a whole number/],
      [{ PORT: '-1' }, /^PORT must be a whole number/],
      [{ PETSTORE_TIME_SCALE: '0' }, /^PETSTORE_TIME_SCALE must be a positive number/],
      [{ PETSTORE_TIME_SCALE: '-2' }, /^PETSTORE_TIME_SCALE must be a positive number/],
      [{ PETSTORE_TIME_SCALE: 'fast' }, /^PETSTORE_TIME_SCALE must be a positive number/],
      [{ PETSTORE_TIME_SCALE: 'Infinity' }, /^PETSTORE_TIME_SCALE must be a positive number/],
      [{ PETSTORE_CLOCK_RATE: 'x' }, /^PETSTORE_CLOCK_RATE must be a positive number/],
      [{ PETSTORE_CLOCK_RATE: '60', PETSTORE_TIME_SCALE: '60' }, /^PETSTORE_TIME_SCALE and PETSTORE_CLOCK_RATE both speed up time; set one of them$/],
      [{ PETSTORE_CLOCK_ANCHOR_MS: 'now' }, /^PETSTORE_CLOCK_ANCHOR_MS must be a whole number/],
      [{ PETSTORE_ENTERPRISE_PER_MINUTE: '0' }, /^PETSTORE_ENTERPRISE_PER_MINUTE must be a whole number from 1/],
      [{ PETSTORE_ENTERPRISE_PER_DAY: '1.5' }, /^PETSTORE_ENTERPRISE_PER_DAY must be a whole number/],
      [{ PETSTORE_SEED_PETS: '20000000' }, /^PETSTORE_SEED_PETS must be a whole number from 0 to 10000000/],
      [{ PETSTORE_LOG: 'verbose' }, /^PETSTORE_LOG must be json or off, got "verbose"$/],
      [{ PETSTORE_API_KEY_FREE: 'has space' }, /^PETSTORE_API_KEY_FREE: a key may hold only visible ASCII/],
      [{ PETSTORE_API_KEY_FREE: 'same', PETSTORE_API_KEY_PRO: 'same' }, /^a key is listed in both PETSTORE_API_KEY_FREE and PETSTORE_API_KEY_PRO/],
    ];
    for (const [env, message] of cases) expect(() => configFromEnv(env), JSON.stringify(env)).toThrow(message);
  });
});
