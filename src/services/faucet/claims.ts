/**
 * Faucet claims. Style A: 1 USDC, once per agent, ever. Style B: 2 USDC per claim, one claim per
 * cooldown (24 h), which the registration grant also starts. Every B claim needs the agent's key:
 * the documents' B claim takes a bearer key and no body, and "the first claim needs no key" is the
 * registration grant (POST /register, keyless). A keyless claim is 401 before any lookup, the same
 * answer whoever it names: it can neither pay nor use up another agent's claim, nor tell whether
 * the agent exists, its balance or its next claim. The two styles' rules are independent and
 * chosen by the style of the call.
 *
 * Invariants: money moves only from the faucet pool to the agent's one balance; a refused claim
 * changes nothing; a B claim is accepted exactly from `nextClaimBAtMs` on (claims at
 * next_claim − 1 ms are refused). Check order (precedence): identity (401/403/404), cooldown or
 * repeat (409 FAUCET_CLAIMED), pool short (422).
 * The `mint-on-claim` defect additionally credits every accepted claim from nothing.
 */
import { fail, succeed, type Failure, type Outcome } from '../../core/errors.ts';
import { FAUCET_POOL, agentAccount } from '../../core/ledger.ts';
import type { Micro } from '../../core/money.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { FaucetRecord, FaucetRecords } from './faucet-records.ts';
import { cooldownMs } from './registration.ts';

export interface ClaimACommand {
  readonly agentId: string;
}

export interface ClaimBCommand {
  /** The agent whose key authenticated the call; null for a keyless call. */
  readonly callerId: string | null;
  /** The agent named in the body (optional): must equal the caller; a keyless claim is refused whatever it names. */
  readonly agentId: string | null;
}

export interface ClaimResult {
  readonly agentId: string;
  readonly amountMicro: Micro;
  readonly balanceMicro: Micro;
  /** Style B: first instant of the next accepted claim; style A: null (no further claim). */
  readonly nextClaimAtMs: number | null;
}

export function grantClaimA(
  ctx: ServiceContext,
  records: FaucetRecords,
  command: ClaimACommand,
  nowMs: number,
): Outcome<ClaimResult> {
  const agent = ctx.agents.get(command.agentId);
  if (agent === undefined) return fail('NOT_FOUND', `agent ${command.agentId} is not registered`);
  const record = records.forAgent(agent);
  if (record.claimedA) return fail('FAUCET_CLAIMED', 'the one-time faucet allocation was already claimed');
  const amountMicro = ctx.config.faucet.claimAMicro;
  const short = poolShort(ctx, amountMicro);
  if (short !== null) return short;
  record.claimedA = true;
  pay(ctx, records, { agentId: command.agentId, record, amountMicro });
  ctx.emit({
    type: 'faucet.claimed',
    atMs: nowMs,
    agentId: command.agentId,
    style: 'A',
    amountMicro,
    nextClaimAtMs: null,
  });
  return succeed({
    agentId: command.agentId,
    amountMicro,
    balanceMicro: ctx.ledger.balance(agentAccount(command.agentId)),
    nextClaimAtMs: null,
  });
}

export function grantClaimB(
  ctx: ServiceContext,
  records: FaucetRecords,
  command: ClaimBCommand,
  nowMs: number,
): Outcome<ClaimResult> {
  const target = claimantB(ctx, records, command);
  if (!target.ok) return target;
  const { agentId, record } = target.value;
  if (record.nextClaimBAtMs !== null && nowMs < record.nextClaimBAtMs)
    return cooldownFailure(record.nextClaimBAtMs, nowMs);
  const amountMicro = ctx.config.faucet.claimBMicro;
  const short = poolShort(ctx, amountMicro);
  if (short !== null) return short;
  const nextClaimAtMs = nowMs + cooldownMs(ctx);
  record.claimsB += 1;
  record.nextClaimBAtMs = nextClaimAtMs;
  pay(ctx, records, { agentId, record, amountMicro });
  ctx.emit({ type: 'faucet.claimed', atMs: nowMs, agentId, style: 'B', amountMicro, nextClaimAtMs });
  return succeed({ agentId, amountMicro, balanceMicro: ctx.ledger.balance(agentAccount(agentId)), nextClaimAtMs });
}

/** Who a B claim is for: the key's agent (a named agent_id must be it); a keyless claim is 401. */
function claimantB(
  ctx: ServiceContext,
  records: FaucetRecords,
  command: ClaimBCommand,
): Outcome<{ agentId: string; record: FaucetRecord }> {
  if (command.callerId !== null) {
    if (command.agentId !== null && command.agentId !== command.callerId) {
      return fail('FORBIDDEN', 'agent_id must be the agent of the API key');
    }
    const caller = ctx.agents.get(command.callerId);
    if (caller === undefined) return fail('UNAUTHORIZED', 'invalid API key');
    return succeed({ agentId: caller.id, record: records.forAgent(caller) });
  }
  return fail('UNAUTHORIZED', KEYLESS_CLAIM);
}

/** The one answer to every keyless B claim (see the header). */
export const KEYLESS_CLAIM =
  'missing API key: send Authorization: Bearer <api_key> (the first claim is the registration grant)';

function cooldownFailure(nextClaimAtMs: number, nowMs: number): Failure {
  const retryAfterSeconds = Math.ceil((nextClaimAtMs - nowMs) / 1000);
  return fail('FAUCET_CLAIMED', 'already claimed: the next claim is accepted from next_claim', {
    next_claim: new Date(nextClaimAtMs).toISOString(),
    retry_after_seconds: retryAfterSeconds,
  });
}

function poolShort(ctx: ServiceContext, amountMicro: Micro): Failure | null {
  return ctx.ledger.balance(FAUCET_POOL) < amountMicro
    ? fail('INSUFFICIENT_BALANCE', 'the faucet pool is empty')
    : null;
}

function pay(
  ctx: ServiceContext,
  records: FaucetRecords,
  payment: { agentId: string; record: FaucetRecord; amountMicro: Micro },
): void {
  const { agentId, record, amountMicro } = payment;
  ctx.ledger.transfer({
    from: FAUCET_POOL,
    to: agentAccount(agentId),
    amountMicro,
    reason: 'faucet.claim',
    reference: agentId,
  });
  record.claims += 1;
  records.credit(record, amountMicro);
  if (ctx.defects.has('mint-on-claim')) ctx.ledger.faultMint(agentAccount(agentId), amountMicro);
}
