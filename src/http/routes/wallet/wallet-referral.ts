/**
 * The wallet's referral rows (spec/wallet.md: /v1/gossip, /v1/referral/code, /stats, /withdraw),
 * over the platform's one referral programme (src/services/shared/referral-programme.ts: three
 * levels, the wallet's level-1 share 10%). A withdrawal moves every available earning into the
 * caller's platform balance at once (the programme's rule); `address` and `chain` (default base)
 * are checked like every wallet address and named in the confirmation (docs/decisions/wallet.md "Wallet").
 */
import { isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import {
  referralCode,
  referralStats,
  withdrawReferral,
  type ReferralCode,
  type ReferralStats,
  type ReferralWithdrawal,
} from '../../../services/shared/referral-programme.ts';
import type { WalletChain } from '../../../services/wallet/keys/wallet-keys.ts';
import { isValidAddress } from '../../../services/wallet/keys/wallet-keys.ts';
import { parseChain } from '../../../services/wallet/wallet-assets.ts';
import { fail } from '../../../core/errors.ts';
import { moneyA } from '../../render.ts';
import { defineRoute, type Route, type RouteInput } from '../../route.ts';
import { bodyOnly, noInput, requiredString } from '../../validate.ts';
import { ADDRESS_TEXT_MAX } from './wallet-parse.ts';
import { walletCaller } from './wallet-primary.ts';

const WITHDRAW_FIELDS = ['address', 'chain'];

function statsBody(stats: ReferralStats): JsonObject {
  return {
    referral_code: stats.referralCode,
    total_earned: moneyA(stats.earnedMicro),
    withdrawn: moneyA(stats.withdrawnMicro),
    available: moneyA(stats.availableMicro),
    levels: stats.levels.map((level) => ({
      level: level.level,
      referred_agents: level.referredAgents,
      earned: moneyA(level.earnedMicro),
    })),
  };
}

function codeBody(code: ReferralCode): JsonObject {
  return {
    referral_code: code.referralCode,
    levels: code.levels.map((level) => ({
      level: level.level,
      commission_pct: Number(level.shareBps) / 100,
      of: level.of,
    })),
  };
}

function parseWithdraw(input: RouteInput): { address: string; chain: WalletChain } | Failure {
  const fields = bodyOnly(input, WITHDRAW_FIELDS);
  if (isFailure(fields)) return fields;
  const chain =
    fields['chain'] === undefined || fields['chain'] === null ? 'base' : parseChain(fields['chain'], 'chain');
  if (isFailure(chain)) return chain;
  const address = requiredString(fields['address'], 'address', ADDRESS_TEXT_MAX);
  return isFailure(address) ? address : { address, chain };
}

export const walletReferralRoutes: readonly Route[] = [
  defineRoute<null, null>({
    id: 'wallet.primary.gossip',
    service: 'wallet',
    style: 'primary',
    mount: 'wallet',
    method: 'GET',
    path: '/v1/gossip',
    auth: 'none',
    summary: 'The referral programme (10% / 5% / 2.5% of wallet fees over 3 levels) and the live agent count (no key).',
    parse: noInput,
    run: () => succeed(null),
    successStatus: 200,
    render: (_value, context) => ({
      product: 'Public Wallet: a non-custodial six-chain HD wallet with cross-chain swaps',
      earn_passive_income: {
        how: 'Share your referral_code; agents register with it at POST /v1/auth/register.',
        commission: '10% / 5% / 2.5% of the wallet fees of agents you refer, over 3 levels',
      },
      register_endpoint: '/v1/auth/register',
      referral_code_endpoint: '/v1/referral/code',
      multi_level_referral: true,
      current_registered_agents: context.platform.agents.size,
    }),
  }),
  defineRoute<null, ReferralCode>({
    id: 'wallet.primary.referral-code',
    service: 'wallet',
    style: 'primary',
    mount: 'wallet',
    method: 'GET',
    path: '/v1/referral/code',
    auth: 'bearer',
    summary: 'Your referral code and the commission of each of the 3 levels.',
    parse: noInput,
    run: (context) => referralCode(context.platform.context, walletCaller(context), 'wallet'),
    successStatus: 200,
    render: codeBody,
  }),
  defineRoute<null, ReferralStats>({
    id: 'wallet.primary.referral-stats',
    service: 'wallet',
    style: 'primary',
    mount: 'wallet',
    method: 'GET',
    path: '/v1/referral/stats',
    auth: 'bearer',
    summary: 'Your referral earnings over 3 levels: total earned, withdrawn, available.',
    parse: noInput,
    run: (context) => referralStats(context.platform.context, walletCaller(context)),
    successStatus: 200,
    render: statsBody,
  }),
  defineRoute<{ address: string; chain: WalletChain }, ReferralWithdrawal & { address: string; chain: WalletChain }>({
    id: 'wallet.primary.referral-withdraw',
    service: 'wallet',
    style: 'primary',
    mount: 'wallet',
    method: 'POST',
    path: '/v1/referral/withdraw',
    auth: 'bearer',
    summary:
      'Withdraw every available referral earning (address required, chain default base); 422 when nothing is available.',
    parse: parseWithdraw,
    run: (context, command) => {
      // The address is checked per chain here, before anything moves (a per-field schema cannot say it).
      if (!isValidAddress(command.chain, command.address))
        return fail('BAD_REQUEST', `address is not a valid ${command.chain} address`, { field: 'address' });
      const withdrawn = withdrawReferral(context.platform.context, walletCaller(context), context.nowMs);
      return isFailure(withdrawn) ? withdrawn : succeed({ ...withdrawn.value, ...command });
    },
    successStatus: 200,
    render: (withdrawal) => ({
      status: 'initiated',
      amount: moneyA(withdrawal.amountMicro),
      address: withdrawal.address,
      chain: withdrawal.chain,
      stats: statsBody(withdrawal.stats),
    }),
  }),
];
