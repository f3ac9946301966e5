// The balance answer's recent activity asks the casino for its last 10 transactions, or fewer where
// the config's history page is smaller: with `historyLimitMax` 5, GET /api/v1/auth/balance used to
// answer 400 "limit must be an integer between 1 and 5" in both dialects, so a stand-in with that
// config could not be audited at all (every live command reads the balance first).
import { describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../../src/server/deployed-layout.ts';
import { DEFAULT_CONFIG } from '../../../src/services/shared/config.ts';
import { manualServes } from '../../fixtures/manual-serves.ts';

const config = { ...DEFAULT_CONFIG, casino: { ...DEFAULT_CONFIG.casino, historyLimitMax: 5, historyLimitDefault: 5 } };
const BASE = { trustedProxies: LOOPBACK_PROXIES, seed: '3', startMs: Date.parse('2025-03-01T00:00:00Z'), config };
const serves = {
  documents: manualServes({ ...BASE, routes: ALL_ROUTES }),
  deployed: manualServes({ ...BASE, routes: DEPLOYED_ROUTES, layout: DEPLOYED_LAYOUT }),
};

describe('GET /api/v1/auth/balance with a history page of 5', () => {
  test.each(['documents', 'deployed'] as const)(
    '%s: answered 200, its recent activity within the page',
    async (name) => {
      const handle = await serves[name]();
      const casino = handle.urls.casino as string;
      const registered = (await (
        await fetch(`${casino}/api/v1/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).json()) as { api_key: string };
      const answer = await fetch(`${casino}/api/v1/auth/balance`, {
        headers: { authorization: `Bearer ${registered.api_key}` },
      });
      const body = (await answer.json()) as Record<string, unknown>;
      expect(answer.status, JSON.stringify(body)).toBe(200);
      const recent = body['recent_activity'] ?? body['recent_transactions'] ?? body['transactions'];
      expect(Array.isArray(recent) ? recent.length : 0).toBeLessThanOrEqual(5);
    },
  );
});
