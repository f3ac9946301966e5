/**
 * Fairness operations (casino.md "fairness" group; NOTES.md "Provably fair"): the current seed
 * commitment, rotation on request, the seeds list with revealed texts, verification of a past
 * bet, and a bet's audit trail.
 *
 * Verification recomputes the bet from first principles: SHA-256 of the revealed seed must equal
 * the commitment the bet named, block 0's HMAC must equal the recorded result hash, and replaying
 * the game on the same draws must give the recorded multiplier and detail. Until the seed is
 * revealed, verify answers "seed not yet revealed" (200, `verified: null`): an agent asking early
 * is not an error. Only the bet's owner may verify or audit it (403), unknown → 404.
 */
import { isDeepStrictEqual } from 'node:util';
import { fail, succeed, type JsonObject, type Outcome } from '../../core/errors.ts';
import { compare, ratio } from '../../core/ratio.ts';
import type { BetRecord } from './bet-record.ts';
import type { CasinoState } from './casino-state.ts';
import { blockMessage, DrawStream } from './fair/draw-stream.ts';
import { crashPointCents } from './games/crash-point.ts';
import { gameById } from './games/index.ts';
import { seedCommitment, type ServerSeed } from './seed-book.ts';

export interface Verification {
  readonly bet: BetRecord;
  /** Null while the seed is not revealed. */
  readonly serverSeed: string | null;
  readonly verified: boolean | null;
  /** Empty when verified; each mismatch named otherwise. */
  readonly mismatches: readonly string[];
  readonly recomputed: { readonly multiplier: string; readonly detail: JsonObject } | null;
  readonly revealedAtMs: number | null;
  /** The HMAC messages of the blocks the bet drew. */
  readonly messages: readonly string[];
}

export function ownBet(state: CasinoState, agentId: string, betId: string): Outcome<BetRecord> {
  const bet = state.bets.get(betId);
  if (bet === undefined) return fail('NOT_FOUND', `bet ${betId} not found`);
  if (bet.agentId !== agentId) return fail('FORBIDDEN', `bet ${betId} belongs to another agent`);
  return succeed(bet);
}

/** Recomputes `bet` from a seed text; the mismatches found (empty = verified). */
export function recompute(
  bet: BetRecord,
  seedHex: string,
): { mismatches: string[]; multiplier: string; detail: JsonObject; blocks: number } {
  const mismatches: string[] = [];
  if (seedCommitment(seedHex) !== bet.seedHash) mismatches.push('server seed does not hash to the commitment');
  if (bet.variant === 'crash:round') return recomputeRound(bet, seedHex, mismatches);
  // A parlay is the deployed engine's only (deployed-draw.ts replays it); afp's scheme has none.
  if (bet.game === 'parlay')
    return { mismatches: [...mismatches, 'afp has no parlay of its own'], multiplier: '', detail: {}, blocks: 0 };
  const game = gameById(bet.game);
  const params = game.parse(bet.params);
  if (!params.ok)
    return {
      mismatches: [...mismatches, `stored parameters no longer parse: ${params.message}`],
      multiplier: '',
      detail: {},
      blocks: 0,
    };
  const draws = new DrawStream(seedHex, bet.clientSeed, bet.nonce);
  if (draws.firstBlockHex !== bet.resultHash) mismatches.push('result hash differs from HMAC block 0');
  const result = game.play(params.value, draws);
  if (compare(result.multiplier, bet.multiplier) !== 0)
    mismatches.push(`multiplier: recorded ${ratioText(bet.multiplier)}, recomputed ${ratioText(result.multiplier)}`);
  if (!isDeepStrictEqual(result.detail, bet.detail)) mismatches.push('outcome detail differs from the recomputed one');
  return { mismatches, multiplier: ratioText(result.multiplier), detail: result.detail, blocks: draws.blocksUsed };
}

/** A crash-round bet: the round's crash point from its seed, and the bet's return under it. */
function recomputeRound(
  bet: BetRecord,
  seedHex: string,
  mismatches: string[],
): { mismatches: string[]; multiplier: string; detail: JsonObject; blocks: number } {
  const draws = new DrawStream(seedHex, bet.clientSeed, bet.nonce);
  if (draws.firstBlockHex !== bet.resultHash) mismatches.push('result hash differs from HMAC block 0');
  const crashCents = crashPointCents(draws);
  const recordedCrash = bet.detail['crash_point'];
  if (recordedCrash !== crashCents / 100)
    mismatches.push(`crash point: recorded ${String(recordedCrash)}, recomputed ${crashCents / 100}`);
  const cashed = bet.detail['cashed_out_at'];
  const expected =
    typeof cashed === 'number' && Math.round(cashed * 100) <= crashCents
      ? ratio(Math.round(cashed * 100), 100)
      : ratio(0);
  if (compare(expected, bet.multiplier) !== 0)
    mismatches.push(`multiplier: recorded ${ratioText(bet.multiplier)}, recomputed ${ratioText(expected)}`);
  return {
    mismatches,
    multiplier: ratioText(expected),
    detail: { crash_point: crashCents / 100, cashed_out_at: typeof cashed === 'number' ? cashed : null },
    blocks: draws.blocksUsed,
  };
}

function ratioText(value: { num: bigint; den: bigint }): string {
  return value.den === 1n ? `${value.num}` : `${value.num}/${value.den}`;
}

export function verifyBet(state: CasinoState, agentId: string, betId: string): Outcome<Verification> {
  const owned = ownBet(state, agentId, betId);
  if (!owned.ok) return owned;
  const bet = owned.value;
  const seed = revealedSeed(state, bet);
  if (seed === null) {
    return succeed({
      bet,
      serverSeed: null,
      verified: null,
      mismatches: [],
      recomputed: null,
      revealedAtMs: null,
      messages: [blockMessage(bet.clientSeed, bet.nonce, 0)],
    });
  }
  const check = recompute(bet, seed.hex);
  const messages = Array.from({ length: Math.max(1, check.blocks) }, (_, block) =>
    blockMessage(bet.clientSeed, bet.nonce, block),
  );
  return succeed({
    bet,
    serverSeed: seed.hex,
    verified: check.mismatches.length === 0,
    mismatches: check.mismatches,
    recomputed: { multiplier: check.multiplier, detail: check.detail },
    revealedAtMs: seed.revealedAtMs,
    messages,
  });
}

/** The bet's seed if it has been revealed, else null. */
export function revealedSeed(state: CasinoState, bet: BetRecord): ServerSeed | null {
  const found = state.seeds.byCommitment(bet.seedHash);
  if (found === undefined || found.seed.revealedAtMs === null) return null;
  return found.seed;
}

export function rotateSeed(
  state: CasinoState,
  agentId: string,
  nowMs: number,
): { revealed: ServerSeed; active: ServerSeed } {
  const revealed = state.seeds.rotate(agentId, nowMs);
  state.ctx.emit({
    type: 'casino.seed-rotated',
    atMs: nowMs,
    agentId,
    seedHash: revealed.hash,
    nonces: revealed.nonces,
  });
  return { revealed, active: state.seeds.active(agentId, nowMs) };
}
