/**
 * The game table (STYLE rule 6): the 17 games of casino.md, one row each, in the documents'
 * order. Everything that lists games — the style A routes, GET /games, the Kelly limits, the
 * house-edge audit, the docs — reads this table; a new game is a new module and a new row.
 */
import { assert } from '../../../core/assert.ts';
import { baccarat } from './baccarat.ts';
import { blackjack } from './blackjack.ts';
import { coinFlip } from './coin-flip.ts';
import { crash } from './crash.ts';
import { custom } from './custom.ts';
import { dice } from './dice.ts';
import { GAME_IDS, type GameId, type GameModule } from './game.ts';
import { hilo } from './hilo.ts';
import { keno } from './keno.ts';
import { mines } from './mines.ts';
import { multiplier } from './multiplier.ts';
import { plinko } from './plinko.ts';
import { roulette } from './roulette.ts';
import { scratchCard } from './scratch-card.ts';
import { simpleDice } from './simple-dice.ts';
import { slots } from './slots.ts';
import { videoPoker } from './video-poker.ts';
import { wheel } from './wheel.ts';

export const GAMES: readonly GameModule[] = [
  coinFlip,
  dice,
  simpleDice,
  multiplier,
  roulette,
  custom,
  blackjack,
  crash,
  plinko,
  slots,
  hilo,
  keno,
  scratchCard,
  videoPoker,
  wheel,
  mines,
  baccarat,
] as readonly unknown[] as readonly GameModule[];

const BY_ID = new Map<string, GameModule>(GAMES.map((game) => [game.id, game]));
const BY_PATH = new Map<string, GameModule>(GAMES.map((game) => [game.path, game]));
assert(BY_ID.size === GAME_IDS.length && GAME_IDS.every((id) => BY_ID.has(id)), 'the table has every game id once');

export function gameById(id: GameId): GameModule {
  const game = BY_ID.get(id);
  assert(game !== undefined, `game ${id} is in the table`);
  return game;
}

export function findGame(id: string): GameModule | undefined {
  return BY_ID.get(id);
}

export function gameByPath(path: string): GameModule | undefined {
  return BY_PATH.get(path);
}
