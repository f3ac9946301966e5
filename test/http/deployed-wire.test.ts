// The deployed wire's table (src/http/deployed/deployed-wire.ts) against the stand-in's rows: every
// row `afp serve --dialect deployed` serves is in the table under its id with its mount, method and
// path, and every endpoint the table says is served has its row; `deployedPath` fills the
// parameters URL-encoded and refuses a missing or unknown one (a bug of the caller).
import { describe, expect, it } from 'vitest';
import { AssertionFailure } from '../../src/core/assert.ts';
import { DEPLOYED_WIRE, deployedBracedPath, deployedPath } from '../../src/http/deployed/deployed-wire.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';

describe('the deployed wire', () => {
  it('names every row of the stand-in with its mount, method and path, and no served endpoint without a row', () => {
    const rows = DEPLOYED_ROUTES.map((route) => [
      route.id,
      { service: route.mount, method: route.method, path: route.path },
    ]);
    const served = Object.entries(DEPLOYED_WIRE)
      .filter(([, endpoint]) => !('served' in endpoint))
      .map(([name, endpoint]) => [name, { service: endpoint.service, method: endpoint.method, path: endpoint.path }]);
    expect(rows.length).toBeGreaterThan(100);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(served));
    expect(DEPLOYED_ROUTES.every((route) => route.service === route.mount)).toBe(true);
  });

  it('fills parameters URL-encoded, one segment each', () => {
    expect(deployedPath('escrow.deployed.release', { id: 'esc 1/2' })).toBe('/escrow/release/esc%201%2F2');
    expect(deployedPath('domains.deployed.dns.update', { recordId: 'r1' })).toBe('/v1/dns/records/r1');
    expect(deployedPath('trading.deployed.open')).toBe('/v1/trade/open');
    expect(deployedBracedPath('domains.deployed.whois')).toBe('/v1/whois/{name}');
  });

  it('refuses a missing or an unknown parameter as a bug', () => {
    expect(() => deployedPath('escrow.deployed.get')).toThrow(AssertionFailure);
    expect(() => deployedPath('trading.deployed.open', { id: 'x' })).toThrow(AssertionFailure);
  });
});
