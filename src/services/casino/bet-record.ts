/**
 * BetRecord: one settled casino bet, whatever the style or the route that placed it (single
 * game, batch element, style B, short style, tournament play, video-poker draw). Everything a
 * proof, an audit trail, the stats and the reports need is here; nothing is recomputed later.
 *
 * Invariants: `payoutMicro` = floor(amountMicro × multiplier) (total return, stake included;
 * the house keeps fractions of a micro); `won` ⇔ payout > amount; a bet is immutable once
 * recorded; ids are `bet_` + 16 hex from the platform's id stream.
 */
import type { JsonObject } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';
import type { Ratio } from '../../core/ratio.ts';
import type { GameId } from './games/game.ts';

/** A recorded bet's game: afp's games, or the deployed dialect's `parlay` (several legs as one bet: parlay-bet.ts). */
export type BetGameId = GameId | 'parlay';

export type BetSource = 'A' | 'B' | 'short' | 'batch' | 'tournament' | 'video-poker';

export interface BetRecord {
  readonly id: string;
  readonly agentId: string;
  readonly game: BetGameId;
  readonly variant: string;
  /** The game parameters as sent (validated), for verification. */
  readonly params: JsonObject;
  readonly amountMicro: Micro;
  readonly multiplier: Ratio;
  readonly payoutMicro: Micro;
  readonly won: boolean;
  readonly clientSeed: string;
  readonly nonce: number;
  /** Commitment of the server seed the bet drew from. */
  readonly seedHash: string;
  /** Hex of the bet's first HMAC block. */
  readonly resultHash: string;
  readonly detail: JsonObject;
  readonly atMs: number;
  readonly balanceAfterMicro: Micro;
  readonly source: BetSource;
  /** The tournament a tournament play belongs to. */
  readonly tournamentId: string | null;
}

export const BET_ID_PATTERN = /^bet_[0-9a-f]{16}$/;
