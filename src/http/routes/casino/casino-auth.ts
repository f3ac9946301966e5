/**
 * Casino account rows, style A (mount 'casino', /api/v1/auth/...): registration (no key; the
 * platform's one agent registry, so the key also works on faucet and escrow), balance with recent
 * activity, deposit address, deposits, the transaction ledger, withdraw (USDC on Base only, flat
 * fee 0.50, minimum 1.00, balance checked), withdrawals, supported chains, referral code and
 * stats over 3 levels, and the public GET /gossip.
 */
import { fail, isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { Registration } from '../../../services/faucet/faucet.ts';
import type { BalanceWithActivity, DepositAddress } from '../../../services/casino/account/casino-account.ts';
import type { DepositView, WithdrawalRecord } from '../../../services/casino/account/account-records.ts';
import type { JournalEntry } from '../../../services/casino/account/account-journal.ts';
import type { ChainInfo } from '../../../services/casino/account/supported-chains.ts';
import { isoTime, moneyA } from '../../render.ts';
import { defineRoute, type Route, type RouteContext, type RouteInput } from '../../route.ts';
import {
  bodyOnly,
  knownQuery,
  noInput,
  optionalString,
  queryLimit,
  requiredAmount,
  requiredString,
} from '../../validate.ts';
import { registerAgent } from '../faucet/register-agent.ts';
import { casinoCaller } from './casino-games.ts';

/** Transactions the balance answer lists (casino.md: the last 10). */
const RECENT_ACTIVITY = 10;

const LIMIT_QUERY = ['limit'];

function limitQuery(input: RouteInput, context: RouteContext): number | Failure {
  const unknown = knownQuery(input.query, LIMIT_QUERY);
  if (unknown !== null) return unknown;
  const config = context.platform.config.casino;
  return queryLimit(input.query, config.historyLimitDefault, config.historyLimitMax);
}

const REGISTER_KEYS = ['agent_id', 'referrer', 'referral_code'];

const register = defineRoute<{ agentId: string; referrer: string | undefined }, Registration>({
  id: 'casino.A.register',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/auth/register',
  auth: 'none',
  limits: { registerPerIp: true },
  summary: 'Create a casino account (one platform agent): returns its API key, shown once.',
  parse: (input, context) => {
    const fields = bodyOnly(input, REGISTER_KEYS);
    if (isFailure(fields)) return fields;
    const agentId = optionalString(fields['agent_id'], 'agent_id', 64);
    if (isFailure(agentId)) return agentId;
    const referrer = optionalString(fields['referrer'], 'referrer', 128);
    if (isFailure(referrer)) return referrer;
    const code = optionalString(fields['referral_code'], 'referral_code', 128);
    if (isFailure(code)) return code;
    if (referrer !== undefined && code !== undefined)
      return fail('BAD_REQUEST', 'send referrer or referral_code, not both');
    return { agentId: agentId ?? context.platform.context.ids.next('ag_', 12), referrer: referrer ?? code };
  },
  run: (context, command) => registerAgent(context, command.agentId, command.referrer),
  successStatus: 201,
  render: (registration) => ({
    agent_id: registration.agent.id,
    api_key: registration.apiKey,
    agent_address: registration.agent.address,
    referral_code: registration.agent.referralCode,
    balance: moneyA(registration.balanceMicro),
    created_at: isoTime(registration.agent.createdAtMs),
  }),
});

function journalLine(entry: JournalEntry): JsonObject {
  return {
    id: entry.sequence,
    at: isoTime(entry.atMs),
    type: entry.reason,
    reference: entry.reference,
    counterparty: entry.counterparty,
    amount: moneyA(entry.amountMicro),
    balance_after: moneyA(entry.balanceAfterMicro),
  };
}

const balance = defineRoute<null, BalanceWithActivity>({
  id: 'casino.A.balance',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/auth/balance',
  auth: 'bearer',
  summary: 'Your balance (shared with faucet and escrow) and your last 10 transactions.',
  parse: noInput,
  // The last 10, or fewer where the config's history page is smaller (a larger ask would be refused).
  run: (context) =>
    context.platform.casino.account.balanceWithActivity(
      casinoCaller(context),
      Math.min(RECENT_ACTIVITY, context.platform.config.casino.historyLimitMax),
    ),
  successStatus: 200,
  render: (view) => ({
    agent_id: view.agentId,
    balance: moneyA(view.balanceMicro),
    currency: 'USDC',
    pending_deposits: moneyA(view.pendingDepositsMicro),
    pending_withdrawals: moneyA(view.pendingWithdrawalsMicro),
    recent_activity: view.recent.map(journalLine),
  }),
});

const CHAIN_KEYS = ['chain'];

const depositAddress = defineRoute<string, DepositAddress>({
  id: 'casino.A.deposit-address',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/auth/deposit-address',
  auth: 'bearer',
  summary: 'Your deposit address on a supported chain ({ chain }, default base).',
  parse: (input) => {
    const fields = bodyOnly(input, CHAIN_KEYS);
    if (isFailure(fields)) return fields;
    const chain = optionalString(fields['chain'], 'chain', 32);
    return isFailure(chain) ? chain : (chain ?? 'base');
  },
  run: (context, chain) => context.platform.casino.account.depositAddress(casinoCaller(context), chain),
  successStatus: 200,
  render: (address) => ({
    chain: address.chain,
    address: address.address,
    token: address.token,
    confirmations_required: address.confirmationsRequired,
    estimated_confirmation_seconds: address.confirmationMs / 1000,
  }),
});

function depositLine(deposit: DepositView): JsonObject {
  return {
    deposit_id: deposit.id,
    chain: deposit.chain,
    address: deposit.address,
    amount: moneyA(deposit.amountMicro),
    tx_hash: deposit.txHash,
    status: deposit.status,
    confirmations: deposit.confirmations,
    confirmations_required: deposit.confirmationsRequired,
    created_at: isoTime(deposit.createdAtMs),
    confirmed_at: deposit.confirmedAtMs === null ? null : isoTime(deposit.confirmedAtMs),
  };
}

const deposits = defineRoute<number, DepositView[]>({
  id: 'casino.A.deposits',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/auth/deposits',
  auth: 'bearer',
  summary: 'Your deposits, newest first (?limit= 1..100, default 20).',
  parse: limitQuery,
  run: (context, limit) => context.platform.casino.account.depositsOf(casinoCaller(context), limit, context.nowMs),
  successStatus: 200,
  render: (list) => ({ deposits: list.map(depositLine), count: list.length }),
});

const ledger = defineRoute<number, JournalEntry[]>({
  id: 'casino.A.ledger',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/auth/ledger',
  auth: 'bearer',
  summary: 'Your transaction history across every service, newest first (?limit=).',
  parse: limitQuery,
  run: (context, limit) => context.platform.casino.account.ledgerOf(casinoCaller(context), limit),
  successStatus: 200,
  render: (entries) => ({ transactions: entries.map(journalLine), count: entries.length }),
});

function withdrawalLine(withdrawal: WithdrawalRecord): JsonObject {
  return {
    withdrawal_id: withdrawal.id,
    chain: withdrawal.chain,
    address: withdrawal.address,
    amount: moneyA(withdrawal.amountMicro),
    fee: moneyA(withdrawal.feeMicro),
    total_debited: moneyA(withdrawal.debitMicro),
    status: withdrawal.status,
    tx_hash: withdrawal.txHash,
    created_at: isoTime(withdrawal.createdAtMs),
    review_ends_at: withdrawal.reviewEndsAtMs === null ? null : isoTime(withdrawal.reviewEndsAtMs),
    completed_at: withdrawal.completedAtMs === null ? null : isoTime(withdrawal.completedAtMs),
  };
}

const WITHDRAW_KEYS = ['amount', 'address', 'chain', 'currency'];

const withdraw = defineRoute<{ amountMicro: bigint; address: string; chain: string | null }, WithdrawalRecord>({
  id: 'casino.A.withdraw',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/auth/withdraw',
  auth: 'bearer',
  summary: 'Withdraw USDC on Base ({ amount, address, chain? }): minimum 1.00, flat fee 0.50 added.',
  parse: (input) => {
    const fields = bodyOnly(input, WITHDRAW_KEYS);
    if (isFailure(fields)) return fields;
    const amountMicro = requiredAmount(fields['amount'], 'amount', 'number');
    if (isFailure(amountMicro)) return amountMicro;
    const address = requiredString(fields['address'], 'address', 128);
    if (isFailure(address)) return address;
    const chain = optionalString(fields['chain'], 'chain', 32);
    if (isFailure(chain)) return chain;
    const currency = optionalString(fields['currency'], 'currency', 16);
    if (isFailure(currency)) return currency;
    if (currency !== undefined && currency !== 'USDC') return fail('BAD_REQUEST', 'currency must be USDC');
    return { amountMicro, address, chain: chain ?? null };
  },
  run: (context, command) =>
    context.platform.casino.account.withdraw({ agentId: casinoCaller(context), ...command }, context.nowMs),
  successStatus: 200,
  render: (withdrawal, context) => ({
    ...withdrawalLine(withdrawal),
    new_balance: moneyA(context.platform.casino.balanceMicro(withdrawal.agentId)),
  }),
});

const withdrawals = defineRoute<number, WithdrawalRecord[]>({
  id: 'casino.A.withdrawals',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/auth/withdrawals',
  auth: 'bearer',
  summary: 'Your withdrawals, newest first (?limit=).',
  parse: limitQuery,
  run: (context, limit) => context.platform.casino.account.withdrawalsOf(casinoCaller(context), limit),
  successStatus: 200,
  render: (list) => ({ withdrawals: list.map(withdrawalLine), count: list.length }),
});

const chains = defineRoute<null, readonly ChainInfo[]>({
  id: 'casino.A.supported-chains',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/auth/supported-chains',
  auth: 'bearer',
  summary: 'Chains accepted for deposits, and the one for withdrawals (Base).',
  parse: noInput,
  run: (context) => succeed(context.platform.casino.account.supportedChains()),
  successStatus: 200,
  render: (list) => ({
    chains: list.map((chain) => ({
      id: chain.id,
      name: chain.name,
      token: chain.token,
      deposits: true,
      withdrawals: chain.withdraw,
      confirmations_required: chain.confirmationsRequired,
      estimated_confirmation_seconds: chain.confirmationMs / 1000,
    })),
    withdrawal: { chain: 'base', fee: 0.5, minimum: 1 },
  }),
});

export const casinoAuthRoutes: readonly Route[] = [
  register,
  balance,
  depositAddress,
  withdraw,
  chains,
  deposits,
  ledger,
  withdrawals,
];
