/**
 * Archetype `challenger`: challenges other agents of the population and answers the challenges
 * it receives. Every `every` it reads its pending challenges (GET /challenges), accepts each
 * incoming one with chance `accept` and declines the others, then challenges an agent of
 * archetype `target` found in the agent directory (src/agent/agent-directory.ts; never itself).
 *
 * Checks (reported when broken): an accepted challenge is resolved with one of the two agents as
 * the winner, paid both stakes minus the house cut (2%, rounded up to the micro); a declined one
 * is `declined`. Expected refusals: 409 for a challenge that expired or was settled meanwhile,
 * 422 for too little balance, 409 when a side has too many pending challenges.
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
  reportUnexpected,
  RETRY_MS,
  usdcAmount,
} from '../../src/agent/agent-kit.ts';
import { freshCasinoMemory, type CasinoMemory } from '../../src/agent/casino-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';

/** casino.md: the winner receives both stakes minus a 2% house cut. */
const HOUSE_CUT_BPS = 200n;
/** Incoming challenges answered per wake, at most. */
export const ANSWERS_PER_WAKE_MAX = 50;

const params = z.strictObject({
  game: z.enum(['coin_flip', 'dice']).prefault('coin_flip').describe('game of the challenges it sends'),
  amount: usdcAmount().prefault(0.5).describe('USDC staked per challenge'),
  every: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
    .prefault('30m')
    .describe('time between wakes'),
  accept: probability().prefault(0.7).describe('chance of accepting an incoming challenge (declined otherwise)'),
  target: z.string().min(1).max(64).prefault('challenger').describe('archetype of the agents it challenges'),
});

type Params = z.output<typeof params>;

interface ChallengerMemory extends CasinoMemory {
  sent: number;
  accepted: number;
  declined: number;
}

function memory(context: AgentContext<Params>): ChallengerMemory {
  return memoryOf(context, () => ({ ...freshCasinoMemory(), sent: 0, accepted: 0, declined: 0 }));
}

function refused(context: AgentContext<Params>, what: string, result: ApiResult<CasinoBody>): void {
  if (expectedRefusal(context, result, 'casino') || result.status === 409 || result.status === 422) return;
  reportUnexpected(context, what, result, '200, 409 or 422');
}

/** A resolved challenge pays the winner 2 × stake − ceil(2 × stake × 2%). */
function checkResolved(context: AgentContext<Params>, body: CasinoBody, incoming: Record<string, unknown>): void {
  const stakeMicro = moneyIn(incoming['amount']) ?? 0n;
  const potMicro = 2n * stakeMicro;
  const cutMicro = (potMicro * HOUSE_CUT_BPS + 9_999n) / 10_000n;
  const winner = body['winner'];
  const sides = [incoming['challenger'], incoming['challenged']];
  if (
    body['status'] !== 'resolved' ||
    !sides.includes(winner) ||
    moneyIn(body['payout']) !== potMicro - cutMicro ||
    moneyIn(body['house_cut']) !== cutMicro
  ) {
    context.report(
      `accepted challenge ${String(incoming['challenge_id'])}: expected resolved, a winner of the two, payout ${moneyOut('B', potMicro - cutMicro)} and cut ${moneyOut('B', cutMicro)}`,
      { answer: body },
    );
  }
}

async function answerIncoming(context: AgentContext<Params>, challenger: ChallengerMemory): Promise<void> {
  const listed = await context.client.casino.call('casino.A.challenges.list', {});
  if (!listed.ok) return refused(context, 'GET /challenges', listed);
  const incoming = Array.isArray(listed.body['incoming']) ? (listed.body['incoming'] as Record<string, unknown>[]) : [];
  for (const challenge of incoming.slice(0, ANSWERS_PER_WAKE_MAX)) {
    const id = String(challenge['challenge_id']);
    const accept = context.rng.chance(context.params.accept, BASIS_POINTS);
    const result = await context.client.casino.call(
      accept ? 'casino.A.challenges.accept' : 'casino.A.challenges.decline',
      { params: { id } },
    );
    if (!result.ok) {
      refused(context, `${accept ? 'accepting' : 'declining'} challenge ${id}`, result);
      continue;
    }
    if (accept) {
      challenger.accepted += 1;
      checkResolved(context, result.body, challenge);
    } else {
      challenger.declined += 1;
      if (result.body['status'] !== 'declined')
        reportUnexpected(context, `declining challenge ${id}`, result, "status 'declined'");
    }
  }
}

async function challengeSomeone(context: AgentContext<Params>, challenger: ChallengerMemory): Promise<void> {
  const opponent = context.directory.pick(context.params.target, context.rng, context.agentId);
  if (opponent === null) return;
  const result = await context.client.casino.call('casino.A.challenges.create', {
    body: {
      challenged_agent_id: opponent,
      game: context.params.game,
      amount: moneyOut('A', context.params.amount),
      message: context.faker.lorem.sentence({ min: 3, max: 8 }).slice(0, 280),
    },
  });
  if (!result.ok) return refused(context, `challenging ${opponent}`, result);
  challenger.sent += 1;
}

export const challenger = defineAgent<Params>({
  name: 'challenger',
  service: 'casino',
  description: 'challenges agents of an archetype found in the directory; accepts or declines incoming challenges',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const player = memory(context);
    if (!(await onboard(context, player))) return { wakeInMs: RETRY_MS };
    await answerIncoming(context, player);
    await challengeSomeone(context, player);
    return { wakeInMs: context.params.every };
  },
});
