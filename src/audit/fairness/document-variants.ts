/**
 * The variants the documents name (casino.md: dice over 50 and over 90, keno 1 to 10 spots, the
 * plinko rows × risks, …), as a live audit sends them: afp's game table (`game.variants()`, the
 * list the simulated house-edge audit and GET /kelly/limits play) with each variant's parameters
 * written back in the documents' body fields (`target_multiplier: 2`, `bet_type: "red"`).
 *
 * One source, so the afp and deployed schemes and the audits play the same variants. Each wire
 * form is checked against the game's own parser when the list is built: it must parse back to the
 * same variant name (an assertion: a disagreement is a bug of this table, not of a target).
 * Video poker's optimal play has no body (it is two calls, and the holds are chosen after the
 * deal): its wire form is `{ holds: "optimal" }`, a marker only the afp scheme's law reads.
 */
import { assert } from '../../core/assert.ts';
import type { JsonObject } from '../../core/errors.ts';
import type { BaccaratParams } from '../../services/casino/games/baccarat.ts';
import type { BlackjackParams } from '../../services/casino/games/blackjack.ts';
import type { CoinFlipParams } from '../../services/casino/games/coin-flip.ts';
import type { CrashParams } from '../../services/casino/games/crash.ts';
import type { CustomParams } from '../../services/casino/games/custom.ts';
import type { DiceParams } from '../../services/casino/games/dice.ts';
import type { GameId, GameModule } from '../../services/casino/games/game.ts';
import type { HiloParams } from '../../services/casino/games/hilo.ts';
import { GAMES } from '../../services/casino/games/index.ts';
import type { KenoParams } from '../../services/casino/games/keno.ts';
import type { MinesParams } from '../../services/casino/games/mines.ts';
import type { MultiplierParams } from '../../services/casino/games/multiplier.ts';
import type { PlinkoParams } from '../../services/casino/games/plinko.ts';
import type { RouletteParams } from '../../services/casino/games/roulette.ts';
import type { SimpleDiceParams } from '../../services/casino/games/simple-dice.ts';
import type { VideoPokerParams } from '../../services/casino/games/video-poker.ts';
import type { SchemeGame } from './scheme.ts';

/** The marker of video poker's optimal play (no wire form). */
export const VIDEO_POKER_OPTIMAL_WIRE: JsonObject = { holds: 'optimal' };

const cents = (value: number): number => value / 100;

/** Each game's parsed variant parameters as the documents' body fields. */
const WIRE: { readonly [G in GameId]: (params: never) => JsonObject } = {
  coin_flip: (params: CoinFlipParams) => ({ side: params.side }),
  dice: (params: DiceParams) => ({ direction: params.direction, threshold: params.threshold }),
  simple_dice: (params: SimpleDiceParams) => ({ pick: params.pick }),
  multiplier: (params: MultiplierParams) => ({ target_multiplier: cents(params.targetCents) }),
  roulette: (params: RouletteParams): JsonObject =>
    params.betValue === null ? { bet_type: params.betType } : { bet_type: params.betType, bet_value: params.betValue },
  custom: (params: CustomParams) => ({ win_probability: params.winProbability }),
  blackjack: (params: BlackjackParams) => ({ action: params.action }),
  crash: (params: CrashParams) => ({ cash_out_at: cents(params.cashOutCents) }),
  plinko: (params: PlinkoParams) => ({ rows: params.rows, risk: params.risk }),
  slots: () => ({}),
  hilo: (params: HiloParams) => ({ guess: params.guess }),
  keno: (params: KenoParams) => ({ picks: [...params.picks] }),
  scratch_card: () => ({}),
  video_poker: (params: VideoPokerParams) => {
    assert(params.holds.kind === 'strategy', 'video poker variants are strategies');
    return VIDEO_POKER_OPTIMAL_WIRE;
  },
  wheel: () => ({}),
  mines: (params: MinesParams) => ({ mines: params.mines, reveals: params.reveals }),
  baccarat: (params: BaccaratParams) => ({ bet_on: params.betOn }),
};

function wireVariants(game: GameModule): SchemeGame {
  const toWire = WIRE[game.id] as (params: unknown) => JsonObject;
  return {
    game: game.id,
    variants: game.variants().map((variant) => {
      const params = toWire(variant.params);
      if (params !== VIDEO_POKER_OPTIMAL_WIRE) {
        const parsed = game.parse(params);
        assert(
          parsed.ok && game.variantName(parsed.value) === variant.name,
          `${variant.name}: the wire form parses back to the variant`,
        );
      }
      return { name: variant.name, params };
    }),
  };
}

let cached: readonly SchemeGame[] | null = null;

/** The 17 games in the documents' order, each with its documented variants as body fields. */
export function documentVariants(): readonly SchemeGame[] {
  cached ??= GAMES.map(wireVariants);
  return cached;
}
