/**
 * Router: finds the row for (mount, method, path). Static paths are one Map lookup; paths with
 * `:name` parameters are matched segment by segment, static segments before parameters, so
 * `/api/v1/escrow/list` wins over `/api/v1/escrow/:id`. A path known under another method
 * answers 405 with the allowed methods.
 */
import type { HttpMethod, Mount, Route } from './route.ts';

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Readonly<Record<string, string>> }
  | { kind: 'method-not-allowed'; allowed: readonly HttpMethod[] }
  | { kind: 'not-found' };

interface PatternRow {
  readonly route: Route;
  readonly segments: readonly string[];
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

export class Router {
  private readonly staticRoutes = new Map<string, Route>();
  private readonly patterns = new Map<Mount, PatternRow[]>();
  private readonly methodsByPath = new Map<string, HttpMethod[]>();
  readonly routes: readonly Route[];

  constructor(routes: readonly Route[]) {
    this.routes = routes;
    for (const route of routes) {
      if (route.path.includes(':')) {
        const rows = this.patterns.get(route.mount) ?? [];
        rows.push({ route, segments: route.path.split('/') });
        this.patterns.set(route.mount, rows);
      } else {
        const key = `${route.mount} ${route.method} ${route.path}`;
        if (this.staticRoutes.has(key)) throw new Error(`duplicate route ${key}`);
        this.staticRoutes.set(key, route);
        const pathKey = `${route.mount} ${route.path}`;
        this.methodsByPath.set(pathKey, [...(this.methodsByPath.get(pathKey) ?? []), route.method]);
      }
    }
    for (const rows of this.patterns.values()) rows.sort((a, b) => specificity(b.segments) - specificity(a.segments));
  }

  match(mount: Mount, method: string, path: string): RouteMatch {
    const found = this.staticRoutes.get(`${mount} ${method} ${path}`);
    if (found !== undefined) return { kind: 'found', route: found, params: NO_PARAMS };
    // A static path owns its URL outright: parameter rows never answer for it.
    const staticMethods = this.methodsByPath.get(`${mount} ${path}`);
    if (staticMethods !== undefined) return { kind: 'method-not-allowed', allowed: staticMethods };
    const rows = this.patterns.get(mount);
    if (rows === undefined) return { kind: 'not-found' };
    const allowed: HttpMethod[] = [];
    const segments = path.split('/');
    for (const row of rows) {
      const params = matchSegments(row.segments, segments);
      if (params === null) continue;
      if (row.route.method === method) return { kind: 'found', route: row.route, params };
      if (!allowed.includes(row.route.method)) allowed.push(row.route.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
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
