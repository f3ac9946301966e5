/**
 * Provably fair in the reference model (NOTES.md "Provably fair"): the active seed's commitment
 * and next nonce, rotation (the retired seed revealed: its SHA-256 must be the commitment every
 * earlier answer named), the replay of every bet and challenge drawn from a revealed seed, and
 * the answer of a verification request.
 *
 * Replay: block k = HMAC-SHA256(seed text, "<client_seed>:<nonce>[:<k>]") (the published
 * DrawStream); a bet replays through its game's pure `play` and must give the multiplier and the
 * result the answer reported (and block 0 must be its result_hash); a challenge replays by the
 * published challenge rule (docs/decisions/casino.md "Casino service"): coin_flip int(2), 0 → the challenger
 * wins; dice int(100)+1 each side, challenger first, higher wins, ties roll again.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { compare } from '../../core/ratio.ts';
import { DrawStream } from '../../services/casino/fair/draw-stream.ts';
import type { CheckModel } from '../check-model.ts';
import { eq, json, money, object, text, time, type Matcher, type Prediction } from '../expectation.ts';
import { activeSeed, casinoAgent } from './model-casino.ts';
import type { ModelBet, ModelChallenge, ModelSeed } from './casino-state.ts';
import { casinoMismatch, field, learnHash, seedMatcher } from './model-casino-expect.ts';
import { replay } from './model-casino-games.ts';

export const sha256Hex = (textValue: string): string => createHash('sha256').update(textValue).digest('hex');

export function predictSeedHash(model: Readonly<CheckModel>, slot: number): Prediction {
  const seed = activeSeed(model, slot);
  return {
    expected: { status: 200, body: { server_seed_hash: seedMatcher(seed), next_nonce: eq(seed.nonces) } },
    commit: (answer) => learnHash(seed, answer['server_seed_hash']),
  };
}

/** POST /fairness/rotate: the active seed revealed, a fresh one active; then every draw of the revealed seed replays. */
export function predictRotate(label: string, model: CheckModel, slot: number): Prediction {
  const seed = activeSeed(model, slot);
  const revealed: Record<string, Matcher> = {
    server_seed_hash: seedMatcher(seed),
    server_seed: text(),
    status: eq('revealed'),
    nonces_used: eq(seed.nonces),
    revealed_at: time(model.nowMs),
  };
  return {
    expected: {
      status: 200,
      body: { revealed: object(revealed), active: object({ server_seed_hash: text(), next_nonce: eq(0) }) },
    },
    commit: (answer) => {
      const shown = field(answer, 'revealed');
      learnHash(seed, field(shown, 'server_seed_hash'));
      const hex = String(field(shown, 'server_seed'));
      if (sha256Hex(hex) !== seed.hash)
        casinoMismatch(label, model, [
          `body.revealed.server_seed: its SHA-256 ${sha256Hex(hex)} is not the commitment ${String(seed.hash)}`,
        ]);
      seed.hex = hex;
      seed.revealed = true;
      const next: ModelSeed = { hash: null, hex: null, revealed: false, nonces: 0 };
      learnHash(next, field(field(answer, 'active'), 'server_seed_hash'));
      casinoAgent(model, slot).seeds.push(next);
      const problems = replayProblems(model, seed);
      if (problems.length > 0) casinoMismatch(`${label}, then replaying the revealed seed`, model, problems);
    },
  };
}

/** Every bet and challenge drawn from `seed` replayed from its revealed text; the differences. */
export function replayProblems(model: Readonly<CheckModel>, seed: ModelSeed): string[] {
  const hex = seed.hex;
  if (hex === null) return [];
  const problems: string[] = [];
  for (const bet of model.casino.bets) if (bet.seed === seed) problems.push(...replayBet(bet, hex));
  for (const challenge of model.casino.challenges)
    if (challenge.draw?.seed === seed) problems.push(...replayChallenge(model, challenge, hex));
  return problems;
}

function replayBet(bet: ModelBet, hex: string): string[] {
  const problems: string[] = [];
  const draws = new DrawStream(hex, bet.clientSeed, bet.nonce);
  if (bet.resultHash !== null && draws.firstBlockHex !== bet.resultHash)
    problems.push(`${bet.label}: result_hash ${bet.resultHash} is not HMAC block 0 ${draws.firstBlockHex}`);
  const result = replay(bet.choice, draws);
  if (compare(result.multiplier, bet.multiplier) !== 0) {
    problems.push(
      `${bet.label}: answered multiplier ${ratioText(bet.multiplier)}, the revealed seed gives ${ratioText(result.multiplier)}`,
    );
  }
  if (!isDeepStrictEqual(result.detail, bet.detail))
    problems.push(
      `${bet.label}: answered result ${JSON.stringify(bet.detail)}, the revealed seed gives ${JSON.stringify(result.detail)}`,
    );
  return problems;
}

const ratioText = (value: { num: bigint; den: bigint }): string =>
  value.den === 1n ? `${value.num}` : `${value.num}/${value.den}`;

/** The published challenge draw: who wins and the result object. */
export function challengeDraw(
  game: 'coin_flip' | 'dice',
  draws: DrawStream,
): { challengerWins: boolean; result: unknown } {
  if (game === 'coin_flip') {
    const challengerWins = draws.int(2) === 0;
    return {
      challengerWins,
      result: { outcome: challengerWins ? 'heads' : 'tails', winner: challengerWins ? 'challenger' : 'challenged' },
    };
  }
  const rolls: number[][] = [];
  for (let round = 0; round < 64; round++) {
    const mine = draws.int(100) + 1;
    const theirs = draws.int(100) + 1;
    rolls.push([mine, theirs]);
    if (mine !== theirs)
      return { challengerWins: mine > theirs, result: { rolls, winner: mine > theirs ? 'challenger' : 'challenged' } };
  }
  throw new Error('a dice challenge tied 64 times');
}

function replayChallenge(model: Readonly<CheckModel>, challenge: ModelChallenge, hex: string): string[] {
  const draw = challenge.draw;
  if (draw === null) return [];
  const draws = new DrawStream(hex, challenge.id, draw.nonce);
  const label = `challenge ${challenge.id} (${challenge.game}, a${challenge.challengerSlot} vs a${challenge.challengedSlot}, nonce ${draw.nonce})`;
  const problems: string[] = [];
  if (draw.resultHash !== null && draws.firstBlockHex !== draw.resultHash)
    problems.push(`${label}: result_hash is not HMAC block 0`);
  const replayed = challengeDraw(challenge.game, draws);
  const winnerSlot = replayed.challengerWins ? challenge.challengerSlot : challenge.challengedSlot;
  if (winnerSlot !== challenge.winnerSlot)
    problems.push(
      `${label}: paid a${String(challenge.winnerSlot)}, the revealed seed makes a${winnerSlot} (${model.agents[winnerSlot]?.id ?? '?'}) the winner`,
    );
  if (!isDeepStrictEqual(replayed.result, draw.result))
    problems.push(
      `${label}: answered result ${JSON.stringify(draw.result)}, the revealed seed gives ${JSON.stringify(replayed.result)}`,
    );
  return problems;
}

/** A bet a verify command names: one of the caller's (by index), another agent's (403) or none (404). */
export type BetRef = { readonly own: number } | 'other' | 'unknown';

export const UNKNOWN_BET_ID = 'bet_0000000000000000';
export const UNKNOWN_SEED_HASH = '0'.repeat(64);

export function resolveBet(model: Readonly<CheckModel>, slot: number, ref: BetRef): ModelBet | undefined {
  if (ref === 'unknown') return undefined;
  const bets = model.casino.bets.filter((bet) => (ref === 'other' ? bet.slot !== slot : bet.slot === slot));
  return bets[(ref === 'other' ? 0 : ref.own) % Math.max(1, bets.length)];
}

/** POST /fairness/verify (style A) or GET /casino-api/verify/:seed?nonce= (style B) of a resolved bet. */
export function predictVerify(
  model: Readonly<CheckModel>,
  slot: number,
  bet: ModelBet | undefined,
  style: 'A' | 'B',
): Prediction {
  if (bet === undefined) return { expected: { status: 404, code: 'NOT_FOUND' } };
  if (bet.slot !== slot) return { expected: { status: 403, code: 'FORBIDDEN' } };
  const revealed = bet.seed.revealed;
  const body: Record<string, Matcher> = {
    bet_id: eq(bet.id),
    game: eq(bet.choice.game),
    verified: eq(revealed ? true : null),
    status: eq(revealed ? 'verified' : 'seed not yet revealed'),
    mismatches: json([]),
    server_seed_hash: seedMatcher(bet.seed),
    server_seed: revealed ? (bet.seed.hex === null ? text() : eq(bet.seed.hex)) : eq(null),
    client_seed: eq(bet.clientSeed),
    nonce: eq(bet.nonce),
  };
  if (style === 'B') Object.assign(body, { payout: money('B', bet.payoutMicro), amount: money('B', bet.amountMicro) });
  return { expected: { status: 200, body } };
}
