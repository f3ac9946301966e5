/**
 * The deployment's rate limits as data (spec/DEPLOYED.md §1.3, §2.12, §3, §4), matched to route
 * rows by the service and path of an endpoint of the deployed wire (first matching row wins; a
 * `below` row matches the paths under the endpoint's):
 * - per IP, per service and request path, per fixed 60 s window (key `${mount}:${path}:${ip}`: a
 *   bucket per distinct path, so /games/dice and /games/slots count apart, and per service, as each
 *   is a process of its own: trading's and the wallet's /v1/auth/register count apart) → 429
 *   `rate_limited`;
 * - per agent, per bucket (agent-casino rateLimit.ts): single games share `games` 60/min, batch
 *   calls `batch` 10/min, their bets not counted in `games` → 429 `rate_limit_exceeded`;
 * - the faucet's one successful claim per IP per 24 h → 429 `ip_rate_limited`.
 * Rows the table does not name are not limited (as on the deployment). Never sent: X-RateLimit-*,
 * Retry-After.
 */
import type { Route } from '../route.ts';
import { deployedEndpoint, type DeployedEndpointName } from './deployed-wire.ts';

export const WINDOW_MS = 60_000;
export const CLAIM_COOLDOWN_MS = 24 * 3_600_000;

export type AgentBucket = 'games' | 'batch';

/** Requests per agent per 60 s window, per bucket. */
export const AGENT_BUCKET_LIMITS: Readonly<Record<AgentBucket, number>> = { games: 60, batch: 10 };

export interface DeployedLimit {
  readonly perIpPerMinute: number | null;
  readonly agentBucket: AgentBucket | null;
  /** The faucet: after a successful claim, the IP's next claim is refused for this long. */
  readonly ipClaimCooldownMs: number | null;
}

interface LimitRow extends Partial<DeployedLimit> {
  /** The endpoint of the deployed wire (deployed-wire.ts) the row limits, by its service and path. */
  readonly name: DeployedEndpointName;
  /** true: every row of the service whose path is below the endpoint's (the deployment's `/games/*`), not the endpoint itself. */
  readonly below?: true;
}

const LIMIT_TABLE: readonly LimitRow[] = [
  { name: 'casino.deployed.register', perIpPerMinute: 10 },
  { name: 'casino.deployed.kelly.simulate', perIpPerMinute: 5 },
  { name: 'casino.deployed.withdraw', perIpPerMinute: 5 },
  { name: 'casino.deployed.games', below: true, perIpPerMinute: 60, agentBucket: 'games' },
  { name: 'casino.deployed.batch', perIpPerMinute: 60, agentBucket: 'batch' },
  // The deployment's `/bets/*` window: the batch above, the history here.
  { name: 'casino.deployed.bets.history', perIpPerMinute: 60 },
  { name: 'faucet.deployed.claim', perIpPerMinute: 5, ipClaimCooldownMs: CLAIM_COOLDOWN_MS },
  { name: 'escrow.deployed.create', perIpPerMinute: 20 },
  { name: 'escrow.deployed.complete', perIpPerMinute: 30 },
  { name: 'escrow.deployed.release', perIpPerMinute: 30 },
  { name: 'escrow.deployed.dispute', perIpPerMinute: 10 },
  { name: 'trading.deployed.register', perIpPerMinute: 10 },
  { name: 'trading.deployed.open', perIpPerMinute: 30 },
  { name: 'trading.deployed.close', perIpPerMinute: 30 },
  { name: 'wallet.deployed.register', perIpPerMinute: 10 },
  { name: 'wallet.deployed.referral-withdraw', perIpPerMinute: 5 },
  { name: 'wallet.deployed.swap', perIpPerMinute: 30 },
  { name: 'wallet.deployed.send', perIpPerMinute: 20 },
];

function matches(row: LimitRow, route: Route): boolean {
  const endpoint = deployedEndpoint(row.name);
  if (endpoint.service !== route.service) return false;
  return row.below === true ? route.path.startsWith(`${endpoint.path}/`) : endpoint.path === route.path;
}

/** The deployment's limits on one row; null when it has none. */
export function deployedLimitOf(route: Route): DeployedLimit | null {
  const row = LIMIT_TABLE.find((candidate) => matches(candidate, route));
  if (row === undefined) return null;
  const agentBucket = route.method === 'POST' ? (row.agentBucket ?? null) : null;
  return { perIpPerMinute: row.perIpPerMinute ?? null, agentBucket, ipClaimCooldownMs: row.ipClaimCooldownMs ?? null };
}

/** A refused request's message, as the deployment words it. */
export const perIpMessage = (limit: number): string => `Too many requests. Limit: ${limit} per 60s`;
export const agentBucketMessage = (bucket: AgentBucket): string =>
  `Max ${AGENT_BUCKET_LIMITS[bucket]} ${bucket === 'games' ? 'game' : 'batch'} requests/min`;
