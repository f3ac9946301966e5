/**
 * What a route row asks of the rate limiter beyond the caller's tier. Why here and not with the
 * route rows (src/http/route.ts): the limiter reads it on every request, and the platform sits
 * below the HTTP layer; the rows declare it, the limiter applies it.
 */
/** Rate-limit rows that apply on top of the caller's tier (platform.md Limits rules 3 and 5). */
export interface RouteLimits {
  /** `/register` endpoints: 10 per minute per originating IP, whatever the tier. */
  readonly registerPerIp?: boolean;
  /** Counted against the style-B per-service row (`config.limits.serviceB[service]`). */
  readonly serviceRowB?: boolean;
  /** With `serviceRowB`: the row's key in `config.limits.serviceB` when it is not the service's own (e.g. `casino-play`). */
  readonly row?: string;
  /** Key of a per-endpoint daily cap (`config.limits.endpointDailyB`), e.g. `escrow.create`. */
  readonly endpointDaily?: string;
}
