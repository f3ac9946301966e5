// The router: static before parameters, 405 for known paths, decoded parameters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { succeed } from '../../src/core/errors.ts';
import { defineRoute, type HttpMethod, type Mount, type Route } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Router, type RouteMatch } from '../../src/http/router.ts';

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
    expect(router.match('escrow', 'DELETE', '/api/v1/escrow/create')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['POST'],
    });
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
    expect(() => new Router([row('api', 'GET', '/agents'), row('api', 'GET', '/agents')])).toThrow(
      'duplicate route api GET /agents',
    );
    expect(
      () => new Router([row('api', 'GET', '/agents'), row('faucet', 'GET', '/agents'), row('api', 'POST', '/agents')]),
    ).not.toThrow();
  });

  it('answers as a plain split-and-compare router does, on the full table and random paths', () => {
    const full = new Router(ALL_ROUTES);
    const mounts: readonly Mount[] = ['api', 'faucet', 'escrow', 'casino', 'domains'];
    const methods: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
    // Segments the table uses, plus parameter-like values, empties and encodings.
    const words = [
      ...new Set(ALL_ROUTES.flatMap((route) => route.path.split('/')).filter((segment) => !segment.startsWith(':'))),
    ];
    const segment = fc.oneof(fc.constantFrom(...words), fc.constantFrom('esc_1', 'x', '', 'a%20b', '%E0%A4%A', 'list'));
    const path = fc.array(segment, { minLength: 1, maxLength: 7 }).map((segments) => segments.join('/'));
    fc.assert(
      fc.property(fc.constantFrom(...mounts), fc.constantFrom(...methods), path, (mount, method, candidate) => {
        expect(full.match(mount, method, candidate)).toEqual(referenceMatch(ALL_ROUTES, mount, method, candidate));
      }),
      { seed: 42, numRuns: 3000 },
    );
    for (const route of ALL_ROUTES) {
      const concrete = route.path.replace(/:[A-Za-z]+/g, 'id_1');
      const found = full.match(route.mount, route.method, concrete);
      expect(found).toEqual(referenceMatch(ALL_ROUTES, route.mount, route.method, concrete));
      expect(found.kind === 'found' && found.route.id).toBe(route.id);
    }
  });
});

/** The definition the router implements: exact static paths first, then parameter rows by specificity. */
function referenceMatch(routes: readonly Route[], mount: Mount, method: string, path: string): RouteMatch {
  const statics = routes.filter((route) => route.mount === mount && !route.path.includes(':') && route.path === path);
  if (statics.length > 0) {
    const route = statics.find((candidate) => candidate.method === method);
    return route === undefined
      ? { kind: 'method-not-allowed', allowed: statics.map((candidate) => candidate.method) }
      : { kind: 'found', route, params: {} };
  }
  const score = (route: Route): number =>
    route.path
      .split('/')
      .reduce((sum, part) => sum + (part.startsWith(':') ? 0 : 1), route.path.split('/').length * 100);
  const patterns = routes
    .filter((route) => route.mount === mount && route.path.includes(':'))
    .sort((a, b) => score(b) - score(a));
  const allowed: HttpMethod[] = [];
  for (const route of patterns) {
    const want = route.path.split('/');
    const have = path.split('/');
    if (want.length !== have.length) continue;
    const params: Record<string, string> = {};
    let matches = true;
    for (let index = 0; index < want.length && matches; index++) {
      const text = want[index] as string;
      const value = have[index] as string;
      if (!text.startsWith(':')) {
        matches = text === value;
        continue;
      }
      const decoded = decodeOrNull(value);
      if (decoded === null) matches = false;
      else params[text.slice(1)] = decoded;
    }
    if (!matches) continue;
    if (route.method === method) return { kind: 'found', route, params };
    if (!allowed.includes(route.method)) allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
}

function decodeOrNull(segment: string): string | null {
  if (segment === '') return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
