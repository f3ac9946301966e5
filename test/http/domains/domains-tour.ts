// One successful request for every domains row (styles A and B), in an order where each succeeds:
// the OpenAPI tour's domains part (test/http/openapi-tour.ts), also used by the route tests. The
// callers are funded agents; `alice` ends owning both names (bob's sale offer accepted).
import type { JsonObject } from '../../../src/core/errors.ts';
import type { Mount } from '../../../src/http/route.ts';

type Send = (
  mount: Mount,
  method: string,
  path: string,
  options?: { key?: string; body?: unknown; query?: Record<string, string> },
) => JsonObject;

export function domainsTour(send: Send, keys: { readonly alice: string; readonly bob: string }): void {
  const { alice, bob } = keys;
  send('domains', 'GET', '/api/v1/check', { key: alice, query: { domain: 'alice.xyz' } });
  send('domains', 'POST', '/api/v1/register', { key: alice, body: { domain: 'alice.xyz', years: 2 } });
  send('domains', 'POST', '/api/v1/dns', {
    key: alice,
    body: {
      domain: 'alice.xyz',
      records: [
        { type: 'A', name: '@', value: '192.0.2.10', ttl: 300 },
        { type: 'MX', value: 'mail.alice.xyz', priority: 10 },
        { type: 'TXT', name: '_dmarc', value: 'v=DMARC1; p=none' },
      ],
    },
  });
  send('domains', 'GET', '/api/v1/dns', { key: bob, query: { domain: 'alice.xyz' } });
  send('domains', 'GET', '/api/v1/domains', { key: alice });
  send('domains', 'GET', '/api/v1/valuation', { key: alice, query: { domain: 'paybot.ai' } });
  send('api', 'POST', '/domains-api/register', {
    key: bob,
    body: { domain: 'bob-agent.xyz', years: 1, resolver: 'ns1.example.net' },
  });
  send('api', 'GET', '/domains-api/lookup/alice.xyz', { key: bob });
  send('api', 'GET', '/domains-api/domains', { key: bob });
  send('api', 'POST', '/domains-api/renew', { key: bob, body: { domain: 'bob-agent.xyz', years: 1 } });
  send('api', 'POST', '/domains-api/transfer', {
    key: bob,
    body: { domain: 'bob-agent.xyz', to: 'alice', price: '5.00' },
  });
  send('api', 'POST', '/domains-api/transfer', {
    key: alice,
    body: { domain: 'bob-agent.xyz', to: 'alice', price: '5.00' },
  });
}
