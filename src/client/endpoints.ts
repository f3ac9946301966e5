/**
 * A service's part of the generated endpoint table (endpoint-table.ts): the rows whose id starts
 * with the service's name, in the table order, their ids kept as literal types. Each typed client
 * takes its table from here (`endpointsOf('casino')`), so no client keeps a row by hand.
 */
import { ROUTE_ENDPOINTS } from './endpoint-table.ts';

type RouteEndpoints = typeof ROUTE_ENDPOINTS;

/** The ids of `service`'s rows: `casino.A.balance`, `casino.B.bet`... */
export type EndpointIdOf<S extends string> = Extract<keyof RouteEndpoints, `${S}.${string}`>;

export type EndpointsOf<S extends string> = { readonly [K in EndpointIdOf<S>]: RouteEndpoints[K] };

export function endpointsOf<S extends string>(...services: readonly S[]): EndpointsOf<S> {
  const rows = Object.entries(ROUTE_ENDPOINTS).filter(([id]) =>
    services.some((service) => id.startsWith(`${service}.`)),
  );
  return Object.fromEntries(rows) as EndpointsOf<S>;
}
