/**
 * Agent registration, for the whole platform (both styles): the agent record, its one API key
 * (returned once, stored only as its SHA-256), address, referral code, the referral link, and
 * for style B the 10 USDC grant that starts the 24 h claim cooldown.
 *
 * Invariants: a failed registration changes nothing (checks run before any id is drawn or any
 * money moves); agent ids, addresses and referral codes never collide with one another, so
 * `AgentRegistry.resolve` is unambiguous; the grant moves only from the faucet pool.
 * Check order: agent_id syntax (400), taken (409), referrer unknown (404), pool short (422).
 */
import { assert } from '../../core/assert.ts';
import { fail, succeed, type JsonObject, type Outcome } from '../../core/errors.ts';
import { hashKey } from '../../core/ids.ts';
import { FAUCET_POOL, agentAccount } from '../../core/ledger.ts';
import type { Micro } from '../../core/money.ts';
import { isReference } from '../../core/reference.ts';
import type { Agent } from '../shared/agents.ts';
import type { ServiceContext } from '../shared/context.ts';
import { frameworkOf, type FaucetRecords } from './faucet-records.ts';

/** Draws of a fresh address or referral code before a collision is treated as a bug. */
const FRESH_DRAWS_MAX = 16;

export interface RegisterCommand {
  readonly style: 'A' | 'B';
  readonly agentId: string;
  /** Agent id, address (any case) or referral code of the referrer. */
  readonly referrer?: string | undefined;
  /** Style B only: free-form metadata; `framework` (a string) feeds the public list. */
  readonly metadata?: JsonObject | undefined;
}

export interface Registration {
  readonly agent: Agent;
  /** The plain key, returned once; only its hash is stored. */
  readonly apiKey: string;
  /** The style-B grant (0 for style A). */
  readonly grantMicro: Micro;
  readonly balanceMicro: Micro;
  /** First instant a style-B claim is accepted; null for style A (no cooldown started). */
  readonly nextClaimAtMs: number | null;
}

export function registerInFaucet(
  ctx: ServiceContext,
  records: FaucetRecords,
  command: RegisterCommand,
  nowMs: number,
): Outcome<Registration> {
  const { agentId, style } = command;
  if (!isReference(agentId)) return fail('BAD_REQUEST', 'agent_id must be 1 to 64 characters of A-Z a-z 0-9 _ . -');
  if (ctx.agents.resolve(agentId) !== undefined) return fail('CONFLICT', `agent_id ${agentId} is already registered`);
  let referrer: Agent | undefined;
  if (command.referrer !== undefined) {
    referrer = ctx.agents.resolve(command.referrer);
    if (referrer === undefined) return fail('NOT_FOUND', `referrer ${command.referrer} is not a registered agent`);
  }
  const grantMicro = style === 'B' ? ctx.config.faucet.registrationGrantBMicro : 0n;
  if (grantMicro > 0n && ctx.ledger.balance(FAUCET_POOL) < grantMicro)
    return fail('INSUFFICIENT_BALANCE', 'the faucet pool is empty');

  const apiKey = ctx.ids.apiKey();
  const agent: Agent = {
    id: agentId,
    address: fresh(ctx, () => ctx.ids.address()),
    keyHash: hashKey(apiKey),
    referralCode: fresh(ctx, () => ctx.ids.next('ref_', 8)),
    tier: 'free',
    referrerId: referrer?.id ?? null,
    createdAtMs: nowMs,
    metadata: command.metadata ?? null,
    registeredStyle: style,
  };
  ctx.agents.add(agent);
  const record = records.create(agentId, frameworkOf(command.metadata));
  if (grantMicro > 0n) {
    ctx.ledger.transfer({
      from: FAUCET_POOL,
      to: agentAccount(agentId),
      amountMicro: grantMicro,
      reason: 'faucet.grant',
      reference: agentId,
    });
    records.credit(record, grantMicro);
    record.nextClaimBAtMs = nowMs + cooldownMs(ctx);
  }
  if (referrer !== undefined) ctx.referrals.link(referrer.id, agentId);
  ctx.emit({ type: 'agent.registered', atMs: nowMs, agentId, style, referrerId: agent.referrerId, grantMicro });
  return succeed({
    agent,
    apiKey,
    grantMicro,
    balanceMicro: ctx.ledger.balance(agentAccount(agentId)),
    nextClaimAtMs: record.nextClaimBAtMs,
  });
}

/** The style-B cooldown; the `faucet-cooldown-23h` defect shortens it by one hour. */
export function cooldownMs(ctx: ServiceContext): number {
  const configured = ctx.config.faucet.cooldownMs;
  return ctx.defects.has('faucet-cooldown-23h') ? configured - 3_600_000 : configured;
}

/** A drawn value no agent id, address or referral code already uses. */
function fresh(ctx: ServiceContext, draw: () => string): string {
  for (let attempt = 0; attempt < FRESH_DRAWS_MAX; attempt++) {
    const value = draw();
    if (ctx.agents.resolve(value) === undefined) return value;
  }
  assert(false, `${FRESH_DRAWS_MAX} draws all collided with existing agents`);
}
