/**
 * Casino wire shapes shared by the casino's route rows: the bet response of each style (NOTES.md
 * "Bet response (style A)"; casino.md "Bet response" for B and the short coin flip), the proof
 * object, seeds and verifications. Money: style A and short as JSON numbers, B as decimal
 * strings. Multipliers are exact ratios rendered as numbers rounded to 6 decimals.
 * Every function builds a fresh object (the dispatcher adds `_info` in place) and copies stored
 * details (json-copy.ts: structuredClone's copy, faster), so a client cannot mutate
 * platform state through a response. The style A `kelly` object comes from kelly-rule.ts's memos.
 */
import type { JsonObject } from '../../../core/errors.ts';
import type { Ratio } from '../../../core/ratio.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import type { ChallengeRecord } from '../../../services/casino/challenges/challenge-record.ts';
import type { CasinoState } from '../../../services/casino/casino-state.ts';
import type { Verification } from '../../../services/casino/fairness.ts';
import { findGame } from '../../../services/casino/games/index.ts';
import { betKellySummary } from '../../../services/casino/kelly-rule.ts';
import { fixedNumber } from '../../../services/casino/kelly/kelly-numbers.ts';
import type { ServerSeed } from '../../../services/casino/seed-book.ts';
import { isoTime, moneyA, moneyB } from '../../render.ts';
import { parsedParamsOf } from './casino-bet-fields.ts';
import { jsonCopy } from '../json-copy.ts';

export function proofOf(bet: BetRecord): JsonObject {
  return { server_seed_hash: bet.seedHash, client_seed: bet.clientSeed, nonce: bet.nonce, result_hash: bet.resultHash };
}

/** A settled challenge's proof, the same four fields (null while it is open). */
export function challengeProof(record: ChallengeRecord): JsonObject | null {
  const proof = record.proof;
  if (proof === null) return null;
  return {
    server_seed_hash: proof.serverSeedHash,
    client_seed: proof.clientSeed,
    nonce: proof.nonce,
    result_hash: proof.resultHash,
  };
}

const detailCopy = (bet: BetRecord): JsonObject => jsonCopy(bet.detail);

/**
 * `fixedNumber(multiplier)` for the last MULTIPLIERS_REMEMBERED distinct multipliers (a game pays
 * a handful; losses pay ZERO): a bigint division and rounding per answer otherwise. Compared by
 * value (a win's multiplier is often a fresh but equal ratio).
 */
const MULTIPLIERS_REMEMBERED = 8;
const rememberedNums: bigint[] = new Array<bigint>(MULTIPLIERS_REMEMBERED).fill(-1n);
const rememberedDens: bigint[] = new Array<bigint>(MULTIPLIERS_REMEMBERED).fill(0n);
const rememberedNumbers: number[] = new Array<number>(MULTIPLIERS_REMEMBERED).fill(0);
let nextRemembered = 0;

function multiplierNumber(multiplier: Ratio): number {
  const { num, den } = multiplier;
  for (let index = 0; index < MULTIPLIERS_REMEMBERED; index++) {
    if (rememberedNums[index] === num && rememberedDens[index] === den) return rememberedNumbers[index] as number;
  }
  const value = fixedNumber(multiplier);
  rememberedNums[nextRemembered] = num;
  rememberedDens[nextRemembered] = den;
  rememberedNumbers[nextRemembered] = value;
  nextRemembered = (nextRemembered + 1) % MULTIPLIERS_REMEMBERED;
  return value;
}

/** Style A: `{ bet_id, game, amount_bet, result, won, payout_multiplier, amount_won, new_balance, proof, kelly }`. */
export function betA(bet: BetRecord, state: CasinoState): JsonObject {
  // A deployed parlay has no game module and no Kelly figure (DEPLOYED.md §2.5: no Kelly check).
  const game = findGame(bet.game);
  const params = game === undefined ? null : parsedParamsOf(game, bet.params);
  const kelly =
    game !== undefined && params?.ok === true
      ? betKellySummary(state, bet.agentId, game, params.value, bet.balanceAfterMicro)
      : null;
  return {
    bet_id: bet.id,
    game: bet.game,
    amount_bet: moneyA(bet.amountMicro),
    result: detailCopy(bet),
    won: bet.won,
    payout_multiplier: multiplierNumber(bet.multiplier),
    amount_won: moneyA(bet.payoutMicro),
    new_balance: moneyA(bet.balanceAfterMicro),
    proof: proofOf(bet),
    kelly,
    placed_at: isoTime(bet.atMs),
  };
}

/** Style B: `{ win, payout, balance, seed, nonce, game, result }` (+ bet_id). */
export function betB(bet: BetRecord): JsonObject {
  return {
    bet_id: bet.id,
    win: bet.won,
    payout: moneyB(bet.payoutMicro),
    balance: moneyB(bet.balanceAfterMicro),
    seed: bet.seedHash,
    nonce: bet.nonce,
    game: bet.game === 'coin_flip' ? 'coinflip' : bet.game,
    result: detailCopy(bet),
  };
}

/** One history line, style B: `{ id, game, amount, win, payout, ts }`. */
export function historyLineB(bet: BetRecord): JsonObject {
  return {
    id: bet.id,
    game: bet.game === 'coin_flip' ? 'coinflip' : bet.game,
    amount: moneyB(bet.amountMicro),
    win: bet.won,
    payout: moneyB(bet.payoutMicro),
    ts: isoTime(bet.atMs),
  };
}

export function seedView(seed: ServerSeed, active: boolean): JsonObject {
  return {
    server_seed_hash: seed.hash,
    server_seed: seed.revealedAtMs === null ? null : seed.hex,
    status: active ? 'active' : seed.revealedAtMs === null ? 'retired' : 'revealed',
    nonces_used: seed.nonces,
    created_at: isoTime(seed.createdAtMs),
    revealed_at: seed.revealedAtMs === null ? null : isoTime(seed.revealedAtMs),
  };
}

export function verificationView(verification: Verification): JsonObject {
  const { bet } = verification;
  return {
    bet_id: bet.id,
    game: bet.game,
    verified: verification.verified,
    status: verification.verified === null ? 'seed not yet revealed' : verification.verified ? 'verified' : 'mismatch',
    mismatches: [...verification.mismatches],
    server_seed_hash: bet.seedHash,
    server_seed: verification.serverSeed,
    client_seed: bet.clientSeed,
    nonce: bet.nonce,
    result_hash: bet.resultHash,
    hmac_messages: [...verification.messages],
    recorded: { payout_multiplier: fixedNumber(bet.multiplier), result: detailCopy(bet) },
    recomputed:
      verification.recomputed === null
        ? null
        : { multiplier: verification.recomputed.multiplier, result: jsonCopy(verification.recomputed.detail) },
    revealed_at: verification.revealedAtMs === null ? null : isoTime(verification.revealedAtMs),
  };
}
