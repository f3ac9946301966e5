/**
 * The deployment's rate limits as data (spec/DEPLOYED.md §1.3, §2.12, §3, §4), matched to route
 * rows by service and path (first matching row wins; a path ending in `/*` matches below it):
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
import type { ServiceName } from '../../platform/platform.ts';
import type { Route } from '../route.ts';

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
  readonly service: ServiceName;
  readonly path: string;
}

const LIMIT_TABLE: readonly LimitRow[] = [
  { service: 'casino', path: '/api/v1/auth/register', perIpPerMinute: 10 },
  { service: 'casino', path: '/api/v1/kelly/simulate', perIpPerMinute: 5 },
  { service: 'casino', path: '/api/v1/auth/withdraw', perIpPerMinute: 5 },
  { service: 'casino', path: '/api/v1/games/*', perIpPerMinute: 60, agentBucket: 'games' },
  { service: 'casino', path: '/api/v1/bets/batch', perIpPerMinute: 60, agentBucket: 'batch' },
  { service: 'casino', path: '/api/v1/bets/*', perIpPerMinute: 60 },
  { service: 'faucet', path: '/faucet/claim', perIpPerMinute: 5, ipClaimCooldownMs: CLAIM_COOLDOWN_MS },
  { service: 'escrow', path: '/escrow/create', perIpPerMinute: 20 },
  { service: 'escrow', path: '/escrow/complete/:id', perIpPerMinute: 30 },
  { service: 'escrow', path: '/escrow/release/:id', perIpPerMinute: 30 },
  { service: 'escrow', path: '/escrow/dispute/:id', perIpPerMinute: 10 },
  { service: 'trading', path: '/v1/auth/register', perIpPerMinute: 10 },
  { service: 'trading', path: '/v1/trade/open', perIpPerMinute: 30 },
  { service: 'trading', path: '/v1/trade/close', perIpPerMinute: 30 },
  { service: 'wallet', path: '/v1/auth/register', perIpPerMinute: 10 },
  { service: 'wallet', path: '/v1/referral/withdraw', perIpPerMinute: 5 },
  { service: 'wallet', path: '/v1/wallet/swap', perIpPerMinute: 30 },
  { service: 'wallet', path: '/v1/wallet/send', perIpPerMinute: 20 },
];

function matches(row: LimitRow, route: Route): boolean {
  if (row.service !== route.service) return false;
  return row.path.endsWith('/*') ? route.path.startsWith(row.path.slice(0, -1)) : row.path === route.path;
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
