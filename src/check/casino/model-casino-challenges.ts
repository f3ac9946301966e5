/**
 * Challenges in the reference model (NOTES.md "Challenges"; afp's choices in docs/decisions/casino.md
 * "Casino service"): create holds the challenger's stake; the challenged agent accepts (its stake held,
 * the draw taken from the challenger's seed at its next nonce with the challenge id as client
 * seed, the winner paid both stakes minus 2% rounded up to the micro) or declines (the challenger
 * refunded); a pending challenge expires after 24 h on the clock (refund).
 *
 * The winner is read from the answer (it must be one of the two) and replayed once the
 * challenger's seed is revealed (model-casino-fairness.ts).
 * Precedence: create 400 game/amount/self → 404 unknown challenged → 422; accept and decline
 * 404 → 403 not the challenged agent → 409 not pending → (accept) 422.
 */
import type { JsonValue } from '../../core/errors.ts';
import { requireAgent, type AgentRef, type CheckModel } from '../check-model.ts';
import { eq, money, object, text, time, type Matcher, type Prediction } from '../expectation.ts';
import { nextDraw, takeDraw } from './model-casino.ts';
import type { ModelChallenge } from './casino-state.ts';
import { field, learnHash, seedMatcher } from './model-casino-expect.ts';

/** NOTES.md: 2% of both stakes; rounded up (docs/decisions/casino.md). */
export const CHALLENGE_CUT_BPS = 200n;
/** afp's choice (docs/decisions/casino.md "Casino service"): pending challenges expire after 24 h. */
export const CHALLENGE_EXPIRY_MS = 86_400_000;
const AMOUNT_MIN_MICRO = 10_000n;
const AMOUNT_MAX_MICRO = 10_000_000_000n;

export type ChallengeRef = { readonly index: number } | 'unknown';
export const UNKNOWN_CHALLENGE_ID = 'chl_000000000000';

export function resolveChallenge(model: Readonly<CheckModel>, ref: ChallengeRef): ModelChallenge | undefined {
  const all = model.casino.challenges;
  return ref === 'unknown' || all.length === 0 ? undefined : all[ref.index % all.length];
}

export interface CreateChallenge {
  readonly challengerSlot: number;
  readonly challenged: AgentRef;
  readonly game: 'coin_flip' | 'dice' | 'roulette';
  readonly amountMicro: bigint;
  readonly message: string | null;
}

export function predictCreateChallenge(model: Readonly<CheckModel>, input: CreateChallenge): Prediction {
  if (input.game === 'roulette' || input.amountMicro < AMOUNT_MIN_MICRO || input.amountMicro > AMOUNT_MAX_MICRO)
    return { expected: { status: 400, code: 'BAD_REQUEST' } };
  const challenged = model.agents[input.challenged.slot];
  if (challenged === undefined) return { expected: { status: 404, code: 'NOT_FOUND' } };
  if (input.challenged.slot === input.challengerSlot) return { expected: { status: 400, code: 'BAD_REQUEST' } };
  const challenger = requireAgent(model, input.challengerSlot);
  if (challenger.balanceMicro < input.amountMicro) return { expected: { status: 422, code: 'INSUFFICIENT_BALANCE' } };
  const game = input.game;
  const draft: ModelChallenge = {
    id: '',
    challengerSlot: input.challengerSlot,
    challengedSlot: input.challenged.slot,
    game,
    amountMicro: input.amountMicro,
    message: input.message,
    createdAtMs: model.nowMs,
    expiresAtMs: model.nowMs + CHALLENGE_EXPIRY_MS,
    status: 'pending',
    settledAtMs: null,
    winnerSlot: null,
    draw: null,
  };
  return {
    expected: { status: 201, body: { ...challengeView(model, draft), challenge_id: text() } },
    commit: (answer) => {
      challenger.balanceMicro -= input.amountMicro;
      (model as CheckModel).casino.challenges.push({ ...draft, id: String(answer['challenge_id']) });
    },
  };
}

export function houseCutMicro(amountMicro: bigint): bigint {
  const pot = amountMicro * 2n;
  return (pot * CHALLENGE_CUT_BPS + 9_999n) / 10_000n;
}

/** The record's fields as the challenge answers show them. */
export function challengeView(model: Readonly<CheckModel>, challenge: ModelChallenge): Record<string, Matcher> {
  const idOf = (slot: number): string => model.agents[slot]?.id ?? '?';
  const resolved = challenge.status === 'resolved';
  return {
    challenge_id: eq(challenge.id),
    challenger: eq(idOf(challenge.challengerSlot)),
    challenged: eq(idOf(challenge.challengedSlot)),
    game: eq(challenge.game),
    amount: money('A', challenge.amountMicro),
    message: eq(challenge.message),
    status: eq(challenge.status),
    created_at: time(challenge.createdAtMs),
    expires_at: time(challenge.expiresAtMs),
    settled_at: time(challenge.settledAtMs),
    winner: eq(challenge.winnerSlot === null ? null : idOf(challenge.winnerSlot)),
    payout: money('A', resolved ? challenge.amountMicro * 2n - houseCutMicro(challenge.amountMicro) : 0n),
    house_cut: money('A', resolved ? houseCutMicro(challenge.amountMicro) : 0n),
  };
}

/** 404 / 403 / 409 of accept and decline, or null when the challenged agent may act. */
function actionRefusal(
  model: Readonly<CheckModel>,
  slot: number,
  challenge: ModelChallenge | undefined,
): Prediction | null {
  if (challenge === undefined) return { expected: { status: 404, code: 'NOT_FOUND' } };
  if (challenge.challengedSlot !== slot) return { expected: { status: 403, code: 'FORBIDDEN' } };
  if (challenge.status !== 'pending' || model.nowMs >= challenge.expiresAtMs)
    return { expected: { status: 409, code: 'CONFLICT' } };
  return null;
}

export function predictDecline(
  model: Readonly<CheckModel>,
  slot: number,
  challenge: ModelChallenge | undefined,
): Prediction {
  const refused = actionRefusal(model, slot, challenge);
  if (refused !== null || challenge === undefined) return refused ?? { expected: { status: 404 } };
  const after: ModelChallenge = { ...challenge, status: 'declined', settledAtMs: model.nowMs };
  return {
    expected: {
      status: 200,
      body: {
        ...challengeView(model, after),
        result: eq(null),
        proof: eq(null),
        new_balance: money('A', requireAgent(model, slot).balanceMicro),
      },
    },
    commit: () => {
      requireAgent(model, challenge.challengerSlot).balanceMicro += challenge.amountMicro;
      challenge.status = 'declined';
      challenge.settledAtMs = model.nowMs;
    },
  };
}

/**
 * Accept: the winner is the answer's (one of the two agents); its money, the cut and the proof's
 * nonce and seed are the model's. `winnerId` is read from the answer before predicting.
 */
export function predictAccept(
  model: Readonly<CheckModel>,
  slot: number,
  challenge: ModelChallenge | undefined,
  winnerId: unknown,
): Prediction {
  const refused = actionRefusal(model, slot, challenge);
  if (refused !== null || challenge === undefined) return refused ?? { expected: { status: 404 } };
  const accepter = requireAgent(model, slot);
  if (accepter.balanceMicro < challenge.amountMicro) return { expected: { status: 422, code: 'INSUFFICIENT_BALANCE' } };
  const challengerId = model.agents[challenge.challengerSlot]?.id;
  const winnerSlot = winnerId === challengerId ? challenge.challengerSlot : challenge.challengedSlot;
  const draw = nextDraw(model, challenge.challengerSlot);
  const after: ModelChallenge = { ...challenge, status: 'resolved', settledAtMs: model.nowMs, winnerSlot };
  const payoutMicro = challenge.amountMicro * 2n - houseCutMicro(challenge.amountMicro);
  const accepterAfterMicro = accepter.balanceMicro - challenge.amountMicro + (winnerSlot === slot ? payoutMicro : 0n);
  const proof = object({
    server_seed_hash: seedMatcher(draw.seed),
    client_seed: eq(challenge.id),
    nonce: eq(draw.nonce),
    result_hash: text(),
  });
  return {
    expected: {
      status: 200,
      body: { ...challengeView(model, after), proof, new_balance: money('A', accepterAfterMicro) },
    },
    commit: (answer) => {
      accepter.balanceMicro -= challenge.amountMicro;
      requireAgent(model, winnerSlot).balanceMicro += payoutMicro;
      takeDraw(model, challenge.challengerSlot, draw);
      learnHash(draw.seed, field(answer['proof'], 'server_seed_hash'));
      const resultHash = field(answer['proof'], 'result_hash');
      challenge.status = 'resolved';
      challenge.settledAtMs = model.nowMs;
      challenge.winnerSlot = winnerSlot;
      challenge.draw = {
        seed: draw.seed,
        nonce: draw.nonce,
        result: answer['result'] as JsonValue | undefined,
        resultHash: typeof resultHash === 'string' ? resultHash : null,
      };
    },
  };
}

/** A pending challenge at its expiry: the challenger refunded. */
export function expireChallenge(model: CheckModel, challenge: ModelChallenge): void {
  requireAgent(model, challenge.challengerSlot).balanceMicro += challenge.amountMicro;
  challenge.status = 'expired';
  challenge.settledAtMs = challenge.expiresAtMs;
}
