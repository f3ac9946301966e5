/**
 * The table of every row `afp serve --dialect deployed` serves (spec/DEPLOYED.md): the casino on
 * its own address under /api/v1, the faucet and escrow at the root of theirs. The deployed
 * dispatcher (src/http/deployed/deployed-dispatcher.ts) reads only this table.
 */
import type { Route } from '../../route.ts';
import { deployedAccountRoutes } from './casino-account.ts';
import { deployedBatchRoutes } from './casino-batch.ts';
import { deployedChallengeRoutes } from './casino-challenges.ts';
import { deployedFairnessRoutes } from './casino-fairness.ts';
import { deployedGameRoutes } from './casino-games.ts';
import { deployedParlayRoutes } from './casino-parlay.ts';
import { deployedReferralRoutes } from './casino-referral.ts';
import { deployedStatsRoutes } from './casino-stats.ts';
import { deployedTournamentRoutes } from './casino-tournaments.ts';
import { deployedDomainsDiscoveryRoutes } from './domains-discovery.ts';
import { deployedDomainsRoutes } from './domains.ts';
import { deployedEscrowRoutes } from './escrow.ts';
import { deployedFaucetRoutes } from './faucet.ts';
import { deployedTradingMarketRoutes } from './trading-markets.ts';
import { deployedTradingOrderRoutes } from './trading-orders.ts';
import { deployedTradingRiskRoutes } from './trading-risk.ts';
import { deployedWalletMoveRoutes } from './wallet-moves.ts';
import { deployedWalletRoutes } from './wallet.ts';

export const DEPLOYED_ROUTES: readonly Route[] = [
  ...deployedAccountRoutes,
  ...deployedGameRoutes,
  ...deployedParlayRoutes,
  ...deployedBatchRoutes,
  ...deployedFairnessRoutes,
  ...deployedStatsRoutes,
  ...deployedReferralRoutes,
  ...deployedTournamentRoutes,
  ...deployedChallengeRoutes,
  ...deployedFaucetRoutes,
  ...deployedEscrowRoutes,
  ...deployedTradingMarketRoutes,
  ...deployedTradingOrderRoutes,
  ...deployedTradingRiskRoutes,
  ...deployedDomainsRoutes,
  ...deployedDomainsDiscoveryRoutes,
  ...deployedWalletRoutes,
  ...deployedWalletMoveRoutes,
];
