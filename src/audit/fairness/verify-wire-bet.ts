/**
 * The client-side recomputation of one casino bet from wire data and its revealed server seed —
 * what an outside auditor can check without trusting the server's own verification (the
 * published rules: docs/fairness.md, src/services/casino/fair/draw-stream.ts):
 *   1. the seed is revealed, and SHA-256 of its hex text is the bet's commitment;
 *   2. HMAC block 0 for (client seed, nonce) is the recorded result hash;
 *   3. replaying the game (`gameById(game).parse(parameters)`, a DrawStream, `play`) gives the
 *      recorded multiplier (as the wire rounds it, 6 decimals) and the recorded result;
 *   4. the amount paid is floor(amount × recomputed multiplier) — so a payout cut is caught
 *      whatever the casino writes in its multiplier field.
 * Crash-round bets (variant 'crash:round') share the round's seed and nonce: their crash point
 * comes from the round's stream, and the return is the cash-out when the crash point reached it
 * (as src/services/casino/fairness.ts `recomputeRound` states the rule).
 * Returns every problem found (empty = verified). Non-goals: fetching anything; nonce reuse across
 * bets (src/audit/live/fairness-audit.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { JsonValue } from '../../core/errors.ts';
import { applyToMicro, ratio, type Ratio } from '../../core/ratio.ts';
import { DrawStream } from '../../services/casino/fair/draw-stream.ts';
import { crashPointCents } from '../../services/casino/games/crash-point.ts';
import { findGame } from '../../services/casino/games/index.ts';
import { fixedNumber } from '../../services/casino/kelly/kelly-numbers.ts';
import { seedCommitment } from '../../services/casino/seed-book.ts';
import type { WireBet } from './wire-bet.ts';

export const CRASH_ROUND_VARIANT = 'crash:round';
const SEED_HEX = /^[0-9a-f]{64}$/;

/** A bet that did not verify, as the audits list it. */
export interface BetMismatch {
  readonly betId: string;
  readonly game: string;
  readonly variant: string | null;
  readonly seedHash: string;
  /** -1 when the answer had none. */
  readonly nonce: number;
  readonly problems: readonly string[];
}

/** The recomputed multiplier of a verified bet (for tallies), and every problem found. */
export interface WireVerification {
  readonly problems: readonly string[];
  /** Null when the bet could not be replayed (no seed, unknown game, bad parameters). */
  readonly multiplier: Ratio | null;
}

/** The separate checks of one bet under a well-formed seed (the fairness schemes read these). */
export interface WireChecks {
  readonly commitmentOk: boolean;
  /** HMAC block 0 of (client seed, nonce): what `result_hash` must be. */
  readonly expectedResultHash: string;
  readonly replayed: Replayed;
}

export function checkWireBet(
  bet: Pick<WireBet, 'game' | 'variant' | 'params' | 'detail' | 'clientSeed' | 'nonce' | 'seedHash'>,
  seedHex: string,
): WireChecks {
  const draws = new DrawStream(seedHex, bet.clientSeed, bet.nonce);
  const expectedResultHash = draws.firstBlockHex;
  const replayed = bet.variant === CRASH_ROUND_VARIANT ? replayRound(bet, draws) : replayGame(bet, draws);
  return { commitmentOk: seedCommitment(seedHex) === bet.seedHash, expectedResultHash, replayed };
}

export function isSeedHex(seedHex: string): boolean {
  return SEED_HEX.test(seedHex);
}

export function verifyWireBet(bet: WireBet, seedHex: string | null): WireVerification {
  if (seedHex === null) return { problems: ['server seed not revealed after rotation'], multiplier: null };
  if (!SEED_HEX.test(seedHex)) return { problems: ['revealed server seed is not 64 hex characters'], multiplier: null };
  const problems: string[] = [];
  const checks = checkWireBet(bet, seedHex);
  if (!checks.commitmentOk) problems.push('server seed does not hash to the commitment');
  if (checks.expectedResultHash !== bet.resultHash) problems.push('result hash differs from HMAC block 0');
  const replayed = checks.replayed;
  if ('problem' in replayed) return { problems: [...problems, replayed.problem], multiplier: null };
  const { multiplier, detail } = replayed;
  if (fixedNumber(multiplier) !== bet.multiplier)
    problems.push(`multiplier: recorded ${bet.multiplier}, recomputed ${fixedNumber(multiplier)}`);
  if (detail !== null && !isDeepStrictEqual(detail, bet.detail))
    problems.push('result differs from the recomputed one');
  const dueMicro = applyToMicro(bet.amountMicro, multiplier);
  if (dueMicro !== bet.payoutMicro)
    problems.push(`paid ${bet.payoutMicro} micro, due ${dueMicro} (amount × recomputed multiplier)`);
  return { problems, multiplier };
}

export type Replayed = { readonly multiplier: Ratio; readonly detail: JsonValue | null } | { readonly problem: string };

function replayGame(bet: Pick<WireBet, 'game' | 'params'>, draws: DrawStream): Replayed {
  const game = findGame(bet.game);
  if (game === undefined) return { problem: `unknown game '${bet.game}'` };
  const params = game.parse(bet.params);
  if (!params.ok) return { problem: `parameters do not parse: ${params.message}` };
  const result = game.play(params.value, draws);
  return { multiplier: result.multiplier, detail: result.detail };
}

/** A crash-round bet: the crash point of the round's draw, and the cash-out it reached (or 0). */
function replayRound(bet: Pick<WireBet, 'detail'>, draws: DrawStream): Replayed {
  const crashCents = crashPointCents(draws);
  const detail = bet.detail;
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail))
    return { problem: 'crash-round result is not an object' };
  if (detail['crash_point'] !== crashCents / 100)
    return { problem: `crash point: recorded ${String(detail['crash_point'])}, recomputed ${crashCents / 100}` };
  const cashed = detail['cashed_out_at'];
  const multiplier =
    typeof cashed === 'number' && Math.round(cashed * 100) <= crashCents
      ? ratio(Math.round(cashed * 100), 100)
      : ratio(0);
  return { multiplier, detail: null };
}
