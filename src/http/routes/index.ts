/**
 * The table of every route row afp serves: each service's rows for every addressing style.
 * The dispatcher (in-process and `afp serve`), the replay matcher and the endpoint list all read
 * this one table; a new service or style is new rows here, never a new request path.
 * Layout (docs/layout.md): each service's rows live in its own folder (casino/, escrow/,
 * faucet/); deployed/ holds the deployed dialect's rows; what rows share (json-copy.ts) stays here.
 */
import type { Route } from '../route.ts';
import { escrowRoutes } from './escrow/escrow.ts';
import { casinoRoutes } from './casino/casino.ts';
import { faucetRoutes } from './faucet/faucet.ts';
import { domainsRoutes } from './domains/domains.ts';
import { tradingRoutes } from './trading/trading.ts';
import { walletPrimaryRoutes } from './wallet/wallet-primary.ts';
import { walletReferralRoutes } from './wallet/wallet-referral.ts';
import { walletStyleRoutes } from './wallet/wallet-styles.ts';

export const ALL_ROUTES: readonly Route[] = [
  ...faucetRoutes,
  ...escrowRoutes,
  ...casinoRoutes,
  ...tradingRoutes,
  ...domainsRoutes,
  ...walletPrimaryRoutes,
  ...walletReferralRoutes,
  ...walletStyleRoutes,
];
