/**
 * How the deployed services show on the wire to `afp target probe` (src/live/probe/wire-marker.ts),
 * from spec/DEPLOYED.md: public endpoints the documents' style A keeps behind a key, paths only
 * the deployment serves, the MCP descriptor of GET /mcp, and the `_info.service` names (the
 * repositories' names, §1.2). POST rows are never sent: they are looked for in openapi.json only.
 */
import type { ServiceName } from '../../../platform/platform.ts';
import type { WireMarker } from '../../probe/wire-marker.ts';

export const DEPLOYED_MARKERS: readonly WireMarker[] = [
  // casino (base /api/v1, §2.1): public lists, deployment-only endpoints
  { service: 'casino', dialects: ['deployed'], method: 'GET', path: '/api/v1/games', answer: 'ok', source: 'DEPLOYED.md §2.1 (public)' },
  { service: 'casino', dialects: ['deployed'], method: 'GET', path: '/api/v1/tournaments', answer: 'ok', has: { tournaments: null }, source: 'DEPLOYED.md §2.10 (public)' },
  { service: 'casino', dialects: ['deployed'], method: 'GET', path: '/api/v1/stats/leaderboard', answer: 'ok', source: 'DEPLOYED.md §2.1 (public)' },
  { service: 'casino', dialects: ['deployed'], method: 'GET', path: '/api/v1/challenges/open', answer: 'ok', source: 'DEPLOYED.md §2.1 (public)' },
  { service: 'casino', dialects: ['deployed'], method: 'GET', path: '/api/v1/achievements/catalogue', answer: 'ok', source: 'DEPLOYED.md §2.1 (public)' },
  { service: 'casino', dialects: ['deployed'], method: 'GET', path: '/api/v1/bets/history', answer: 'exists', source: 'DEPLOYED.md §2.9' },
  { service: 'casino', dialects: ['deployed'], method: 'GET', path: '/api/v1/daily', answer: 'exists', source: 'DEPLOYED.md §2.1' },
  { service: 'casino', dialects: ['deployed'], method: 'POST', path: '/api/v1/fairness/verify', answer: 'exists', source: 'DEPLOYED.md §2.7' },
  { service: 'casino', dialects: ['deployed'], method: 'POST', path: '/api/v1/daily/claim', answer: 'exists', source: 'DEPLOYED.md §2.9' },
  // faucet (root paths, §3)
  { service: 'faucet', dialects: ['deployed'], method: 'GET', path: '/faucet/stats', answer: 'ok', has: { total_claims: null }, source: 'DEPLOYED.md §3' },
  { service: 'faucet', dialects: ['deployed'], method: 'GET', path: '/mcp', answer: 'ok', has: { tools: 'claim_faucet' }, source: 'DEPLOYED.md §3 (MCP descriptor)' },
  { service: 'faucet', dialects: ['deployed'], method: 'POST', path: '/faucet/claim', answer: 'exists', source: 'DEPLOYED.md §3' },
  // escrow (root paths, §4)
  { service: 'escrow', dialects: ['deployed'], method: 'GET', path: '/escrow/stats', answer: 'ok', source: 'DEPLOYED.md §4' },
  { service: 'escrow', dialects: ['deployed'], method: 'GET', path: '/mcp', answer: 'ok', has: { tools: 'create_escrow' }, source: 'DEPLOYED.md §4 (MCP descriptor)' },
  { service: 'escrow', dialects: ['deployed'], method: 'POST', path: '/escrow/create', answer: 'exists', source: 'DEPLOYED.md §4' },
  { service: 'escrow', dialects: ['deployed'], method: 'POST', path: '/escrow/release/{id}', answer: 'exists', source: 'DEPLOYED.md §4' },
  // trading (base /v1, §5): public markets, bearer trade endpoints
  { service: 'trading', dialects: ['deployed'], method: 'GET', path: '/v1/markets', answer: 'ok', has: { markets: null }, source: 'DEPLOYED.md §5 (public)' },
  { service: 'trading', dialects: ['deployed'], method: 'GET', path: '/v1/markets/funding-rates', answer: 'ok', source: 'DEPLOYED.md §5 (public)' },
  { service: 'trading', dialects: ['deployed'], method: 'GET', path: '/v1/trade/positions', answer: 'needs-key', source: 'DEPLOYED.md §5' },
  { service: 'trading', dialects: ['deployed'], method: 'GET', path: '/v1/trade/portfolio', answer: 'needs-key', source: 'DEPLOYED.md §5' },
  { service: 'trading', dialects: ['deployed'], method: 'POST', path: '/v1/trade/open', answer: 'exists', source: 'DEPLOYED.md §5' },
  // domains (base /v1, §7): public check, value and whois; register by name (openapi.json only)
  { service: 'domains', dialects: ['deployed'], method: 'GET', path: '/v1/domains/check', answer: 'exists', source: 'DEPLOYED.md §7 (public; 400 without names)' },
  { service: 'domains', dialects: ['deployed'], method: 'GET', path: '/v1/domains/value', answer: 'exists', source: 'DEPLOYED.md §7 (public; 400 without name)' },
  { service: 'domains', dialects: ['deployed'], method: 'GET', path: '/v1/whois/{name}', answer: 'exists', source: 'DEPLOYED.md §7 (public)' },
  { service: 'domains', dialects: ['deployed'], method: 'POST', path: '/v1/domains/register', answer: 'exists', source: 'DEPLOYED.md §7' },
  // wallet (base /v1, §6): public chains and gossip, bearer deposit-address; create and send by name (openapi.json only)
  { service: 'wallet', dialects: ['deployed'], method: 'GET', path: '/v1/wallet/chains', answer: 'ok', source: 'DEPLOYED.md §6 (public)' },
  { service: 'wallet', dialects: ['deployed'], method: 'GET', path: '/v1/wallet/deposit-address', answer: 'needs-key', source: 'DEPLOYED.md §6' },
  { service: 'wallet', dialects: ['deployed'], method: 'POST', path: '/v1/wallet/create', answer: 'exists', source: 'DEPLOYED.md §6' },
  { service: 'wallet', dialects: ['deployed'], method: 'POST', path: '/v1/wallet/send', answer: 'exists', source: 'DEPLOYED.md §6' },
  // every deployed service alike (§1.3: casino, trading, wallet, domains; §3, §4: faucet, escrow)
  { service: null, dialects: ['deployed'], method: 'GET', path: '/ping', answer: 'ok', source: 'DEPLOYED.md §1.3' },
  { service: null, dialects: ['deployed'], method: 'GET', path: '/.well-known/purpleflea.json', answer: 'ok', source: 'DEPLOYED.md §1.3' },
  { service: null, dialects: ['deployed'], method: 'GET', path: '/llms.txt', answer: 'ok', source: 'DEPLOYED.md §1.3, §3' },
  { service: null, dialects: ['deployed'], method: 'GET', path: '/gossip', answer: 'ok', source: 'DEPLOYED.md §3, §4' },
];

/** `_info.service` on a deployment is the repository's name (§1.2). */
export const DEPLOYED_INFO_SERVICES: Readonly<Record<string, ServiceName>> = {
  'agent-casino': 'casino',
  'agent-faucet': 'faucet',
  'agent-escrow': 'escrow',
  'agent-trading': 'trading',
  'agent-domains': 'domains',
  'public-wallet': 'wallet',
};
