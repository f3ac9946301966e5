/**
 * How a challenge is decided, provably fairly, and how anyone re-checks it (docs/decisions/casino.md,
 * "Casino service").
 *
 * The draw uses the CHALLENGER's active server seed at accept time, taking its next nonce like a
 * bet, with the challenge id as client seed: blocks are HMAC-SHA256(seed hex, "<chl_id>:<nonce>"
 * [":<k>"]) as for every bet (fair/draw-stream.ts). The challenger cannot steer it (the seed was
 * committed before the challenged agent accepted, and the id is drawn by the platform); the
 * challenged agent sees only the commitment.
 * - coin_flip: int(2); 0 (heads) → the challenger wins, 1 (tails) → the challenged agent.
 * - dice: each side rolls int(100) + 1, the challenger first; the higher roll wins; a tie rolls
 *   again with the next words, up to DICE_ROUNDS_MAX rounds (64 ties in a row: probability
 *   10^-128, treated as a bug).
 * Both are even money: neither side has an edge; the house takes its cut of the stakes instead.
 */
import { assert } from '../../../core/assert.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { DrawStream } from '../fair/draw-stream.ts';
import type { Draws } from '../games/game.ts';
import { seedCommitment } from '../seed-book.ts';
import type { ChallengeGame, ChallengeProof } from './challenge-record.ts';

export const DICE_ROUNDS_MAX = 64;

export interface ChallengeDraw {
  readonly challengerWins: boolean;
  /** `{ outcome, winner }` for coin_flip; `{ rolls: [[challenger, challenged], …], winner }` for dice. */
  readonly result: JsonObject;
}

export function drawChallenge(game: ChallengeGame, draws: Draws): ChallengeDraw {
  switch (game) {
    case 'coin_flip': {
      const challengerWins = draws.int(2) === 0;
      return {
        challengerWins,
        result: { outcome: challengerWins ? 'heads' : 'tails', winner: challengerWins ? 'challenger' : 'challenged' },
      };
    }
    case 'dice': {
      const rolls: number[][] = [];
      for (let round = 0; round < DICE_ROUNDS_MAX; round++) {
        const challengerRoll = draws.int(100) + 1;
        const challengedRoll = draws.int(100) + 1;
        rolls.push([challengerRoll, challengedRoll]);
        if (challengerRoll !== challengedRoll) {
          const challengerWins = challengerRoll > challengedRoll;
          return { challengerWins, result: { rolls, winner: challengerWins ? 'challenger' : 'challenged' } };
        }
      }
      assert(false, `dice challenge tied ${DICE_ROUNDS_MAX} times`);
    }
  }
}

export interface ChallengeVerification {
  /** The seed matches the commitment, the first block matches, and the outcome is the same. */
  readonly verified: boolean;
  readonly replay: ChallengeDraw;
}

/** Re-draws a resolved challenge from its revealed server seed and compares. */
export function verifyChallenge(
  challenge: { readonly game: ChallengeGame; readonly proof: ChallengeProof; readonly result: JsonObject },
  serverSeedHex: string,
): ChallengeVerification {
  const draws = new DrawStream(serverSeedHex, challenge.proof.clientSeed, challenge.proof.nonce);
  const replay = drawChallenge(challenge.game, draws);
  const verified =
    seedCommitment(serverSeedHex) === challenge.proof.serverSeedHash &&
    draws.firstBlockHex === challenge.proof.resultHash &&
    JSON.stringify(replay.result) === JSON.stringify(challenge.result);
  return { verified, replay };
}
