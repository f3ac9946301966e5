/**
 * Archetype `fixed-bettor`: registers, then places the same style-A bet — one game, fixed
 * parameters, a fixed amount — every `every`. The steady baseline of a casino population.
 *
 * Answers: a bet (counted); 409 GAME_CLOSED while a scenario closes the game (waits
 * `closed_wait`, then tries again); 400 over the Kelly limit (waits: the limit grows back with
 * the bankroll); 422 INSUFFICIENT_BALANCE (waits; gives up after BROKE_MAX in a row). Anything
 * else a bet cannot get is reported (casino-kit.ts).
 * `overdraw_probe`: once, at its first step, the agent bets its whole balance plus 1.00 and must
 * be refused with 422 INSUFFICIENT_BALANCE — a casino that skips its balance check
 * (`casino-skip-balance-check`) lets the balance go negative, which no-negative-balance catches
 * at once; an accepted overdraft is reported by the agent too.
 * `withdraw_probe`: once, at its first step, the agent asks to withdraw its whole balance plus 1.00
 * and must be refused with 422 INSUFFICIENT_BALANCE — the same probe for the withdrawal desk
 * (`withdraw-no-balance-check` lets the balance go negative there while bets keep their check).
 */
import { z } from 'zod';
import { toNumber, usdc } from '../../src/core/money.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import { HOUR_MS, memoryOf, MINUTE_MS, onboard, RETRY_MS, usdcAmount } from '../../src/agent/agent-kit.ts';
import {
  freshCasinoMemory,
  GAME_FIELDS,
  nextPlayAfter,
  playA,
  readBalance,
  tallyOutcome,
  type CasinoMemory,
  type GameChoice,
  withGameParams,
} from '../../src/agent/casino-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';

const params = z
  .strictObject({
    ...GAME_FIELDS,
    amount: usdcAmount().prefault(0.1).describe('USDC per bet'),
    every: durationMs({ minMs: 1_000, maxMs: 24 * HOUR_MS })
      .prefault('1m')
      .describe('time between bets'),
    closed_wait: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
      .prefault('30m')
      .describe('wait after a GAME_CLOSED answer'),
    overdraw_probe: z
      .boolean()
      .prefault(false)
      .describe('once, at the first step, bet the whole balance plus 1.00 (must be refused 422)'),
    withdraw_probe: z
      .boolean()
      .prefault(false)
      .describe('once, at the first step, withdraw the whole balance plus 1.00 (must be refused 422)'),
  })
  .transform(withGameParams('amount'));

type Params = z.output<typeof params>;

interface FixedMemory extends CasinoMemory {
  probed: boolean;
  withdrawProbed: boolean;
}

function memory(context: AgentContext<Params>): FixedMemory {
  return memoryOf(context, () => ({ ...freshCasinoMemory(), probed: false, withdrawProbed: false }));
}

/** Bets balance + 1.00: only 422 INSUFFICIENT_BALANCE is right. */
async function probeOverdraft(context: AgentContext<Params>, choice: GameChoice): Promise<void> {
  const balanceMicro = await readBalance(context);
  if (balanceMicro === null) return;
  const outcome = await playA(context, choice, balanceMicro + usdc(1));
  if (outcome.kind === 'placed')
    context.report(`a bet of its balance plus 1.00 (${balanceMicro} + 1000000 micro) was accepted`, {
      balanceMicro,
      outcome,
    });
}

/** A Base address of the agent's own, well formed (0x + 40 hex), for the withdrawal probe. */
const PROBE_ADDRESS = `0x${'ab'.repeat(20)}`;

/** Withdraws balance + 1.00: only a refusal is right (422 INSUFFICIENT_BALANCE). */
async function probeWithdrawal(context: AgentContext<Params>): Promise<void> {
  const balanceMicro = await readBalance(context);
  if (balanceMicro === null) return;
  const amount = balanceMicro + usdc(1);
  const result = await context.client.casino.withdraw(toNumber(amount), PROBE_ADDRESS);
  if (result.ok)
    context.report(`a withdrawal of its balance plus 1.00 (${balanceMicro} + 1000000 micro) was accepted`, {
      balanceMicro,
      status: result.status,
    });
  else if (result.status !== 422)
    context.report(`a withdrawal of its balance plus 1.00 was refused with ${result.status}, not 422`, {
      balanceMicro,
      status: result.status,
    });
}

export const fixedBettor = defineAgent<Params>({
  name: 'fixed-bettor',
  service: 'casino',
  description: 'places the same style-A bet (game, parameters, amount) every `every`; waits out closures',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const bettor = memory(context);
    if (!(await onboard(context, bettor))) return { wakeInMs: RETRY_MS };
    const choice: GameChoice = { game: context.params.game, params: context.params.params };
    if (context.params.overdraw_probe && !bettor.probed) {
      bettor.probed = true;
      await probeOverdraft(context, choice);
    }
    if (context.params.withdraw_probe && !bettor.withdrawProbed) {
      bettor.withdrawProbed = true;
      await probeWithdrawal(context);
    }
    const outcome = await playA(context, choice, context.params.amount);
    if (tallyOutcome(bettor, outcome)) return 'done';
    return nextPlayAfter(outcome, context.params);
  },
});
