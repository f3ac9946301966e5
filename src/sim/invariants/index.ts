/**
 * The invariant table: one checker per file, registered here by the name scenario files use
 * (`invariants: [conservation, ...]`). A new invariant is a new file and a new row.
 * Layout (docs/layout.md): an invariant of one service lives in that service's folder (casino/,
 * escrow/, faucet/); invariants over the whole platform and the checker frame stay here.
 */
import type { InvariantName } from '../../scenario/scenario.ts';
import { casinoBetLimits } from './casino/casino-bet-limits.ts';
import { casinoBetsVerify } from './casino/casino-bets-verify.ts';
import { casinoConservation } from './casino/casino-conservation.ts';
import { casinoReferralLevels } from './casino/casino-referral-levels.ts';
import type { InvariantDefinition } from './checker.ts';
import { conservation } from './conservation.ts';
import { domainsExpiryExact } from './domains/domains-expiry-exact.ts';
import { domainsFees } from './domains/domains-fees.ts';
import { domainsOneOwner } from './domains/domains-one-owner.ts';
import { errorShape } from './error-shape.ts';
import { escrowExpiryExact } from './escrow/escrow-expiry-exact.ts';
import { escrowSettlesOnce } from './escrow/escrow-settles-once.ts';
import { faucetCooldown } from './faucet/faucet-cooldown.ts';
import { noNegativeBalance } from './no-negative-balance.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import { referralLevels } from './referral-levels.ts';
import { tradingConservation } from './trading/trading-conservation.ts';
import { tradingFundingExact } from './trading/trading-funding-exact.ts';
import { tradingTriggersExact } from './trading/trading-triggers-exact.ts';
import { walletConservation } from './wallet/wallet-conservation.ts';
import { tradingLiquidationSolvent } from './trading/trading-liquidation-solvent.ts';

export const INVARIANTS: Readonly<Record<InvariantName, InvariantDefinition>> = {
  conservation,
  'no-negative-balance': noNegativeBalance,
  'faucet-cooldown': faucetCooldown,
  'escrow-settles-once': escrowSettlesOnce,
  'escrow-expiry-exact': escrowExpiryExact,
  'rate-limit-headers': rateLimitHeaders,
  'error-shape': errorShape,
  'casino-bet-limits': casinoBetLimits,
  'casino-bets-verify': casinoBetsVerify,
  'casino-conservation': casinoConservation,
  'casino-referral-levels': casinoReferralLevels,
  'domains-one-owner': domainsOneOwner,
  'domains-expiry-exact': domainsExpiryExact,
  'domains-fees': domainsFees,
  'trading-conservation': tradingConservation,
  'trading-liquidation-solvent': tradingLiquidationSolvent,
  'trading-funding-exact': tradingFundingExact,
  'trading-triggers-exact': tradingTriggersExact,
  'wallet-conservation': walletConservation,
  'referral-levels': referralLevels,
};

export type { CheckerContext, Exchange, InvariantChecker, InvariantDefinition, Violation } from './checker.ts';
