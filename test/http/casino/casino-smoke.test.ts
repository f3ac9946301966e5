// Every casino row answers a valid request with its documented success status, through the one
// dispatcher, and the ledger still sums to zero afterwards.
import { expect, test } from 'vitest';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { casinoTour, casinoWorld } from './casino-world.ts';

test('a valid request for every casino row succeeds', () => {
  const w = casinoWorld();
  const answered = new Map<string, number[]>();
  casinoTour(
    (mount, method, path, options = {}) => {
      const response = w.call(mount, method, path, {
        key: options.key ?? null,
        body: options.body,
        query: options.query ?? {},
      });
      if (response.routeId !== null)
        answered.set(response.routeId, [...(answered.get(response.routeId) ?? []), response.status]);
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
      return response;
    },
    { alice: w.keys.alice, bob: w.keys.bob },
    w.nowMs,
  );
  const casinoRows = ALL_ROUTES.filter((route) => route.service === 'casino')
    .map((route) => route.id)
    .sort();
  expect([...answered.keys()].sort()).toEqual(casinoRows);
  expect(w.platform.ledger.sumMicro).toBe(0n);
  expect(w.platform.ledger.negativeAccounts()).toEqual([]);
});
