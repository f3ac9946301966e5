/**
 * The casino's deliberate edge defects as modified games, for audits of the audit: `afp audit
 * house-edge --defect NAME` runs the in-process simulator over `defectiveGames(NAME)` (in worker
 * threads through a GameSource naming this module, the simulator's hook for modified games).
 *
 * Each defect mirrors the served casino's (src/services/casino/place-bet.ts): payout-short pays
 * every winning multiplier × 0.99; biased-draw plays twice — the second time on a stream whose
 * client seed ends in '#' — and keeps the outcome worse for the player; keno-8 plays keno with
 * `kenoPlayDefective` (8 numbers drawn instead of 20). A modified game keeps the faithful game's
 * distribution and advertised edge: the theory stays afp's own rules, so the empirical edge
 * leaves it and the model check fails.
 * The other casino defects are not about the edge (replayable-nonce repeats a (seed, nonce) pair,
 * skip-balance-check overdraws): `defectAudit` names the audit that catches each, and the CLI
 * refuses them here. Non-goals: non-casino defects (faucet, escrow).
 */
import { assert } from '../../core/assert.ts';
import { compare, mul, ratio, type Ratio } from '../../core/ratio.ts';
import { DrawStream } from '../../services/casino/fair/draw-stream.ts';
import type { Draws, GameModule, GameResult } from '../../services/casino/games/game.ts';
import { GAMES } from '../../services/casino/games/index.ts';
import { kenoPlayDefective, type KenoParams } from '../../services/casino/games/keno.ts';
import type { GameSource } from './edge-simulation-workers.ts';
import { moduleUrl } from '../../core/module-url.ts';

/** The defects that change what the games pay: the ones the house-edge simulator can apply. */
export const EDGE_DEFECTS = ['payout-short', 'biased-draw', 'keno-8'] as const;
export type EdgeDefect = (typeof EDGE_DEFECTS)[number];

/** The casino defects that leave every edge as it is, and where each is caught instead. */
export const NON_EDGE_DEFECTS: Readonly<Record<string, string>> = {
  'replayable-nonce': 'afp audit fairness --target URL --key KEY (a (server seed, nonce) pair used twice)',
  'skip-balance-check': "afp check and afp run's no-negative-balance invariant (a balance overdrawn)",
};

const PAYOUT_SHORT: Ratio = ratio(99, 100);

/** 'casino-keno-8' and 'keno-8' name the same defect. */
export function defectShortName(name: string): string {
  return name.startsWith('casino-') ? name.slice('casino-'.length) : name;
}

export function isEdgeDefect(name: string): name is EdgeDefect {
  return (EDGE_DEFECTS as readonly string[]).includes(name);
}

function payoutShort(game: GameModule): GameModule {
  return {
    ...game,
    play(params, draws) {
      const result = game.play(params, draws);
      return compare(result.multiplier, ratio(1)) > 0
        ? { ...result, multiplier: mul(result.multiplier, PAYOUT_SHORT) }
        : result;
    },
  };
}

function biasedDraw(game: GameModule): GameModule {
  return {
    ...game,
    play(params, draws: Draws): GameResult {
      assert(
        draws instanceof DrawStream,
        'the biased-draw defect replays the bet on a second stream of the same seed and nonce',
      );
      const first = game.play(params, draws);
      const second = game.play(params, new DrawStream(draws.serverSeedHex, `${draws.clientSeed}#`, draws.nonce));
      return compare(second.multiplier, first.multiplier) < 0 ? second : first;
    },
  };
}

function kenoEight(game: GameModule): GameModule {
  if (game.id !== 'keno') return game;
  return { ...game, play: (params, draws) => kenoPlayDefective(params as KenoParams, draws) };
}

/** The 17 games with one edge defect applied; the GameSource export of this module. */
export function defectiveGames(defect: unknown): GameModule[] {
  assert(typeof defect === 'string' && isEdgeDefect(defect), `defectiveGames takes one of ${EDGE_DEFECTS.join(', ')}`);
  const apply = defect === 'payout-short' ? payoutShort : defect === 'biased-draw' ? biasedDraw : kenoEight;
  return GAMES.map(apply);
}

/** Where the simulator (and its workers) load the games with `defect` applied. */
export function defectGameSource(defect: EdgeDefect): GameSource {
  return {
    moduleUrl: moduleUrl('./defective-games', import.meta.url).href,
    exportName: 'defectiveGames',
    argument: defect,
  };
}
