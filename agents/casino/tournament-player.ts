/**
 * Archetype `tournament-player`: finds an open tournament of its game (GET /tournaments) and
 * enters it, or — none open, with chance `create` — creates one (its prize pool comes from its own
 * balance) and enters that; while the tournament is active it plays `plays` bets per wake
 * (POST /tournaments/{id}/play); once the tournament's end has passed it reads the result.
 *
 * Checks (reported when broken): a tournament read after its ends_at is `completed`; its prizes
 * add up to at most its prize pool; a play of an entered, active tournament is a bet or a
 * documented refusal. Expected refusals: 409 for a tournament that filled up, ended or was already
 * entered (another agent got there first), 422 for too little balance, GAME_CLOSED during a
 * closure. Plays stay within the `/play` cap (60 per minute): at most 60 per wake.
 */
import { z } from 'zod';
import type { ApiResult } from '../../src/client/client.ts';
import type { CasinoBody } from '../../src/client/casino-client.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  expectedRefusal,
  HOUR_MS,
  memoryOf,
  MINUTE_MS,
  moneyIn,
  moneyOut,
  onboard,
  parseIsoMs,
  reportUnexpected,
  RETRY_MS,
  usdcAmount,
} from '../../src/agent/agent-kit.ts';
import {
  freshCasinoMemory,
  GAME_FIELDS,
  judgeBet,
  tallyOutcome,
  type CasinoMemory,
  withGameParams,
} from '../../src/agent/casino-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';

export const PLAYS_PER_WAKE_MAX = 60;

const params = z
  .strictObject({
    ...GAME_FIELDS,
    amount: usdcAmount().prefault(0.05).describe('USDC per tournament play'),
    plays: z.int().min(1).max(PLAYS_PER_WAKE_MAX).prefault(5).describe('plays per wake while the tournament is active'),
    every: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
      .prefault('10m')
      .describe('time between wakes'),
    create: probability().prefault(0.3).describe('chance of creating a tournament when none is open'),
    prize_pool: usdcAmount().prefault(5).describe('prize pool of a tournament it creates (from its balance)'),
    entry_fee: usdcAmount().prefault(0.1).describe('entry fee of a tournament it creates'),
    max_agents: z.int().min(2).max(1_000).prefault(20).describe('entrants of a tournament it creates'),
    starts_in: durationMs({ maxMs: 24 * HOUR_MS })
      .prefault('5m')
      .describe('a created tournament starts this long after creation'),
    length: durationMs({ minMs: 10 * MINUTE_MS, maxMs: 7 * 24 * HOUR_MS })
      .prefault('2h')
      .describe('how long a created tournament runs'),
  })
  .transform(withGameParams('amount'));

type Params = z.output<typeof params>;

interface Entered {
  readonly id: string;
  readonly startsAtMs: number;
  readonly endsAtMs: number;
}

interface PlayerMemory extends CasinoMemory {
  current: Entered | null;
  created: number;
  entered: number;
}

function memory(context: AgentContext<Params>): PlayerMemory {
  return memoryOf(context, () => ({ ...freshCasinoMemory(), current: null, created: 0, entered: 0 }));
}

function enteredFrom(view: Record<string, unknown>): Entered | null {
  const id = view['tournament_id'];
  const startsAtMs = parseIsoMs(view['starts_at']);
  const endsAtMs = parseIsoMs(view['ends_at']);
  return typeof id === 'string' && startsAtMs !== null && endsAtMs !== null ? { id, startsAtMs, endsAtMs } : null;
}

function refused(
  context: AgentContext<Params>,
  what: string,
  result: ApiResult<CasinoBody>,
  allowed: readonly number[],
): void {
  if (expectedRefusal(context, result, 'casino') || allowed.includes(result.status)) return;
  reportUnexpected(context, what, result, `200 or ${allowed.join(', ')}`);
}

/** After its end: the tournament is completed and paid at most its pool. */
async function readResult(context: AgentContext<Params>, entered: Entered): Promise<void> {
  const result = await context.client.casino.call('casino.A.tournaments.get', { params: { id: entered.id } });
  if (!result.ok) return refused(context, `GET /tournaments/${entered.id}`, result, [404]);
  if (result.body['status'] !== 'completed')
    reportUnexpected(context, `tournament ${entered.id} read after its ends_at`, result, "status 'completed'");
  const pool = moneyIn(result.body['prize_pool']) ?? 0n;
  const prizes = Array.isArray(result.body['prizes']) ? (result.body['prizes'] as Record<string, unknown>[]) : [];
  const paid = prizes.reduce((sum, prize) => sum + (moneyIn(prize['amount']) ?? 0n), 0n);
  if (paid > pool)
    reportUnexpected(
      context,
      `tournament ${entered.id} paid ${moneyOut('B', paid)} of a pool of ${moneyOut('B', pool)}`,
      result,
      'prizes within the pool',
    );
}

async function enter(
  context: AgentContext<Params>,
  player: PlayerMemory,
  view: Record<string, unknown>,
): Promise<boolean> {
  const entered = enteredFrom(view);
  if (entered === null) return false;
  const result = await context.client.casino.call('casino.A.tournaments.enter', { params: { id: entered.id } });
  if (!result.ok) {
    refused(context, `entering tournament ${entered.id}`, result, [409, 422]);
    return false;
  }
  player.current = entered;
  player.entered += 1;
  return true;
}

/** Enters an open tournament of its game, or creates one (with chance `create`) and enters it. */
async function findOrCreate(context: AgentContext<Params>, player: PlayerMemory): Promise<void> {
  const listed = await context.client.casino.call('casino.A.tournaments.list', {});
  if (!listed.ok) return refused(context, 'GET /tournaments', listed, []);
  const open = [
    ...((listed.body['active'] ?? []) as Record<string, unknown>[]),
    ...((listed.body['upcoming'] ?? []) as Record<string, unknown>[]),
  ];
  const fitting = open.filter(
    (view) => view['game'] === context.params.game && Number(view['entrants']) < Number(view['max_agents']),
  );
  if (
    fitting.length > 0 &&
    (await enter(context, player, fitting[context.rng.int(fitting.length)] as Record<string, unknown>))
  )
    return;
  if (!context.rng.chance(context.params.create, BASIS_POINTS)) return;
  const { params } = context;
  const startsAtMs = context.clock.nowMs() + params.starts_in;
  const created = await context.client.casino.call('casino.A.tournaments.create', {
    body: {
      name: `${context.faker.word.adjective()} ${context.faker.word.noun()} cup`.slice(0, 64),
      game: params.game,
      entry_fee: moneyOut('A', params.entry_fee),
      prize_pool: moneyOut('A', params.prize_pool),
      max_agents: params.max_agents,
      starts_at: new Date(startsAtMs).toISOString(),
      ends_at: new Date(startsAtMs + params.length).toISOString(),
    },
  });
  if (!created.ok) return refused(context, 'creating a tournament', created, [409, 422]);
  player.created += 1;
  await enter(context, player, created.body);
}

/** Up to `plays` plays of the active tournament; stops at the first refusal. */
async function play(context: AgentContext<Params>, player: PlayerMemory, entered: Entered): Promise<void> {
  for (let count = 0; count < context.params.plays; count++) {
    const result = await context.client.casino.call('casino.A.tournaments.play', {
      params: { id: entered.id },
      body: { ...context.params.params, amount: moneyOut('A', context.params.amount) },
    });
    const outcome = judgeBet(context, `a play of tournament ${entered.id}`, result);
    tallyOutcome(player, outcome);
    if (outcome.kind !== 'placed') return;
  }
}

export const tournamentPlayer = defineAgent<Params>({
  name: 'tournament-player',
  service: 'casino',
  description: 'enters (or creates and enters) tournaments of its game, plays them while active, reads the results',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const player = memory(context);
    if (!(await onboard(context, player))) return { wakeInMs: RETRY_MS };
    const nowMs = context.clock.nowMs();
    const current = player.current;
    if (current !== null && nowMs >= current.endsAtMs) {
      player.current = null;
      await readResult(context, current);
    }
    if (player.current === null) await findOrCreate(context, player);
    const entered = player.current;
    if (entered !== null && nowMs >= entered.startsAtMs && nowMs < entered.endsAtMs)
      await play(context, player, entered);
    if (player.broke >= 4) {
      player.broke = 0;
      return { wakeInMs: Math.max(RETRY_MS, context.params.every) };
    }
    return { wakeInMs: context.params.every };
  },
});
