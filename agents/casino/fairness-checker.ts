/**
 * Archetype `fairness-checker`: a player who trusts nothing. It bets like a fixed bettor and keeps
 * the ids of its bets; after `rotate_after` bets it rotates its server seed (POST
 * /fairness/rotate, which reveals it) and checks every one of those bets twice:
 *   1. the casino's own verification (POST /fairness/verify) must say `verified: true`;
 *   2. its own recomputation from the audit trail (GET /fairness/audit/{betId}): the revealed
 *      seed hashes to the commitment, HMAC block 0 is the result hash, replaying the game gives
 *      the recorded multiplier and result, and the payout is floor(amount × multiplier) — the
 *      client-side check of src/audit/fairness/verify-wire-bet.ts, which never reads the casino's verdict.
 * Before the rotation it also asks to verify its first bet of the cycle, which must answer "seed
 * not yet revealed" (verified null): a casino that shows a proof early leaks its seed.
 * Every failure is an agent assertion (context.report), so a run stops at an unverifiable bet.
 * Limits: rotate_after ≤ 1,000 (a seed's nonces), so the casino never rotates first.
 */
import { z } from 'zod';
import { parseAuditTrail } from '../../src/audit/fairness/wire-bet.ts';
import { verifyWireBet } from '../../src/audit/fairness/verify-wire-bet.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  expectedRefusal,
  HOUR_MS,
  memoryOf,
  MINUTE_MS,
  onboard,
  reportUnexpected,
  RETRY_MS,
  usdcAmount,
} from '../../src/agent/agent-kit.ts';
import {
  freshCasinoMemory,
  GAME_FIELDS,
  nextPlayAfter,
  playA,
  tallyOutcome,
  type CasinoMemory,
  withGameParams,
} from '../../src/agent/casino-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';

export const ROTATE_AFTER_MAX = 1_000;

const params = z
  .strictObject({
    ...GAME_FIELDS,
    amount: usdcAmount().prefault(0.01).describe('USDC per bet'),
    every: durationMs({ minMs: 1_000, maxMs: 24 * HOUR_MS })
      .prefault('1m')
      .describe('time between bets'),
    rotate_after: z
      .int()
      .min(1)
      .max(ROTATE_AFTER_MAX)
      .prefault(20)
      .describe('bets per seed: rotate and verify them all after this many'),
    closed_wait: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
      .prefault('30m')
      .describe('wait after a GAME_CLOSED answer'),
  })
  .transform(withGameParams('amount'));

type Params = z.output<typeof params>;

interface CheckerMemory extends CasinoMemory {
  /** Bets placed on the active seed, not yet verified. */
  pending: string[];
  verified: number;
  rotations: number;
}

function memory(context: AgentContext<Params>): CheckerMemory {
  return memoryOf(context, () => ({ ...freshCasinoMemory(), pending: [], verified: 0, rotations: 0 }));
}

/** Before the rotation: the casino must not verify (nor reveal the seed of) a bet yet. */
async function checkNotRevealed(context: AgentContext<Params>, betId: string): Promise<void> {
  const result = await context.client.casino.verify(betId);
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'casino'))
      reportUnexpected(context, `verifying bet ${betId} before rotation`, result, '200');
    return;
  }
  if (result.body['verified'] !== null || result.body['server_seed'] !== null)
    context.report(`bet ${betId} was verified (its seed shown) before the seed was rotated`, { answer: result.body });
}

/** After the rotation: the casino verifies the bet, and so does the agent's own recomputation. */
async function checkBet(context: AgentContext<Params>, checker: CheckerMemory, betId: string): Promise<void> {
  const verified = await context.client.casino.verify(betId);
  if (!verified.ok) {
    if (!expectedRefusal(context, verified, 'casino'))
      reportUnexpected(context, `verifying bet ${betId}`, verified, '200');
    return;
  }
  if (verified.body['verified'] !== true)
    context.report(`the casino does not verify bet ${betId} after rotation`, { answer: verified.body });
  const audit = await context.client.casino.audit(betId);
  if (!audit.ok) {
    if (!expectedRefusal(context, audit, 'casino'))
      reportUnexpected(context, `the audit trail of bet ${betId}`, audit, '200');
    return;
  }
  const trail = parseAuditTrail(audit.body);
  if (!trail.ok)
    return context.report(`the audit trail of bet ${betId} is malformed: ${trail.problem}`, { answer: audit.body });
  const recomputed = verifyWireBet(trail.value.bet, trail.value.serverSeed);
  if (recomputed.problems.length > 0)
    return context.report(`bet ${betId} does not recompute from its audit trail: ${recomputed.problems.join('; ')}`, {
      answer: audit.body,
    });
  checker.verified += 1;
}

async function rotateAndVerify(context: AgentContext<Params>, checker: CheckerMemory): Promise<void> {
  const rotated = await context.client.casino.rotate();
  if (!rotated.ok) {
    if (!expectedRefusal(context, rotated, 'casino'))
      reportUnexpected(context, 'POST /fairness/rotate', rotated, '200');
    return;
  }
  checker.rotations += 1;
  const betIds = checker.pending;
  checker.pending = [];
  for (const betId of betIds) await checkBet(context, checker, betId);
}

export const fairnessChecker = defineAgent<Params>({
  name: 'fairness-checker',
  service: 'casino',
  description: 'bets, rotates its seed after k bets and verifies every bet: by the casino and by its own recomputation',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const checker = memory(context);
    if (!(await onboard(context, checker))) return { wakeInMs: RETRY_MS };
    const outcome = await playA(
      context,
      { game: context.params.game, params: context.params.params },
      context.params.amount,
    );
    if (tallyOutcome(checker, outcome)) return 'done';
    if (outcome.kind === 'placed') {
      checker.pending.push(outcome.betId);
      if (checker.pending.length === 1) await checkNotRevealed(context, outcome.betId);
      if (checker.pending.length >= context.params.rotate_after) await rotateAndVerify(context, checker);
    }
    return nextPlayAfter(outcome, context.params);
  },
});
