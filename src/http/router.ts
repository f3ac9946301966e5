/**
 * Router: finds the row for (mount, method, path). Static paths are two Map lookups (mount, then
 * path) answering a match built once at construction, so the common request allocates nothing;
 * paths with `:name` parameters are matched segment by segment, static segments before
 * parameters, so `/api/v1/escrow/list` wins over `/api/v1/escrow/:id`. A path known under another
 * method answers 405 with the allowed methods (in table order).
 * Invariant: matches are shared and frozen; callers only read them.
 */
import type { HttpMethod, Mount, Route } from './route.ts';

export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly HttpMethod[] }
  | { readonly kind: 'not-found' };

interface PatternRow {
  readonly route: Route;
  readonly segments: readonly string[];
}

/** The answers for one static path: a match per method, and the 405 for any other method. */
interface StaticPath {
  readonly found: ReadonlyMap<string, RouteMatch>;
  readonly notAllowed: RouteMatch;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});
const NOT_FOUND: RouteMatch = Object.freeze({ kind: 'not-found' });

export class Router {
  private readonly staticPaths = new Map<Mount, Map<string, StaticPath>>();
  private readonly patterns = new Map<Mount, PatternRow[]>();
  readonly routes: readonly Route[];

  constructor(routes: readonly Route[]) {
    this.routes = routes;
    const staticRows = new Map<Mount, Map<string, Route[]>>();
    for (const route of routes) {
      if (route.path.includes(':')) {
        const rows = this.patterns.get(route.mount) ?? [];
        rows.push({ route, segments: route.path.split('/') });
        this.patterns.set(route.mount, rows);
      } else {
        const byPath = staticRows.get(route.mount) ?? new Map<string, Route[]>();
        staticRows.set(route.mount, byPath);
        const rows = byPath.get(route.path) ?? [];
        if (rows.some((row) => row.method === route.method)) throw new Error(`duplicate route ${route.mount} ${route.method} ${route.path}`);
        rows.push(route);
        byPath.set(route.path, rows);
      }
    }
    for (const [mount, byPath] of staticRows) {
      const paths = new Map<string, StaticPath>();
      for (const [path, rows] of byPath) {
        const found = new Map(rows.map((route): [string, RouteMatch] => [route.method, Object.freeze({ kind: 'found', route, params: NO_PARAMS })]));
        const allowed = Object.freeze(rows.map((route) => route.method));
        paths.set(path, { found, notAllowed: Object.freeze({ kind: 'method-not-allowed', allowed }) });
      }
      this.staticPaths.set(mount, paths);
    }
    for (const rows of this.patterns.values()) rows.sort((a, b) => specificity(b.segments) - specificity(a.segments));
  }

  match(mount: Mount, method: string, path: string): RouteMatch {
    // A static path owns its URL outright: parameter rows never answer for it.
    const known = this.staticPaths.get(mount)?.get(path);
    if (known !== undefined) return known.found.get(method) ?? known.notAllowed;
    const rows = this.patterns.get(mount);
    if (rows === undefined) return NOT_FOUND;
    const allowed: HttpMethod[] = [];
    const segments = path.split('/');
    for (const row of rows) {
      const params = matchSegments(row.segments, segments);
      if (params === null) continue;
      if (row.route.method === method) return { kind: 'found', route: row.route, params };
      if (!allowed.includes(row.route.method)) allowed.push(row.route.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : NOT_FOUND;
  }
}

/** Static segments count more than parameters; longer paths before shorter. */
function specificity(segments: readonly string[]): number {
  let score = segments.length * 100;
  for (const segment of segments) if (!segment.startsWith(':')) score += 1;
  return score;
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  let params: Record<string, string> | null = null;
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index] as string;
    const segment = actual[index] as string;
    if (expected.startsWith(':')) {
      if (segment === '') return null;
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return null;
      }
      params ??= {};
      params[expected.slice(1)] = value;
    } else if (expected !== segment) {
      return null;
    }
  }
  return params ?? {};
}
