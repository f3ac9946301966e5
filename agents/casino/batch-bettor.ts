/**
 * Archetype `batch-bettor`: the bulk of a house-edge run. Every `every` it places one
 * POST /bets/batch of `size` bets (1 to 20) of `amount`, cycling through its `mix` of games and
 * parameters with a cursor that carries over between batches, so every entry of the mix gets the
 * same number of bets (±1) whatever the batch size.
 *
 * Checks it can make from the answer alone (reported when broken): the batch answers 200 with one
 * result per bet; every element is a bet or a refusal a bet can get (Kelly 400 with max_bet,
 * GAME_CLOSED, INSUFFICIENT_BALANCE); the summary counts them (`total`, `errors`) and its
 * `total_wagered` is the sum of the placed bets' amounts (the real casino's answer says 0).
 * Registration may name a referrer of archetype `referrer` (chance `referred`), so a population
 * builds referral chains several levels deep. Gives up after BROKE_MAX batches placing nothing
 * for lack of funds.
 */
import { z } from 'zod';
import type { CasinoBody } from '../../src/client/casino-client.ts';
import { ERROR_STATUS } from '../../src/core/errors.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  expectedRefusal,
  HOUR_MS,
  memoryOf,
  moneyIn,
  moneyOut,
  onboard,
  reportUnexpected,
  RETRY_MS,
  usdcAmount,
} from '../../src/agent/agent-kit.ts';
import {
  BROKE_MAX,
  checkAmount,
  freshCasinoMemory,
  gameChoice,
  placedOutcome,
  refusedOutcome,
  type BetOutcome,
  type CasinoMemory,
} from '../../src/agent/casino-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';

export const BATCH_SIZE_MAX = 20;

const params = z
  .strictObject({
    mix: z
      .array(gameChoice())
      .min(1)
      .max(BATCH_SIZE_MAX)
      .prefault([{ game: 'coin_flip', params: { side: 'heads' } }])
      .describe('games and parameters the bets cycle through'),
    amount: usdcAmount().prefault(0.01).describe('USDC per bet'),
    size: z.int().min(1).max(BATCH_SIZE_MAX).prefault(BATCH_SIZE_MAX).describe('bets per batch (1 to 20)'),
    every: durationMs({ minMs: 1_000, maxMs: 24 * HOUR_MS })
      .prefault('1m')
      .describe('time between batches'),
    referred: probability().prefault(0).describe('chance of registering with a referrer of archetype `referrer`'),
    referrer: z.string().min(1).max(64).prefault('batch-bettor').describe('archetype the referrer is drawn from'),
  })
  .superRefine((value, context) => {
    value.mix.forEach((choice, index) => checkAmount(choice.game, value.amount, context, ['mix', index]));
  });

type Params = z.output<typeof params>;

interface BatchMemory extends CasinoMemory {
  cursor: number;
  referrerDrawn: boolean;
  referrerId: string | null;
}

function memory(context: AgentContext<Params>): BatchMemory {
  return memoryOf(context, () => ({ ...freshCasinoMemory(), cursor: 0, referrerDrawn: false, referrerId: null }));
}

async function join(context: AgentContext<Params>, bettor: BatchMemory): Promise<boolean> {
  if (!bettor.referrerDrawn) {
    bettor.referrerDrawn = true;
    if (context.rng.chance(context.params.referred, BASIS_POINTS))
      bettor.referrerId = context.directory.pick(context.params.referrer, context.rng, context.agentId);
  }
  return onboard(context, bettor, bettor.referrerId ?? undefined);
}

function elementOutcome(element: Record<string, unknown>): BetOutcome | null {
  if (element['ok'] === true) return placedOutcome(element as CasinoBody);
  const code = element['code'];
  const status = typeof code === 'string' && code in ERROR_STATUS ? ERROR_STATUS[code as keyof typeof ERROR_STATUS] : 0;
  return refusedOutcome(status, element);
}

/** Judges the batch answer; the outcome that decides the next wake (placed if any bet was). */
function judgeBatch(
  context: AgentContext<Params>,
  body: CasinoBody,
  amounts: readonly bigint[],
  bettor: BatchMemory,
): BetOutcome['kind'] | 'malformed' {
  const results = body['results'];
  const summary = (body['summary'] ?? {}) as Record<string, unknown>;
  if (!Array.isArray(results) || results.length !== amounts.length) return 'malformed';
  let placedMicro = 0n;
  let errors = 0;
  const kinds = new Set<BetOutcome['kind']>();
  for (const [index, element] of results.entries()) {
    const outcome =
      typeof element === 'object' && element !== null ? elementOutcome(element as Record<string, unknown>) : null;
    if (outcome === null) return 'malformed';
    kinds.add(outcome.kind);
    if (outcome.kind === 'placed') {
      bettor.bets += 1;
      placedMicro += amounts[index] ?? 0n;
    } else {
      if (outcome.kind === 'closed') bettor.closed += 1;
      errors += 1;
    }
  }
  const wageredMicro = moneyIn(summary['total_wagered']);
  if (summary['total'] !== amounts.length || summary['errors'] !== errors || wageredMicro !== placedMicro) {
    context.report(
      `batch summary says total ${String(summary['total'])}, errors ${String(summary['errors'])}, total_wagered ${String(summary['total_wagered'])}; the results say ${amounts.length}, ${errors}, ${moneyOut('B', placedMicro)}`,
      { summary },
    );
  }
  return kinds.has('placed') ? 'placed' : kinds.has('broke') ? 'broke' : kinds.has('closed') ? 'closed' : 'over-limit';
}

export const batchBettor = defineAgent<Params>({
  name: 'batch-bettor',
  service: 'casino',
  description: 'places batches of up to 20 bets cycling through a mix of games; checks the batch summary',
  params,
  async setup(context) {
    await join(context, memory(context));
  },
  async step(context) {
    const bettor = memory(context);
    if (!(await join(context, bettor))) return { wakeInMs: RETRY_MS };
    const { mix, amount, size, every } = context.params;
    const bets = Array.from({ length: size }, (_, index) => {
      const choice = mix[(bettor.cursor + index) % mix.length] ?? mix[0];
      return { game: choice?.game, ...choice?.params, amount: moneyOut('A', amount) };
    });
    bettor.cursor = (bettor.cursor + size) % mix.length;
    const result = await context.client.casino.batch(bets);
    if (!result.ok) {
      if (!expectedRefusal(context, result, 'casino'))
        reportUnexpected(context, `a batch of ${size} bets`, result, '200');
      return { wakeInMs: Math.max(RETRY_MS, every) };
    }
    const kind = judgeBatch(
      context,
      result.body,
      bets.map(() => amount),
      bettor,
    );
    if (kind === 'malformed') {
      reportUnexpected(
        context,
        `a batch of ${size} bets answered without one bet or refusal per element`,
        result,
        'one result per bet',
      );
      return { wakeInMs: Math.max(RETRY_MS, every) };
    }
    bettor.broke = kind === 'broke' ? bettor.broke + 1 : 0;
    if (bettor.broke >= BROKE_MAX) return 'done';
    return { wakeInMs: kind === 'broke' ? Math.max(RETRY_MS, every) : every };
  },
});
