/**
 * The HTTP method of an endpoint as afp names it, for the `method` label k6's metrics carry: the
 * first word of a URL run's name (`POST /api/v1/games/coin-flip`), else the method of the route row
 * whose id a scenario run names (`escrow.B.create`), else '' (an id no row has, `(other)`).
 * Why a table lookup: a scenario run names its endpoints by route id, and the row holds the method.
 */
import { ALL_ROUTES } from '../../http/routes/index.ts';

const NAMED = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) /;

let methodsById: ReadonlyMap<string, string> | null = null;

export function methodOf(endpoint: string): string {
  const named = NAMED.exec(endpoint);
  if (named !== null) return named[1] ?? '';
  methodsById ??= new Map(ALL_ROUTES.map((route) => [route.id, route.method]));
  return methodsById.get(endpoint) ?? '';
}
