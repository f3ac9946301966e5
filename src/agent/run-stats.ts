/**
 * RunStats: the counts a run keeps for its reports: requests per agent (errors and 429s apart)
 * and calls per endpoint with a count per HTTP status. Rows come out in a fixed order (endpoints
 * by id; statuses ascending), so reports are byte-stable.
 *
 * Limits: endpoints are bounded by the route table plus one `unmatched` row per mount.
 */
import type { Mount, Route } from '../http/route.ts';
import type { EndpointRow } from '../report/run-record.ts';

export const UNMATCHED = 'unmatched';

export class AgentCounts {
  requests = 0;
  errors = 0;
  rateLimited = 0;

  count(status: number): void {
    this.requests++;
    if (status >= 400) this.errors++;
    if (status === 429) this.rateLimited++;
  }
}

interface EndpointTally {
  readonly endpoint: string;
  readonly service: string;
  readonly style: string;
  calls: number;
  readonly statuses: Map<number, number>;
}

export class EndpointCounts {
  private readonly byKey = new Map<string, EndpointTally>();
  private total = 0;

  get requests(): number {
    return this.total;
  }

  count(route: Route | null, mount: Mount, status: number): void {
    this.total++;
    const key = route === null ? `${UNMATCHED}:${mount}` : route.id;
    let tally = this.byKey.get(key);
    if (tally === undefined) {
      tally =
        route === null
          ? { endpoint: UNMATCHED, service: mount, style: '-', calls: 0, statuses: new Map() }
          : { endpoint: route.id, service: route.service, style: route.style, calls: 0, statuses: new Map() };
      this.byKey.set(key, tally);
    }
    tally.calls++;
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
  }

  rows(): EndpointRow[] {
    const tallies = [...this.byKey.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, tally]) => tally);
    return tallies.map((tally) => {
      const statuses: Record<string, number> = {};
      for (const status of [...tally.statuses.keys()].sort((a, b) => a - b))
        statuses[String(status)] = tally.statuses.get(status) ?? 0;
      return { endpoint: tally.endpoint, service: tally.service, style: tally.style, calls: tally.calls, statuses };
    });
  }
}
