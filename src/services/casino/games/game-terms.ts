/**
 * The terms casino.md states for many games at once, written once so a game row spreads them
 * instead of copying the numbers: the core games' advertised 0.5% edge, and the two bet ranges
 * (every bet at least 0.01 USDC; at most 10,000 USDC, "lower for some games": 1,000).
 * A game whose terms differ (slots' 0.10 minimum, each table game's edge) writes its own.
 */
import { ratio } from '../../../core/ratio.ts';
import type { GameModule } from './game.ts';

type EdgeTerms = Pick<GameModule, 'advertisedEdgeText' | 'advertisedEdge'>;
type BetRange = Pick<GameModule, 'minBetMicro' | 'maxBetMicro'>;

/** casino.md: the core games' house edge, 0.5%. */
export const CORE_GAME_EDGE: EdgeTerms = { advertisedEdgeText: '0.5%', advertisedEdge: () => ratio(5n, 1000n) };

/** 0.01 to 10,000 USDC: the core games and simple dice. */
export const WIDE_BET_RANGE: BetRange = { minBetMicro: 10_000n, maxBetMicro: 10_000_000_000n };

/** 0.01 to 1,000 USDC: the table games. */
export const TABLE_BET_RANGE: BetRange = { minBetMicro: 10_000n, maxBetMicro: 1_000_000_000n };
