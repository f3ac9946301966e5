/**
 * The deployed engine's draw of one bet (spec/DEPLOYED.md §2.3–§2.5): the bet's game played by a
 * DeployedCasinoRules value on the agent's server seed, client seed and nonce, as the deployment
 * plays it — `result_hash = HMAC-SHA256(seed hex, "<client_seed>:<nonce>")`, the roll, sub-draws
 * and the extra nonces of multi-nonce games. afp's seed book already is §2.3's (32 bytes of the
 * injected rng as hex, SHA-256 of the text, nonces from 0, retired at 1000); a play that uses
 * more than one nonce advances the counter past them (hilo 2, scratch card 3, keno min(attempts, 25)),
 * so a multi-nonce bet may run past the rotation point on the old seed, as the deployment's does.
 *
 * Money: the multiplier kept is the exact decimal of the deployment's double (`payout_multiplier`
 * on the wire, e.g. hilo's (1/wp) × 0.96), so the answer shows the same double and the credit is
 * floor(stake × multiplier) micro (rounded down: the house never pays a fraction of a micro more
 * than the rule gives).
 */
import { isDeepStrictEqual } from 'node:util';
import { compare, ZERO, type Ratio } from '../../../core/ratio.ts';
import { seedCommitment } from '../seed-book.ts';
import type { JsonObject } from '../../../core/errors.ts';
import type { GameResult } from '../games/game.ts';
import type { DeployedCasinoRules } from './deployed-casino-rules.ts';
import { hmacBytes } from './deployed-roll.ts';
import { decimalOf, isUnreadable, RollSource, type Unreadable } from './deployed-rule.ts';
import { deployedRuleTable } from './deployed-rule-table.ts';

export interface DeployedDraw {
  readonly result: GameResult;
  /** The 32 bytes of HMAC(seed, "<client_seed>:<nonce>"). */
  readonly resultBytes: Buffer;
  /** Nonces the play read from its own on (at least 1). */
  readonly noncesUsed: number;
  /** The `payout_multiplier` the answer shows (DeployedPlay.placedNumber; the multiplier reached where it has none). */
  readonly placedNumber: number;
}

export interface DeployedBetInput {
  readonly game: string;
  /** The parameters as sent (the deployment's names). */
  readonly params: JsonObject;
  readonly seedHex: string;
  readonly clientSeed: string;
  readonly nonce: number;
}

/** The bet played by `rules`, or why its parameters cannot be played. */
export function deployedDraw(rules: DeployedCasinoRules, input: DeployedBetInput): DeployedDraw | Unreadable {
  const rule = deployedRuleTable(rules).get(input.game);
  if (rule === undefined) return { why: `the deployed casino has no game '${input.game}'` };
  const play = rule.play(input.params, new RollSource(input.seedHex, input.clientSeed, input.nonce));
  if (isUnreadable(play)) return play;
  const multiplier = play.multiplierNumber === 0 ? ZERO : decimalOf(play.multiplierNumber);
  return {
    result: { multiplier, detail: play.result },
    resultBytes: hmacBytes(input.seedHex, `${input.clientSeed}:${input.nonce}`),
    noncesUsed: Math.max(1, play.noncesUsed ?? 1),
    placedNumber: play.placedNumber ?? play.multiplierNumber,
  };
}

/** What a deployed bet's verification recomputes from its revealed seed. */
export interface DeployedBetRecord extends Omit<DeployedBetInput, 'seedHex'> {
  readonly seedHash: string;
  readonly resultHash: string;
  readonly multiplier: Ratio;
  readonly detail: JsonObject;
}

/** The bet replayed under `rules` from its revealed seed: each mismatch named (empty: verified). */
export function deployedMismatches(rules: DeployedCasinoRules, bet: DeployedBetRecord, seedHex: string): string[] {
  const mismatches: string[] = [];
  if (seedCommitment(seedHex) !== bet.seedHash) mismatches.push('server seed does not hash to the commitment');
  const drawn = deployedDraw(rules, { ...bet, seedHex });
  if (isUnreadable(drawn)) return [...mismatches, `stored parameters no longer play: ${drawn.why}`];
  if (drawn.resultBytes.toString('hex') !== bet.resultHash)
    mismatches.push('result hash differs from HMAC(seed, "<client_seed>:<nonce>")');
  if (compare(drawn.result.multiplier, bet.multiplier) !== 0)
    mismatches.push('multiplier differs from the recomputed one');
  if (!isDeepStrictEqual(drawn.result.detail, bet.detail))
    mismatches.push('outcome detail differs from the recomputed one');
  return mismatches;
}
