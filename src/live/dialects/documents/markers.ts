/**
 * How the documents' styles A, B and short show on the wire to `afp target probe`: a few safe GET
 * endpoints per service and style (src/live/dialects/wire-marker.ts), taken from afp's own route
 * table (the documents' endpoints; test/live/target-probe.test.ts holds every row to a route of
 * that style, method, path and auth). Rows the deployment serves alike name both dialects.
 */
import type { WireMarker } from '../wire-marker.ts';

export const DOCUMENTS_MARKERS: readonly WireMarker[] = [
  // casino, style A (mount casino): bearer everywhere but the gossip, unlike the deployment's public lists
  {
    service: 'casino',
    dialects: ['A'],
    method: 'GET',
    path: '/api/v1/games',
    answer: 'needs-key',
    source: 'casino.A.games',
  },
  {
    service: 'casino',
    dialects: ['A'],
    method: 'GET',
    path: '/api/v1/tournaments',
    answer: 'needs-key',
    source: 'casino.A.tournaments.list',
  },
  {
    service: 'casino',
    dialects: ['A'],
    method: 'GET',
    path: '/api/v1/stats/leaderboard',
    answer: 'needs-key',
    source: 'casino.A.stats.leaderboard',
  },
  {
    service: 'casino',
    dialects: ['A', 'deployed'],
    method: 'GET',
    path: '/api/v1/auth/balance',
    answer: 'exists',
    source: 'casino.A.balance',
  },
  {
    service: 'casino',
    dialects: ['A', 'deployed'],
    method: 'GET',
    path: '/api/v1/fairness/seeds',
    answer: 'exists',
    source: 'casino.A.fairness.seeds',
  },
  {
    service: 'casino',
    dialects: ['A', 'deployed'],
    method: 'GET',
    path: '/api/v1/gossip',
    answer: 'ok',
    source: 'casino.A.gossip',
  },
  {
    service: 'casino',
    dialects: ['A', 'deployed'],
    method: 'POST',
    path: '/api/v1/bets/batch',
    answer: 'exists',
    source: 'casino.A.batch',
  },
  {
    service: 'casino',
    dialects: ['A', 'deployed'],
    method: 'POST',
    path: '/api/v1/fairness/rotate',
    answer: 'exists',
    source: 'casino.A.fairness.rotate',
  },
  // casino, short style (mount casino)
  {
    service: 'casino',
    dialects: ['short'],
    method: 'GET',
    path: '/api/v1/games/provably-fair/{id}',
    answer: 'exists',
    source: 'casino.short.provably-fair',
  },
  {
    service: 'casino',
    dialects: ['short'],
    method: 'GET',
    path: '/api/v1/leaderboard',
    answer: 'needs-key',
    source: 'casino.short.leaderboard',
  },
  // casino, style B (mount api)
  {
    service: 'casino',
    dialects: ['B'],
    method: 'GET',
    path: '/casino-api/games',
    answer: 'exists',
    source: 'casino.B.games',
  },
  {
    service: 'casino',
    dialects: ['B'],
    method: 'GET',
    path: '/casino-api/history',
    answer: 'exists',
    source: 'casino.B.history',
  },
  // faucet, style A (mount faucet) and B (mount api, root paths)
  {
    service: 'faucet',
    dialects: ['A'],
    method: 'GET',
    path: '/api/v1/faucet/status',
    answer: 'exists',
    source: 'faucet.A.status',
  },
  {
    service: 'faucet',
    dialects: ['A'],
    method: 'GET',
    path: '/api/v1/agents/{id}',
    answer: 'exists',
    source: 'faucet.A.agent',
  },
  { service: 'faucet', dialects: ['B'], method: 'GET', path: '/status', answer: 'exists', source: 'faucet.B.status' },
  {
    service: 'faucet',
    dialects: ['B'],
    method: 'GET',
    path: '/referrals',
    answer: 'exists',
    source: 'faucet.B.referrals',
  },
  // escrow, style A (mount escrow) and B (mount api, root paths)
  {
    service: 'escrow',
    dialects: ['A'],
    method: 'GET',
    path: '/api/v1/escrow/list',
    answer: 'exists',
    source: 'escrow.A.list',
  },
  {
    service: 'escrow',
    dialects: ['A'],
    method: 'GET',
    path: '/api/v1/escrow/{id}',
    answer: 'exists',
    source: 'escrow.A.get',
  },
  { service: 'escrow', dialects: ['B'], method: 'GET', path: '/escrows', answer: 'exists', source: 'escrow.B.list' },
  { service: 'escrow', dialects: ['B'], method: 'GET', path: '/escrow/{id}', answer: 'exists', source: 'escrow.B.get' },
];
