/**
 * Archetype `kelly-bettor`: sizes every bet as a `fraction` of what the casino itself reports —
 * the Kelly `max_bet_this_game` (or its `suggested_bet`, with `of: suggested_bet`) of the `kelly`
 * object in its previous bet's answer, which is computed for the balance that answer leaves. Its
 * first bet is the game's minimum (nothing has been reported yet). Optionally sets its own risk
 * factor first (PUT /kelly/config).
 *
 * A 400 with `max_bet` (the bankroll shrank between answers: an entry fee, a withdrawal) resizes
 * from that max_bet; GAME_CLOSED waits `closed_wait`; a bet below the game's minimum is never
 * sent (the minimum is the floor). Its bankroll curve is the geometric one Kelly promises.
 */
import { z } from 'zod';
import { applyToMicro, ratio } from '../../src/core/ratio.ts';
import { findGame } from '../../src/services/casino/games/index.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  expectedRefusal,
  HOUR_MS,
  memoryOf,
  MINUTE_MS,
  onboard,
  reportUnexpected,
  RETRY_MS,
} from '../../src/agent/agent-kit.ts';
import {
  freshCasinoMemory,
  GAME_FIELDS,
  playA,
  tallyOutcome,
  type CasinoMemory,
  type GameChoice,
  withGameParams,
} from '../../src/agent/casino-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';

const params = z
  .strictObject({
    ...GAME_FIELDS,
    fraction: probability().prefault(0.5).describe('share of the reported amount to bet'),
    of: z
      .enum(['max_bet', 'suggested_bet'])
      .prefault('max_bet')
      .describe("which of the casino's figures the fraction applies to"),
    risk_factor: z
      .number()
      .min(0.1)
      .max(1)
      .nullable()
      .prefault(null)
      .describe('risk factor to set first (PUT /kelly/config); null keeps the default 0.25'),
    every: durationMs({ minMs: 1_000, maxMs: 24 * HOUR_MS })
      .prefault('1m')
      .describe('time between bets'),
    closed_wait: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
      .prefault('30m')
      .describe('wait after a GAME_CLOSED answer'),
  })
  .transform(withGameParams(null));

type Params = z.output<typeof params>;

interface KellyMemory extends CasinoMemory {
  /** The figure the last answer reported (null before the first bet). */
  reportedMicro: bigint | null;
  configured: boolean;
}

function memory(context: AgentContext<Params>): KellyMemory {
  return memoryOf(context, () => ({ ...freshCasinoMemory(), reportedMicro: null, configured: false }));
}

async function configure(context: AgentContext<Params>, kelly: KellyMemory): Promise<void> {
  if (kelly.configured || context.params.risk_factor === null) return;
  const result = await context.client.casino.call('casino.A.kelly.config', {
    body: { risk_factor: context.params.risk_factor },
  });
  if (result.ok) kelly.configured = true;
  else if (!expectedRefusal(context, result, 'casino'))
    reportUnexpected(context, `PUT /kelly/config ${context.params.risk_factor}`, result, '200');
}

export const kellyBettor = defineAgent<Params>({
  name: 'kelly-bettor',
  service: 'casino',
  description: 'bets a fraction of the Kelly max_bet (or suggested_bet) the casino reported in its previous answer',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const kelly = memory(context);
    if (!(await onboard(context, kelly))) return { wakeInMs: RETRY_MS };
    await configure(context, kelly);
    const choice: GameChoice = { game: context.params.game, params: context.params.params };
    const minimumMicro = findGame(choice.game)?.minBetMicro ?? 10_000n;
    const sizedMicro =
      kelly.reportedMicro === null
        ? minimumMicro
        : applyToMicro(kelly.reportedMicro, ratio(context.params.fraction, BASIS_POINTS));
    const outcome = await playA(context, choice, sizedMicro > minimumMicro ? sizedMicro : minimumMicro);
    if (tallyOutcome(kelly, outcome)) return 'done';
    switch (outcome.kind) {
      case 'placed':
        kelly.reportedMicro = context.params.of === 'max_bet' ? outcome.maxBetMicro : outcome.suggestedMicro;
        return { wakeInMs: context.params.every };
      case 'over-limit':
        kelly.reportedMicro = outcome.maxBetMicro;
        return { wakeInMs: context.params.every };
      case 'closed':
        return { wakeInMs: context.params.closed_wait };
      case 'broke':
        kelly.reportedMicro = null;
        return { wakeInMs: Math.max(RETRY_MS, context.params.every) };
      case 'not-answered':
        return { wakeInMs: Math.max(RETRY_MS, context.params.every) };
    }
  },
});
