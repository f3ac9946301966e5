// The router: static before parameters, 405 for known paths, decoded parameters.
import { describe, expect, it } from 'vitest';
import { succeed } from '../../src/core/errors.ts';
import { defineRoute, type HttpMethod, type Mount, type Route } from '../../src/http/route.ts';
import { Router } from '../../src/http/router.ts';

function row(mount: Mount, method: HttpMethod, path: string): Route {
  return defineRoute({
    id: `${method} ${path}`,
    service: 'escrow',
    style: 'A',
    mount,
    method,
    path,
    auth: 'none',
    summary: 'test row',
    parse: () => ({}),
    run: () => succeed({}),
    successStatus: 200,
    render: () => ({}),
  });
}

describe('Router', () => {
  const router = new Router([
    row('escrow', 'GET', '/api/v1/escrow/:id'),
    row('escrow', 'GET', '/api/v1/escrow/list'),
    row('escrow', 'POST', '/api/v1/escrow/create'),
    row('api', 'POST', '/escrow/:id/release'),
    row('api', 'GET', '/escrow/:id'),
  ]);

  it('prefers static paths over parameters', () => {
    const list = router.match('escrow', 'GET', '/api/v1/escrow/list');
    expect(list.kind === 'found' && list.route.path).toBe('/api/v1/escrow/list');
    const byId = router.match('escrow', 'GET', '/api/v1/escrow/esc_1');
    expect(byId.kind === 'found' && byId.params).toEqual({ id: 'esc_1' });
  });

  it('decodes parameters and refuses malformed encodings', () => {
    const found = router.match('api', 'POST', '/escrow/a%20b/release');
    expect(found.kind === 'found' && found.params['id']).toBe('a b');
    expect(router.match('api', 'POST', '/escrow/%E0%A4%A/release').kind).toBe('not-found');
  });

  it('answers method-not-allowed with the allowed methods, and not-found otherwise', () => {
    expect(router.match('escrow', 'DELETE', '/api/v1/escrow/create')).toEqual({ kind: 'method-not-allowed', allowed: ['POST'] });
    expect(router.match('api', 'PUT', '/escrow/x')).toEqual({ kind: 'method-not-allowed', allowed: ['GET'] });
    expect(router.match('api', 'GET', '/nothing').kind).toBe('not-found');
    expect(router.match('faucet', 'GET', '/api/v1/escrow/list').kind).toBe('not-found');
  });

  it('answers static paths with one frozen match per row, allocated once', () => {
    const first = router.match('escrow', 'POST', '/api/v1/escrow/create');
    expect(first.kind).toBe('found');
    expect(router.match('escrow', 'POST', '/api/v1/escrow/create')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(router.match('escrow', 'GET', '/api/v1/escrow/create'))).toBe(true);
    expect(router.match('api', 'GET', '/nothing')).toBe(router.match('faucet', 'GET', '/else'));
  });

  it('matches parameter rows segment by segment: counts, empty segments and static texts must agree', () => {
    expect(router.match('api', 'GET', '/escrow/esc_1/').kind).toBe('not-found');
    expect(router.match('api', 'GET', '/escrow/').kind).toBe('not-found');
    expect(router.match('api', 'POST', '/escrow//release').kind).toBe('not-found');
    expect(router.match('api', 'POST', '/escrow/x/releasex').kind).toBe('not-found');
    expect(router.match('api', 'POST', '/escrow/x/releas').kind).toBe('not-found');
    expect(router.match('api', 'POST', 'escrow/x/release').kind).toBe('not-found');
    expect(router.match('api', 'GET', '/escrowx/esc_1').kind).toBe('not-found');
    const found = router.match('api', 'POST', '/escrow/esc_9/release');
    expect(found.kind === 'found' && found.params).toEqual({ id: 'esc_9' });
  });

  it('refuses two rows for the same mount, method and path', () => {
    expect(() => new Router([row('api', 'GET', '/agents'), row('api', 'GET', '/agents')])).toThrow('duplicate route api GET /agents');
    expect(() => new Router([row('api', 'GET', '/agents'), row('faucet', 'GET', '/agents'), row('api', 'POST', '/agents')])).not.toThrow();
  });
});
