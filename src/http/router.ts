/**
 * Router: finds the row for (mount, method, path). A mount's table is found by comparing its name
 * (a switch over the seven names, where a Map keyed by mount cost a hash lookup per request, two
 * on parameter paths); static paths are then one Map lookup answering a match built once at
 * construction, so the common request allocates nothing;
 * paths with `:name` parameters are matched segment by segment, in place (no split per request),
 * static segments before parameters, so `/api/v1/escrow/list` wins over `/api/v1/escrow/:id`. A
 * path known under another method answers 405 with the allowed methods (in table order).
 * Invariant: matches are shared and frozen; callers only read them.
 */
import { isMount, type HttpMethod, type Mount, type Route } from './route.ts';

export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly HttpMethod[] }
  | { readonly kind: 'not-found' };

interface PatternRow {
  readonly route: Route;
  /** The path split at '/': static texts, with `null` where a parameter stands. */
  readonly texts: readonly (string | null)[];
  /** The parameter names, at the same indexes (`null` for static segments). */
  readonly names: readonly (string | null)[];
  /** Rows are tried most specific first (see `specificity`). */
  readonly specificity: number;
}

/**
 * The answers for one static path: a match per method (a field each, so the request's method is
 * found by comparing names rather than by a third hash lookup), and the 405 for any other method.
 */
interface StaticPath {
  readonly get: RouteMatch | null;
  readonly post: RouteMatch | null;
  readonly put: RouteMatch | null;
  readonly delete: RouteMatch | null;
  readonly notAllowed: RouteMatch;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});
const NOT_FOUND: RouteMatch = Object.freeze({ kind: 'not-found' });

/** What one mount serves: its static paths and its parameter rows (most specific first). */
interface MountTable {
  readonly staticPaths: ReadonlyMap<string, StaticPath>;
  readonly patterns: readonly PatternRow[];
}

const EMPTY_MOUNT: MountTable = { staticPaths: new Map(), patterns: [] };

export class Router {
  private readonly api: MountTable;
  private readonly faucet: MountTable;
  private readonly escrow: MountTable;
  private readonly trading: MountTable;
  private readonly domains: MountTable;
  private readonly wallet: MountTable;
  private readonly casino: MountTable;
  readonly routes: readonly Route[];

  constructor(routes: readonly Route[]) {
    this.routes = routes;
    const staticPaths = new Map<Mount, Map<string, StaticPath>>();
    const patterns = new Map<Mount, PatternRow[]>();
    const staticRows = new Map<Mount, Map<string, Route[]>>();
    for (const route of routes) {
      if (!isMount(route.mount)) throw new Error(`route ${route.id}: unknown mount ${route.mount}`);
      if (route.path.includes(':')) {
        const rows = patterns.get(route.mount) ?? [];
        const segments = route.path.split('/');
        const texts = segments.map((segment) => (segment.startsWith(':') ? null : segment));
        const names = segments.map((segment) => (segment.startsWith(':') ? segment.slice(1) : null));
        rows.push({ route, texts, names, specificity: specificity(segments) });
        patterns.set(route.mount, rows);
      } else {
        const byPath = staticRows.get(route.mount) ?? new Map<string, Route[]>();
        staticRows.set(route.mount, byPath);
        const rows = byPath.get(route.path) ?? [];
        if (rows.some((row) => row.method === route.method))
          throw new Error(`duplicate route ${route.mount} ${route.method} ${route.path}`);
        rows.push(route);
        byPath.set(route.path, rows);
      }
    }
    for (const [mount, byPath] of staticRows) {
      const paths = new Map<string, StaticPath>();
      for (const [path, rows] of byPath) {
        const found = (method: HttpMethod): RouteMatch | null => {
          const route = rows.find((row) => row.method === method);
          return route === undefined ? null : Object.freeze({ kind: 'found', route, params: NO_PARAMS });
        };
        const allowed = Object.freeze(rows.map((route) => route.method));
        paths.set(path, {
          get: found('GET'),
          post: found('POST'),
          put: found('PUT'),
          delete: found('DELETE'),
          notAllowed: Object.freeze({ kind: 'method-not-allowed', allowed }),
        });
      }
      staticPaths.set(mount, paths);
    }
    for (const rows of patterns.values()) rows.sort((a, b) => b.specificity - a.specificity);
    const table = (mount: Mount): MountTable => {
      const paths = staticPaths.get(mount);
      const rows = patterns.get(mount);
      return paths === undefined && rows === undefined
        ? EMPTY_MOUNT
        : { staticPaths: paths ?? new Map(), patterns: rows ?? [] };
    };
    this.api = table('api');
    this.faucet = table('faucet');
    this.escrow = table('escrow');
    this.trading = table('trading');
    this.domains = table('domains');
    this.wallet = table('wallet');
    this.casino = table('casino');
  }

  match(mount: Mount, method: string, path: string): RouteMatch {
    const table = this.tableOf(mount);
    // A static path owns its URL outright: parameter rows never answer for it.
    const known = table.staticPaths.get(path);
    if (known !== undefined) return methodMatch(known, method) ?? known.notAllowed;
    const rows = table.patterns;
    let allowed: HttpMethod[] | null = null;
    for (const row of rows) {
      const params = matchSegments(row, path);
      if (params === null) continue;
      if (row.route.method === method) return { kind: 'found', route: row.route, params };
      allowed ??= [];
      if (!allowed.includes(row.route.method)) allowed.push(row.route.method);
    }
    return allowed !== null ? { kind: 'method-not-allowed', allowed } : NOT_FOUND;
  }

  /** The mount's table; a name that is no mount (a caller's bad input) serves nothing. */
  private tableOf(mount: string): MountTable {
    switch (mount) {
      case 'api':
        return this.api;
      case 'faucet':
        return this.faucet;
      case 'escrow':
        return this.escrow;
      case 'trading':
        return this.trading;
      case 'domains':
        return this.domains;
      case 'wallet':
        return this.wallet;
      case 'casino':
        return this.casino;
      default:
        return EMPTY_MOUNT;
    }
  }
}

/** The static path's match for `method`, null when it has none (any other text included). */
function methodMatch(known: StaticPath, method: string): RouteMatch | null {
  switch (method) {
    case 'GET':
      return known.get;
    case 'POST':
      return known.post;
    case 'PUT':
      return known.put;
    case 'DELETE':
      return known.delete;
    default:
      return null;
  }
}

/** Static segments count more than parameters; longer paths before shorter. */
function specificity(segments: readonly string[]): number {
  let score = segments.length * 100;
  for (const segment of segments) if (!segment.startsWith(':')) score += 1;
  return score;
}

/**
 * The row's parameters when `path` has its segments (what comparing `path.split('/')` with the
 * pattern's gives), else null. Walks the path in place: no array, and only parameters are cut out.
 */
function matchSegments(row: PatternRow, path: string): Record<string, string> | null {
  const { texts, names } = row;
  let params: Record<string, string> | null = null;
  let start = 0;
  for (let index = 0; index < texts.length; index++) {
    const last = index === texts.length - 1;
    const slashAt = path.indexOf('/', start);
    if (last ? slashAt >= 0 : slashAt < 0) return null; // a different number of segments
    const end = last ? path.length : slashAt;
    const text = texts[index];
    if (text === null || text === undefined) {
      if (end === start) return null;
      const value = decodeSegment(path.slice(start, end));
      if (value === null) return null;
      params ??= {};
      params[names[index] as string] = value;
    } else if (end - start !== text.length || !path.startsWith(text, start)) {
      return null;
    }
    start = end + 1;
  }
  return params ?? {};
}

/** `decodeURIComponent`, null for a malformed escape; a segment without '%' is its own decoding. */
function decodeSegment(segment: string): string | null {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
