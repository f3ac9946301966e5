/**
 * The error codes of the OpenAPI documents (openapi.ts): the codes each row's domain operation can
 * return beyond the derived 400 / 401 / 429, one table keyed by row id (the service tables of
 * openapi-domains.ts, openapi-wallet.ts and openapi-trading.ts joined in), and what each code means
 * (platform.md "Errors"). test/http/openapi.test.ts requires every row of the route table listed.
 */
import type { ErrorCode } from '../core/errors.ts';
import { DOMAINS_DOMAIN_ERRORS } from './openapi-domains.ts';
import { WALLET_DOMAIN_ERRORS } from './openapi-wallet.ts';
import { GAME_IDS } from '../services/casino/games/game.ts';
import { TRADING_DOMAIN_ERRORS } from './openapi-trading.ts';

const ESCROW_ACTION: readonly ErrorCode[] = ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT'];
const BET: readonly ErrorCode[] = ['GAME_CLOSED', 'INSUFFICIENT_BALANCE'];
const OWNED: readonly ErrorCode[] = ['FORBIDDEN', 'NOT_FOUND'];
const NONE: readonly ErrorCode[] = [];

/** The casino's rows: every single-game row places a bet. */
const CASINO_DOMAIN_ERRORS: Readonly<Record<string, readonly ErrorCode[]>> = {
  ...Object.fromEntries(GAME_IDS.filter((id) => id !== 'video_poker').map((id) => [`casino.A.game.${id}`, BET])),
  'casino.A.register': ['NOT_FOUND', 'CONFLICT'],
  'casino.A.balance': NONE,
  'casino.A.deposit-address': NONE,
  'casino.A.withdraw': ['INSUFFICIENT_BALANCE'],
  'casino.A.supported-chains': NONE,
  'casino.A.deposits': NONE,
  'casino.A.ledger': NONE,
  'casino.A.withdrawals': NONE,
  'casino.A.games': NONE,
  'casino.A.batch': NONE,
  'casino.A.video-poker.deal': BET,
  'casino.A.video-poker.draw': ['NOT_FOUND', 'INSUFFICIENT_BALANCE'],
  'casino.A.kelly.limits': NONE,
  'casino.A.kelly.optimal': NONE,
  'casino.A.kelly.config': NONE,
  'casino.A.kelly.history': NONE,
  'casino.A.kelly.simulate': NONE,
  'casino.A.fairness.seed-hash': NONE,
  'casino.A.fairness.verify': OWNED,
  'casino.A.fairness.audit': OWNED,
  'casino.A.fairness.rotate': NONE,
  'casino.A.fairness.seeds': NONE,
  'casino.A.stats.me': NONE,
  'casino.A.stats.session': NONE,
  'casino.A.stats.leaderboard': NONE,
  'casino.A.tournaments.create': ['CONFLICT', 'INSUFFICIENT_BALANCE'],
  'casino.A.tournaments.list': NONE,
  'casino.A.tournaments.get': ['NOT_FOUND'],
  'casino.A.tournaments.enter': ['NOT_FOUND', 'CONFLICT', 'INSUFFICIENT_BALANCE'],
  'casino.A.tournaments.play': ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'GAME_CLOSED', 'INSUFFICIENT_BALANCE'],
  'casino.A.challenges.create': ['NOT_FOUND', 'CONFLICT', 'INSUFFICIENT_BALANCE'],
  'casino.A.challenges.list': NONE,
  'casino.A.challenges.accept': ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'INSUFFICIENT_BALANCE'],
  'casino.A.challenges.decline': ESCROW_ACTION,
  'casino.A.gossip': NONE,
  'casino.A.referral.code': NONE,
  'casino.A.referral.stats': NONE,
  'casino.short.coinflip': BET,
  'casino.short.crash.bet': ['GAME_CLOSED', 'CONFLICT', 'INSUFFICIENT_BALANCE'],
  'casino.short.crash.cashout': ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT'],
  'casino.short.provably-fair': OWNED,
  'casino.short.leaderboard': NONE,
  'casino.B.bet': BET,
  'casino.B.history': NONE,
  'casino.B.verify': OWNED,
  'casino.B.games': NONE,
  'casino.B.stats': NONE,
};
const ESCROW_VIEW: readonly ErrorCode[] = ['FORBIDDEN', 'NOT_FOUND'];

/**
 * Codes a row's domain operation can return beyond the derived 400 / 401 / 429 (docs' contract
 * and the services). A row missing here gets only the derived responses; a test requires every
 * row of the table to be listed.
 */
export const DOMAIN_ERRORS: Readonly<Record<string, readonly ErrorCode[]>> = {
  'faucet.A.register': ['NOT_FOUND', 'CONFLICT'],
  'faucet.A.claim': ['FAUCET_CLAIMED', 'INSUFFICIENT_BALANCE'],
  'faucet.A.status': [],
  'faucet.A.agent': ['FORBIDDEN', 'NOT_FOUND'],
  'faucet.B.register': ['NOT_FOUND', 'CONFLICT', 'INSUFFICIENT_BALANCE'],
  'faucet.B.claim': ['FORBIDDEN', 'NOT_FOUND', 'FAUCET_CLAIMED', 'INSUFFICIENT_BALANCE'],
  'faucet.B.status': [],
  'faucet.B.agents': [],
  'faucet.B.referrals': [],
  'escrow.A.create': ['FORBIDDEN', 'NOT_FOUND', 'INSUFFICIENT_BALANCE'],
  'escrow.A.release': ESCROW_ACTION,
  'escrow.A.dispute': ESCROW_ACTION,
  'escrow.A.get': ESCROW_VIEW,
  'escrow.A.list': [],
  'escrow.B.create': ['NOT_FOUND', 'INSUFFICIENT_BALANCE'],
  'escrow.B.release': ESCROW_ACTION,
  'escrow.B.refund': ESCROW_ACTION,
  'escrow.B.dispute': ESCROW_ACTION,
  'escrow.B.get': ESCROW_VIEW,
  'escrow.B.list': [],
  ...CASINO_DOMAIN_ERRORS,
  ...DOMAINS_DOMAIN_ERRORS,
  ...WALLET_DOMAIN_ERRORS,
  ...TRADING_DOMAIN_ERRORS,
};

/** The meaning column of platform.md "Errors", plus the three service-specific codes. */
export const MEANING: Readonly<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'missing or invalid parameters',
  UNAUTHORIZED: 'missing or invalid API key',
  FORBIDDEN: 'key valid, permission lacking',
  NOT_FOUND: 'the resource does not exist',
  CONFLICT: "the resource's state forbids it (already registered, already released...)",
  INSUFFICIENT_BALANCE: 'not enough USDC',
  RATE_LIMIT: 'too many requests; retry after the reset time',
  INTERNAL_ERROR: 'server error; retry with exponential backoff',
  SERVICE_UNAVAILABLE: 'service temporarily offline',
  FAUCET_CLAIMED: 'the faucet allocation was already claimed',
  GAME_CLOSED: 'the casino variant is temporarily closed',
  MARKET_CLOSED: 'the market is not accepting orders',
};
