/**
 * The table of every route row afp serves: each service's rows for every addressing style.
 * The dispatcher (in-process and `afp serve`), the replay matcher and the endpoint list all read
 * this one table; a new service or style is new rows here, never a new request path.
 */
import type { Route } from '../route.ts';
import { escrowRoutes } from './escrow.ts';
import { casinoRoutes } from './casino.ts';
import { faucetRoutes } from './faucet.ts';

export const ALL_ROUTES: readonly Route[] = [...faucetRoutes, ...escrowRoutes, ...casinoRoutes];
