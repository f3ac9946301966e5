// The k6 the tests run (test/fixtures/k6-binary.ts): K6_BIN first, then PATH, then the project's
// copy in ../shared/tools; none found is a skip with its reason outside CI, a requirement under it.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { k6Required, lookupK6 } from '../fixtures/k6-binary.ts';

const ROOT = '/home/u/afp';
const SHARED = join('/home/u/shared', 'tools', 'k6-v1.3.0', 'k6');
const ON_PATH = '/opt/bin/k6';
const OWN = '/tmp/my-k6';

function lookup(env: Record<string, string>, present: readonly string[]): ReturnType<typeof lookupK6> {
  return lookupK6({ env, executable: (path) => present.includes(path), root: ROOT });
}

describe('where the tests find k6', () => {
  test('K6_BIN wins over PATH and ../shared; PATH over ../shared; ../shared last', () => {
    const all = [SHARED, ON_PATH, OWN];
    expect(lookup({ K6_BIN: OWN, PATH: '/usr/bin:/opt/bin' }, all)).toStrictEqual({ path: OWN, from: 'K6_BIN' });
    expect(lookup({ PATH: '/usr/bin:/opt/bin' }, all)).toStrictEqual({ path: ON_PATH, from: 'PATH' });
    expect(lookup({ PATH: '/usr/bin' }, all)).toStrictEqual({ path: SHARED, from: '../shared/tools' });
  });

  test('a K6_BIN that is no executable is said, not passed over for another k6', () => {
    const found = lookup({ K6_BIN: '/nowhere/k6', PATH: '/opt/bin' }, [ON_PATH]);
    expect(found).toStrictEqual({ path: null, why: 'K6_BIN=/nowhere/k6 is not an executable file' });
  });

  test('none anywhere: the reason names every place looked at and where the install is told', () => {
    const found = lookup({ PATH: '/usr/bin' }, []);
    expect(found.path).toBeNull();
    expect('why' in found ? found.why : '').toBe(
      'no k6: K6_BIN unset, none on PATH, none at ../shared/tools/k6-v1.3.0/k6 (install k6: docs/load.md "Installing k6")',
    );
  });

  test('required under CI (a skip there would hide a broken set-up), skipped elsewhere', () => {
    expect(k6Required({ CI: 'true' })).toBe(true);
    expect(k6Required({ CI: '' })).toBe(false);
    expect(k6Required({})).toBe(false);
  });
});
