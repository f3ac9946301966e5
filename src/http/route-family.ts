/**
 * routeFamily: the rows of one service in one addressing style share their service, style, mount,
 * auth and rate-limit rows; a family fills those in and names each row
 * `<service>.<style>.<operation>`, so that a row states only what is its own (STYLE rule 6:
 * tables, not copies). A row may still set its own `auth` or `limits` (a public row, a row with a
 * daily cap); `successStatus` is 200 unless the row creates something (201).
 */
import type { RouteLimits } from '../platform/route-limits.ts';
import type { ServiceName } from '../platform/platform.ts';
import { defineRoute, type Mount, type Route, type RouteSpec, type Style } from './route.ts';

export interface RouteFamily {
  readonly service: ServiceName;
  readonly style: Style;
  readonly mount: Mount;
  readonly auth: RouteSpec<unknown, unknown>['auth'];
  readonly limits?: RouteLimits;
}

/** A row of a family: its own fields only. */
export type FamilyRow<C, O> = Omit<
  RouteSpec<C, O>,
  'id' | 'service' | 'style' | 'mount' | 'auth' | 'limits' | 'successStatus'
> &
  Partial<Pick<RouteSpec<C, O>, 'auth' | 'limits' | 'successStatus'>>;

export type FamilyRowMaker = <C, O>(operation: string, row: FamilyRow<C, O>) => Route;

export function routeFamily(family: RouteFamily): FamilyRowMaker {
  return <C, O>(operation: string, row: FamilyRow<C, O>): Route =>
    defineRoute<C, O>({
      id: `${family.service}.${family.style}.${operation}`,
      ...family,
      successStatus: 200,
      ...row,
    });
}

/** Style A: the service's own address (mount = service), a bearer key, no style-B rate row. */
export function styleAFamily(service: ServiceName): FamilyRowMaker {
  return routeFamily({ service, style: 'A', mount: service, auth: 'bearer' });
}

/** Style B: the shared api address, a bearer key, counted against the service's style-B row. */
export function styleBFamily(service: ServiceName): FamilyRowMaker {
  return routeFamily({ service, style: 'B', mount: 'api', auth: 'bearer', limits: { serviceRowB: true } });
}
