/**
 * Every casino row, all three addressing styles, over the one CasinoService: style A on the
 * casino's own address (/api/v1), style B under /casino-api on the shared api address, and the
 * short style beside style A.
 */
import type { Route } from '../../route.ts';
import { casinoAuthRoutes } from './casino-auth.ts';
import { casinoRoutesB } from './casino-b.ts';
import { casinoFairnessRoutes } from './casino-fairness.ts';
import { casinoGameRoutes } from './casino-games.ts';
import { casinoKellyRoutes } from './casino-kelly.ts';
import { casinoReferralRoutes } from './casino-referral.ts';
import { casinoShortRoutes } from './casino-short.ts';
import { casinoStatsRoutes } from './casino-stats.ts';
import { casinoTournamentRoutes } from './casino-tournaments.ts';
import { casinoVideoPokerRoutes } from './casino-video-poker.ts';

export const casinoRoutes: readonly Route[] = [
  ...casinoAuthRoutes,
  ...casinoGameRoutes,
  ...casinoVideoPokerRoutes,
  ...casinoKellyRoutes,
  ...casinoFairnessRoutes,
  ...casinoStatsRoutes,
  ...casinoTournamentRoutes,
  ...casinoReferralRoutes,
  ...casinoShortRoutes,
  ...casinoRoutesB,
];
