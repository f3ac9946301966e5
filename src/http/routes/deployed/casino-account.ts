/**
 * The deployed casino's account rows (spec/DEPLOYED.md §2.2), over afp's style A rows: register
 * (`{ referral_code? }` → 201 with `balance`, `tier`, `risk_factor`, ...), balance (`balance_usd`,
 * `lifetime`, `recent_activity`) and withdraw (`{ amount, address }`: `minimum_withdrawal`,
 * `maximum_withdrawal`, `invalid_address`, `insufficient_balance`). afp's rules stay: a withdrawal
 * debits amount + 0.50 and over 1 000 waits in `pending_review`, as on the deployment.
 * Nearest values where afp keeps no such figure: `lifetime.total_deposited`/`total_withdrawn` sum
 * the newest 100 deposits/withdrawals; `explorer` is Basescan's page of afp's simulated hash.
 * Registration ignores a referral code it does not know (the agent registers without referrer), as
 * the deployment does and as afp's other deployed registrations do (wallet, trading, domains); a
 * referral_code that is not text is still a 400 `invalid_request`.
 * Non-goals: the registration's faucet claim (afp's register pays nothing; claim at the faucet).
 */
import type { Failure, JsonObject } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import type { BalanceWithActivity } from '../../../services/casino/account/casino-account.ts';
import type { WithdrawalRecord } from '../../../services/casino/account/account-records.ts';
import type { JournalEntry } from '../../../services/casino/account/account-journal.ts';
import { riskFactorOf } from '../../../services/casino/kelly-rule.ts';
import { fixedNumber } from '../../../services/casino/kelly/kelly-numbers.ts';
import type { Registration } from '../../../services/faucet/faucet.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import { isoTime, moneyA } from '../../render.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { adaptedRow } from './deployed-row.ts';

const LIST_MAX = 100;
const WITHDRAW_MAX_MICRO = 100_000_000_000n;

function riskFactor(context: RouteContext, agentId: string): number {
  return fixedNumber(riskFactorOf(context.platform.casino.state, agentId));
}

const registerBase = adaptedRow('casino.A.register', {
  id: 'casino.deployed.register',
  summary:
    'Create a casino agent ({ referral_code? }; an unknown code is ignored); its api_key works on the faucet and escrow too.',
  bodyKeys: ['referral_code'],
  render: (value, context) => {
    const registration = value as Registration;
    return {
      agent_id: registration.agent.id,
      api_key: registration.apiKey,
      referral_code: registration.agent.referralCode,
      balance: moneyA(registration.balanceMicro),
      tier: registration.agent.tier,
      risk_factor: riskFactor(context, registration.agent.id),
      referral_commission: { level_1: 0.1, level_2: 0.05, level_3: 0.025 },
      message: 'Agent registered. Keep your api_key: it is shown once.',
      next_steps: [
        'Claim 1.00 USDC from the faucet: POST /faucet/claim { agent_casino_id }',
        'List the games: GET /api/v1/games',
        'Place a bet: POST /api/v1/games/coin-flip { side, amount }',
      ],
    };
  },
});

/** The registration's input without a referral code no agent holds (the deployment ignores it). */
function withKnownReferral(input: RouteInput, context: RouteContext): RouteInput {
  const body = input.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return input;
  const code = (body as Record<string, unknown>)['referral_code'];
  if (typeof code !== 'string' || context.platform.agents.resolve(code) !== undefined) return input;
  const { referral_code: _ignored, ...rest } = body as Record<string, unknown>;
  return { ...input, body: rest };
}

const register: Route = {
  ...registerBase,
  parse: (input, context) => registerBase.parse(withKnownReferral(input, context), context),
};

function activityLine(entry: JournalEntry): JsonObject {
  const service = entry.reason.split('.')[0] ?? 'casino';
  return {
    type: entry.amountMicro >= 0n ? 'credit' : 'debit',
    amount: moneyA(entry.amountMicro),
    balance_after: moneyA(entry.balanceAfterMicro),
    reason: entry.reason,
    service,
    at: isoTime(entry.atMs),
  };
}

function lifetime(context: RouteContext, agentId: string): JsonObject {
  const account = context.platform.casino.account;
  const deposits = account.depositsOf(agentId, LIST_MAX, context.nowMs);
  const withdrawals = account.withdrawalsOf(agentId, LIST_MAX);
  const deposited = deposits.ok
    ? deposits.value
        .filter((deposit) => deposit.status === 'confirmed')
        .reduce((sum: Micro, deposit) => sum + deposit.amountMicro, 0n)
    : 0n;
  const withdrawn = withdrawals.ok
    ? withdrawals.value.reduce((sum: Micro, withdrawal) => sum + withdrawal.amountMicro, 0n)
    : 0n;
  const totals = context.platform.casino.stats(agentId).overall;
  return {
    total_deposited: moneyA(deposited),
    total_withdrawn: moneyA(withdrawn),
    total_wagered: moneyA(totals.wageredMicro),
    total_won: moneyA(totals.wonMicro),
    net_profit: moneyA(totals.wonMicro - totals.wageredMicro),
  };
}

const balance = adaptedRow('casino.A.balance', {
  id: 'casino.deployed.balance',
  summary: 'Your balance (shared with the faucet and escrow), lifetime totals and recent activity.',
  bodyKeys: [],
  render: (value, context) => {
    const view = value as BalanceWithActivity;
    const agent = context.platform.agents.get(view.agentId);
    return {
      agent_id: view.agentId,
      balance_usd:
        context.floatBalances === undefined
          ? moneyA(view.balanceMicro)
          : context.floatBalances.balance(view.agentId, view.balanceMicro),
      tier: agent?.tier ?? 'free',
      risk_factor: riskFactor(context, view.agentId),
      lifetime: lifetime(context, view.agentId),
      recent_activity: view.recent.map(activityLine),
    };
  },
});

/** §2.2's names for afp's withdrawal refusals. */
function withdrawRefusal(failure: Failure): Failure {
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 400);
  if (failure.code !== 'BAD_REQUEST') return failure;
  if (failure.message.startsWith('amount must be at least')) return renamed(failure, 'minimum_withdrawal', 400);
  if (failure.message.includes('address')) return renamed(failure, 'invalid_address', 400);
  return renamed(failure, 'invalid_amount', 400);
}

const withdraw = adaptedRow('casino.A.withdraw', {
  id: 'casino.deployed.withdraw',
  summary: 'Withdraw USDC on Base ({ amount, address }): minimum 1.00, maximum 100 000, fee 0.50 added.',
  bodyKeys: ['amount', 'address'],
  refusal: withdrawRefusal,
  render: (value, context): JsonObject => {
    const withdrawal = value as WithdrawalRecord;
    const balanceMicro = context.platform.casino.balanceMicro(withdrawal.agentId);
    const newBalance =
      context.floatBalances === undefined
        ? moneyA(balanceMicro)
        : context.floatBalances.balance(withdrawal.agentId, balanceMicro);
    if (withdrawal.status !== 'completed') {
      return {
        status: withdrawal.status,
        withdrawal_id: withdrawal.id,
        amount: moneyA(withdrawal.amountMicro),
        fee: moneyA(withdrawal.feeMicro),
        message: 'Withdrawals over 1000 USDC are reviewed before they are sent.',
        new_balance: newBalance,
      };
    }
    return {
      status: 'completed',
      withdrawal_id: withdrawal.id,
      amount: moneyA(withdrawal.amountMicro),
      fee: moneyA(withdrawal.feeMicro),
      chain: 'base',
      token: 'USDC',
      address: withdrawal.address,
      tx_hash: withdrawal.txHash,
      explorer: `https://basescan.org/tx/${withdrawal.txHash ?? ''}`,
      new_balance: newBalance,
    };
  },
});

/** §2.2: over 100 000 is refused before afp's own checks (which have no such maximum). */
const maximumChecked: Route = {
  ...withdraw,
  parse: (input, context) => {
    const amount = (input.body as { amount?: unknown } | null | undefined)?.amount;
    if (typeof amount === 'number' && amount * 1_000_000 > Number(WITHDRAW_MAX_MICRO))
      return deployedFailure(400, 'maximum_withdrawal', 'Maximum withdrawal is $100,000');
    return withdraw.parse(input, context);
  },
};

export const deployedAccountRoutes: readonly Route[] = [register, balance, maximumChecked];
