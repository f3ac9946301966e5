/**
 * Challenge commands of `afp check`: create (the challenged agent named by id, address or
 * referral code; coin_flip, dice, or a game challenges do not offer), accept (the winner paid both
 * stakes minus 2%) and decline (refund), by the challenged agent or, for the 403s, by another.
 * Expiry after 24 h happens on the clock. Challenges are named by creation index.
 */
import { toNumber } from '../../core/money.ts';
import { describeRef, referenceText, type AgentRef, type CheckModel } from '../check-model.ts';
import { refusedAmountMicro } from './model-casino-bets.ts';
import { field } from './model-casino-expect.ts';
import {
  predictAccept,
  predictCreateChallenge,
  predictDecline,
  resolveChallenge,
  UNKNOWN_CHALLENGE_ID,
  type ChallengeRef,
} from './model-casino-challenges.ts';
import { agentStyleACommand, casinoAgentReady, expectAnswer, keyed, type CommandSpec } from '../model-command.ts';
import { SCOPES } from '../model-limits.ts';

/** Stake kinds: 0.01 (the minimum), 0.50, 2.00, just below the minimum (400), one micro above the balance (422). */
export type StakeKind = 'min' | 'half' | 'two' | 'below-min' | 'balance+1';

const STAKES_MICRO = { min: 10_000n, half: 500_000n, two: 2_000_000n } as const;

function stakeMicro(model: Readonly<CheckModel>, slot: number, kind: StakeKind): bigint {
  return kind === 'below-min' || kind === 'balance+1' ? refusedAmountMicro(model, slot, kind) : STAKES_MICRO[kind];
}

export interface CreateChallengeInput {
  readonly slot: number;
  readonly challenged: AgentRef;
  readonly game: 'coin_flip' | 'dice' | 'roulette';
  readonly stake: StakeKind;
  readonly message: string | null;
}

export function createChallengeCommand(input: CreateChallengeInput): CommandSpec {
  const { slot } = input;
  const label = `createChallenge(a${slot} challenges ${describeRef(input.challenged)}, ${input.game}, ${input.stake}${input.message === null ? '' : ', with message'})`;
  return agentStyleACommand(
    slot,
    label,
    (model) => casinoAgentReady(model, slot),
    async (model, client) => {
      const amountMicro = stakeMicro(model, slot, input.stake);
      const prediction = predictCreateChallenge(model, {
        challengerSlot: slot,
        challenged: input.challenged,
        game: input.game,
        amountMicro,
        message: input.message,
      });
      const body = {
        challenged_agent_id: referenceText(model, input.challenged),
        game: input.game,
        amount: toNumber(amountMicro),
        ...(input.message === null ? {} : { message: input.message }),
      };
      return { prediction, answer: await client.casino.call('casino.A.challenges.create', { body }) };
    },
  );
}

/** Who acts: the challenged agent (the rule) or the challenger and an outsider (403). */
export type ChallengeActor = 'challenged' | 'challenger' | 'outsider';

export interface ChallengeActionInput {
  readonly action: 'accept' | 'decline';
  readonly actor: ChallengeActor;
  readonly ref: ChallengeRef;
}

function actorSlot(model: Readonly<CheckModel>, input: ChallengeActionInput): number | undefined {
  const challenge = resolveChallenge(model, input.ref);
  if (challenge === undefined) return model.agents.findIndex((agent) => agent !== undefined);
  if (input.actor === 'challenged') return challenge.challengedSlot;
  if (input.actor === 'challenger') return challenge.challengerSlot;
  const outsider = model.agents.findIndex(
    (agent, slot) => agent !== undefined && slot !== challenge.challengerSlot && slot !== challenge.challengedSlot,
  );
  return outsider < 0 ? undefined : outsider;
}

export function challengeActionCommand(input: ChallengeActionInput): CommandSpec {
  const label = `${input.action}Challenge(${input.actor}, ${input.ref === 'unknown' ? 'unknown challenge' : `challenge#${input.ref.index}`})`;
  const slotOf = (model: Readonly<CheckModel>): number => actorSlot(model, input) ?? 0;
  return {
    label,
    applicable: (model) => {
      const slot = actorSlot(model, input);
      return (
        model.capabilities.casino &&
        slot !== undefined &&
        slot >= 0 &&
        (input.ref === 'unknown' || model.casino.challenges.length > 0)
      );
    },
    charges: (model) => [{ slot: slotOf(model), scopes: SCOPES.styleA }],
    parties: (model) => {
      const challenge = resolveChallenge(model, input.ref);
      return challenge === undefined
        ? [slotOf(model)]
        : [slotOf(model), challenge.challengerSlot, challenge.challengedSlot];
    },
    execute: async (model, system) => {
      const slot = slotOf(model);
      const challenge = resolveChallenge(model, input.ref);
      const params = { id: challenge?.id ?? UNKNOWN_CHALLENGE_ID };
      const client = keyed(model, system, slot).casino;
      if (input.action === 'decline') {
        const prediction = predictDecline(model, slot, challenge);
        expectAnswer(label, model, await client.call('casino.A.challenges.decline', { params }), prediction);
        return;
      }
      const answer = await client.call('casino.A.challenges.accept', { params });
      expectAnswer(label, model, answer, predictAccept(model, slot, challenge, field(answer.body, 'winner')));
    },
  };
}
