/**
 * Archetype `martingale`: the doubling gambler. Bets `base` on one game; after every loss it
 * doubles the stake, up to `max_doublings`, after a win it goes back to `base` — the classic
 * system whose rare long losing streaks the Kelly limit exists for.
 *
 * It respects the limit it is told: a 400 with `max_bet` (the doubled stake is above the Kelly
 * limit of its bankroll) resets it to `base`, as does 422 INSUFFICIENT_BALANCE. It never sizes a
 * bet from the limit in advance: the casino's refusal is the signal (so a casino that forgets to
 * refuse — `casino-skip-balance-check` — is seen accepting a bet above the limit, which
 * casino-bet-limits catches). GAME_CLOSED: waits `closed_wait` and resumes the same stake.
 */
import { z } from 'zod';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import { HOUR_MS, memoryOf, MINUTE_MS, onboard, RETRY_MS, usdcAmount } from '../../src/agent/agent-kit.ts';
import {
  freshCasinoMemory,
  GAME_FIELDS,
  playA,
  tallyOutcome,
  type CasinoMemory,
  withGameParams,
} from '../../src/agent/casino-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';

export const MAX_DOUBLINGS_BOUND = 30;

const params = z
  .strictObject({
    ...GAME_FIELDS,
    base: usdcAmount().prefault(0.01).describe('USDC of the first bet and after every win'),
    max_doublings: z
      .int()
      .min(0)
      .max(MAX_DOUBLINGS_BOUND)
      .prefault(10)
      .describe('the stake is at most base × 2^max_doublings'),
    every: durationMs({ minMs: 1_000, maxMs: 24 * HOUR_MS })
      .prefault('1m')
      .describe('time between bets'),
    closed_wait: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
      .prefault('30m')
      .describe('wait after a GAME_CLOSED answer'),
  })
  .transform(withGameParams('base'));

type Params = z.output<typeof params>;

interface MartingaleMemory extends CasinoMemory {
  /** Losses since the last win or reset (the stake is base × 2^min(losses, max_doublings)). */
  losses: number;
  /** Resets forced by the casino (Kelly limit or balance). */
  resets: number;
}

function memory(context: AgentContext<Params>): MartingaleMemory {
  return memoryOf(context, () => ({ ...freshCasinoMemory(), losses: 0, resets: 0 }));
}

export const martingale = defineAgent<Params>({
  name: 'martingale',
  service: 'casino',
  description: 'doubles its stake after every loss (up to a cap), back to base after a win or a Kelly refusal',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const gambler = memory(context);
    if (!(await onboard(context, gambler))) return { wakeInMs: RETRY_MS };
    const { base, max_doublings: maxDoublings, every } = context.params;
    const stakeMicro = base * 2n ** BigInt(Math.min(gambler.losses, maxDoublings));
    const outcome = await playA(context, { game: context.params.game, params: context.params.params }, stakeMicro);
    if (tallyOutcome(gambler, outcome)) return 'done';
    switch (outcome.kind) {
      case 'placed':
        gambler.losses = outcome.won ? 0 : gambler.losses + 1;
        return { wakeInMs: every };
      case 'over-limit':
        gambler.losses = 0;
        gambler.resets += 1;
        return { wakeInMs: every };
      case 'broke':
        gambler.losses = 0;
        gambler.resets += 1;
        return { wakeInMs: stakeMicro > base ? every : Math.max(RETRY_MS, every) };
      case 'closed':
        return { wakeInMs: context.params.closed_wait };
      case 'not-answered':
        return { wakeInMs: Math.max(RETRY_MS, every) };
    }
  },
});
