/**
 * The HTTP method of an endpoint as afp names it, for the `method` label k6's metrics carry: the
 * first word of a URL run's name (`POST /api/v1/games/coin-flip`), else the method of the route row
 * whose id a scenario run names (`escrow.B.create`), else '' (an id no row has, `(other)`).
 * Why a table lookup: a scenario run names its endpoints by route id, and the row holds the method.
 * The route table (the platform's routes and services, some 200 modules) is import()ed by
 * loadRouteMethods, which the metrics outputs await before a run (MetricsOutputs.prepare): `afp
 * load URL`, whose endpoints all name their method, loads it only when it writes metrics.
 */
import { assert } from '../../core/assert.ts';

const NAMED = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) /;

let methodsById: ReadonlyMap<string, string> | null = null;

/** Loads the route table methodOf reads a route id's method from (once; later calls return at once). */
export async function loadRouteMethods(): Promise<void> {
  if (methodsById !== null) return;
  const { ALL_ROUTES } = await import('../../http/routes/index.ts');
  methodsById ??= new Map(ALL_ROUTES.map((route) => [route.id, route.method]));
}

export function methodOf(endpoint: string): string {
  const named = NAMED.exec(endpoint);
  if (named !== null) return named[1] ?? '';
  assert(methodsById !== null, 'the route table is loaded (loadRouteMethods) before a metric names a method');
  return methodsById.get(endpoint) ?? '';
}
