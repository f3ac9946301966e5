/**
 * Fairness and Kelly commands of `afp check`: the active seed's commitment and next nonce
 * (GET /fairness/seed-hash), rotation (POST /fairness/rotate: the model then replays every bet and
 * challenge drawn from the revealed seed), verification of an earlier bet (style A by bet id,
 * style B by seed commitment and nonce; another agent's bet 403, an unknown one 404), and the
 * risk factor (PUT /kelly/config, 0.1 to 1.0 with at most two decimals; the answer's limits must
 * be the model's Kelly limits for the balance).
 */
import type { CheckModel } from '../check-model.ts';
import { eq, money, object, type Matcher, type Prediction } from '../expectation.ts';
import { casinoAgent } from './model-casino.ts';
import type { ModelBet } from './casino-state.ts';
import { kellyLimitMicro } from './model-casino-games.ts';
import {
  predictRotate,
  predictSeedHash,
  predictVerify,
  resolveBet,
  UNKNOWN_BET_ID,
  UNKNOWN_SEED_HASH,
  type BetRef,
} from './model-casino-fairness.ts';
import { agentStyleACommand, casinoAgentReady, expectAnswer, keyed, type CommandSpec } from '../model-command.ts';
import { SCOPES } from '../model-limits.ts';

export function seedHashCommand(slot: number): CommandSpec {
  return agentStyleACommand(
    slot,
    `seedHash(a${slot})`,
    (model) => casinoAgentReady(model, slot),
    async (model, client) => {
      const prediction = predictSeedHash(model, slot);
      return { prediction, answer: await client.casino.call('casino.A.fairness.seed-hash', {}) };
    },
  );
}

/** Rotation runs once the active seed has drawn something: that is what a reveal can be checked on. */
export function rotateCommand(slot: number): CommandSpec {
  const label = `rotate(a${slot})`;
  const applicable = (model: Readonly<CheckModel>): boolean =>
    casinoAgentReady(model, slot) && (model.casino.agents.get(slot)?.seeds.at(-1)?.nonces ?? 0) > 0;
  return agentStyleACommand(slot, label, applicable, async (model, client) => {
    const prediction = predictRotate(label, model, slot);
    return { prediction, answer: await client.casino.rotate() };
  });
}

export interface VerifyInput {
  readonly slot: number;
  readonly ref: BetRef;
  readonly style: 'A' | 'B';
}

function refText(ref: BetRef): string {
  return typeof ref === 'object' ? `bet#${ref.own}` : ref === 'other' ? "another agent's bet" : 'unknown bet';
}

export function verifyCommand(input: VerifyInput): CommandSpec {
  const { slot, ref, style } = input;
  const label = `verify${style}(a${slot}, ${refText(ref)})`;
  return {
    label,
    applicable: (model) => {
      if (model.agents[slot] === undefined || (style === 'A' && !model.capabilities.casino)) return false;
      return ref === 'unknown' || resolveBet(model, slot, ref) !== undefined;
    },
    charges: () => [{ slot, scopes: SCOPES.styleA }],
    parties: () => [slot],
    execute: async (model, system) => {
      const bet = resolveBet(model, slot, ref);
      const prediction = predictVerify(model, slot, bet, style);
      const client = keyed(model, system, slot).casino;
      const answer =
        style === 'A'
          ? await client.verify(bet?.id ?? UNKNOWN_BET_ID)
          : await client.call('casino.B.verify', verifyBRequest(bet));
      expectAnswer(label, model, answer, prediction);
    },
  };
}

function verifyBRequest(bet: ModelBet | undefined): { params: Record<string, string>; query: Record<string, string> } {
  return { params: { seed: bet?.seed.hash ?? UNKNOWN_SEED_HASH }, query: { nonce: String(bet?.nonce ?? 0) } };
}

/** Risk factors as JSON numbers: valid ones (0.1, 0.5, 1) and refused ones (0.05, 1.5, 0.125). */
export const RISK_FACTORS = [0.1, 0.5, 1, 0.25, 0.05, 1.5, 0.125] as const;

function riskPercentOf(value: number): number | null {
  const percent = Math.round(value * 100);
  return Math.abs(value * 100 - percent) < 1e-9 && percent >= 10 && percent <= 100 ? percent : null;
}

/** PUT /kelly/config: the new risk factor, and the coin-flip and dice-over-90 limits at the current balance. */
export function predictRiskFactor(model: Readonly<CheckModel>, slot: number, value: number): Prediction {
  const percent = riskPercentOf(value);
  if (percent === null) return { expected: { status: 400, code: 'BAD_REQUEST' } };
  const balanceMicro = model.agents[slot]?.balanceMicro ?? 0n;
  const limit = (choice: Parameters<typeof kellyLimitMicro>[0]): Matcher =>
    object({ max_bet: money('A', kellyLimitMicro(choice, balanceMicro, percent)) });
  return {
    expected: {
      status: 200,
      body: {
        risk_factor: eq(value),
        new_limits: object({
          limits: object({
            'coin_flip:heads': limit({ game: 'coin_flip', side: 'heads' }),
            'dice:over:90': limit({ game: 'dice', direction: 'over', threshold: 90 }),
            'keno:10': limit({ game: 'keno', picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }),
            'plinko:16:high': limit({ game: 'plinko', rows: 16, risk: 'high' }),
          }),
        }),
      },
    },
    commit: () => {
      casinoAgent(model, slot).riskPercent = percent;
    },
  };
}

export function riskFactorCommand(slot: number, value: number): CommandSpec {
  return agentStyleACommand(
    slot,
    `setRiskFactor(a${slot}, ${value})`,
    (model) => casinoAgentReady(model, slot),
    async (model, client) => {
      const prediction = predictRiskFactor(model, slot, value);
      return {
        prediction,
        answer: await client.casino.call('casino.A.kelly.config', { body: { risk_factor: value } }),
      };
    },
  );
}
