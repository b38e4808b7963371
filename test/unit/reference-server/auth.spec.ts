import { expect, test } from '@playwright/test';
import { Authenticator } from '../../../reference-server/auth.ts';
import { DEMO_KEYS } from '../../../lib/keys.ts';

const auth = new Authenticator(DEMO_KEYS);

test.describe('Authenticator', () => {
  test('knows each demo key and its plan', () => {
    expect(auth.authenticate('Bearer demo-free-1')).toEqual({ caller: { plan: 'free', key: 'demo-free-1', subject: 'key demo-free-1' } });
    expect(auth.authenticate('Bearer demo-enterprise-3')).toMatchObject({ caller: { plan: 'enterprise', key: 'demo-enterprise-3' } });
  });

  test('matches the scheme name in any case, with any run of spaces or tabs', () => {
    for (const header of ['bearer demo-pro-2', 'BEARER demo-pro-2', 'BeArEr \t demo-pro-2', ' Bearer demo-pro-2 ']) {
      expect(auth.authenticate(header), header).toMatchObject({ caller: { plan: 'pro', key: 'demo-pro-2' } });
    }
  });

  test('refuses, saying why but never echoing the key', () => {
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /header is missing/],
      ['', /header is missing/],
      ['demo-free-1', /must use the Bearer scheme/],
      ['Basic ZGVtby1mcmVlLTE6', /must use the Bearer scheme/],
      ['Bearerdemo-free-1', /must use the Bearer scheme/],
      ['Bearer', /bearer token is empty/],
      ['Bearer   ', /bearer token is empty/],
      ['Bearer demo-free-4', /not valid/],
      ['Bearer demo-free-1x', /not valid/],
      ['Bearer demo-free-', /not valid/],
      ['Bearer DEMO-FREE-1', /not valid/],
      ['Bearer demo-free-1 demo-free-2', /not valid/],
    ];
    for (const [header, reason] of cases) {
      const result = auth.authenticate(header);
      expect('problem' in result && result.problem, String(header)).toMatch(reason);
      expect(JSON.stringify(result)).not.toContain('demo-free');
    }
  });

  test('accepts only the keys it was given', () => {
    const custom = new Authenticator({ free: ['f'], pro: [], business: [], enterprise: ['e1', 'e2'] });
    expect(custom.authenticate('Bearer e2')).toMatchObject({ caller: { plan: 'enterprise', key: 'e2' } });
    expect('problem' in custom.authenticate('Bearer demo-free-1')).toBe(true);
  });

  test('a connection repeating its header gets the same verdict; a changed header is judged afresh', () => {
    const connection = {};
    const other = {};
    expect(auth.authenticateOn(connection, 'Bearer demo-pro-1')).toMatchObject({ caller: { plan: 'pro' } });
    expect(auth.authenticateOn(connection, 'Bearer demo-pro-1')).toBe(auth.authenticateOn(connection, 'Bearer demo-pro-1'));
    expect(auth.authenticateOn(connection, 'Bearer demo-pro-9')).toEqual({ problem: 'the API key is not valid' });
    expect(auth.authenticateOn(connection, undefined)).toMatchObject({ problem: expect.stringMatching(/missing/) });
    expect(auth.authenticateOn(other, 'Bearer demo-free-1')).toMatchObject({ caller: { plan: 'free' } });
    expect(auth.authenticateOn(connection, 'Bearer demo-free-1')).toMatchObject({ caller: { plan: 'free' } });
  });
});
