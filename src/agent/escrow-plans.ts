/**
 * The escrow buyer's plans: what it will do to each escrow it locked, and when. A plan runs when
 * due and may leave a follow-up plan (a dispute leads to a concession or to a check that the
 * window settled it). Each action checks its answer against the contract; answers that depend on
 * the counterparty (a seller may dispute first) are resolved by reading the escrow before judging.
 *
 * Invariants: a plan acts on its escrow only before expires_at (actions are planned inside the
 * lifetime); a refused move (429, outage) is planned again later, or turned into an expiry check
 * when the lifetime is over. Limits: one follow-up per plan; the buyer bounds the list.
 */
import type { ApiResult } from '../client/client.ts';
import type { AgentContext } from './agent.ts';
import { expectedRefusal, moneyIn, parseIsoMs, reportUnexpected, RETRY_MS, type FaucetMemory } from './agent-kit.ts';
import { BASIS_POINTS } from '../scenario/probability.ts';

export type EscrowSettlement = 'release' | 'refund' | 'dispute' | 'let_expire';
export type PlanAction =
  | 'release'
  | 'refund'
  | 'dispute'
  | 'check-expired'
  | 'retry-release'
  | 'concede'
  | 'check-window';

export interface Plan {
  readonly escrowId: string;
  readonly action: PlanAction;
  readonly atMs: number;
  readonly netMicro: bigint;
  readonly expiresAtMs: number;
}

export interface BuyerMemory extends FaucetMemory {
  nextCreateAtMs: number;
  plans: Plan[];
}

export interface PlanOptions {
  /** Basis points: chance of repeating a release. */
  readonly retryRelease: number;
  /** Basis points: chance of releasing during a dispute window the buyer opened. */
  readonly concede: number;
}

type Context = AgentContext<unknown>;
const CHECK_DELAY_MS = 1_000;

/** Runs every plan due now, earliest first; keeps the others and the follow-ups. */
export async function runDuePlans(context: Context, buyer: BuyerMemory, options: PlanOptions): Promise<void> {
  const nowMs = context.clock.nowMs();
  const due = buyer.plans.filter((plan) => plan.atMs <= nowMs).sort((a, b) => a.atMs - b.atMs);
  if (due.length === 0) return;
  buyer.plans = buyer.plans.filter((plan) => plan.atMs > nowMs);
  for (const plan of due) {
    const next = await runPlan(context, plan, options);
    if (next !== null) buyer.plans.push(next);
  }
}

async function runPlan(context: Context, plan: Plan, options: PlanOptions): Promise<Plan | null> {
  switch (plan.action) {
    case 'release':
    case 'concede':
      return release(context, plan, options);
    case 'retry-release':
      return retryRelease(context, plan);
    case 'refund':
      return refund(context, plan);
    case 'dispute':
      return dispute(context, plan, options);
    case 'check-expired':
    case 'check-window':
      return check(context, plan);
  }
}

/** The same move later; an action whose lifetime is over becomes an expiry check. */
function later(context: Context, plan: Plan): Plan {
  const atMs = context.clock.nowMs() + RETRY_MS;
  const acting = plan.action === 'release' || plan.action === 'refund' || plan.action === 'dispute';
  if (acting && atMs >= plan.expiresAtMs)
    return { ...plan, action: 'check-expired', atMs: Math.max(atMs, plan.expiresAtMs + CHECK_DELAY_MS) };
  return { ...plan, atMs };
}

async function readStatus(
  context: Context,
  escrowId: string,
): Promise<{ status: string; windowEndsAtMs: number | null } | null> {
  const result =
    context.style === 'A' ? await context.client.escrowA.get(escrowId) : await context.client.escrowB.get(escrowId);
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'escrow'))
      reportUnexpected(context, `reading escrow ${escrowId}`, result, '200');
    return null;
  }
  return { status: result.body.status, windowEndsAtMs: parseIsoMs(result.body.dispute?.window_ends_at) };
}

async function sendRelease(
  context: Context,
  escrowId: string,
): Promise<ApiResult<{ net?: unknown; released_amount?: unknown }>> {
  return context.style === 'A'
    ? context.client.escrowA.release({ escrow_id: escrowId })
    : context.client.escrowB.release(escrowId);
}

async function release(context: Context, plan: Plan, options: PlanOptions): Promise<Plan | null> {
  const result = await sendRelease(context, plan.escrowId);
  if (expectedRefusal(context, result, 'escrow')) return later(context, plan);
  if (!result.ok) return afterConflict(context, plan, result, plan.action);
  const paidMicro = moneyIn(context.style === 'A' ? result.body.released_amount : result.body.net);
  if (paidMicro !== plan.netMicro)
    context.report(
      `release of escrow ${plan.escrowId} paid ${String(paidMicro)} micro-USDC; its net is ${plan.netMicro}`,
      { status: result.status, body: result.body },
    );
  if (!context.rng.chance(options.retryRelease, BASIS_POINTS)) return null;
  return { ...plan, action: 'retry-release', atMs: context.clock.nowMs() + 60_000 };
}

async function retryRelease(context: Context, plan: Plan): Promise<Plan | null> {
  const result = await sendRelease(context, plan.escrowId);
  if (expectedRefusal(context, result, 'escrow')) return null;
  if (result.ok || result.body.code !== 'CONFLICT')
    reportUnexpected(context, `a repeated release of escrow ${plan.escrowId}`, result, '409 CONFLICT');
  return null;
}

async function refund(context: Context, plan: Plan): Promise<Plan | null> {
  const result = await context.client.escrowB.refund(plan.escrowId);
  if (expectedRefusal(context, result, 'escrow')) return later(context, plan);
  return result.ok ? null : afterConflict(context, plan, result, 'refund');
}

/**
 * A 409 the seller may have caused by disputing first (a refund or a second dispute is refused
 * while the window is open; a release after a window that refunded is refused): read the escrow
 * and accept the refusal when it carries a dispute, else report it.
 */
async function afterConflict(
  context: Context,
  plan: Plan,
  result: ApiResult<unknown>,
  what: string,
): Promise<Plan | null> {
  const seen = await readStatus(context, plan.escrowId);
  if (seen === null) return null;
  if (!result.ok && result.body.code === 'CONFLICT' && seen.windowEndsAtMs !== null) {
    return seen.status === 'disputed' ? windowCheck(plan, seen.windowEndsAtMs) : null;
  }
  reportUnexpected(context, `${what} of escrow ${plan.escrowId} (status ${seen.status})`, result, '200');
  return null;
}

async function dispute(context: Context, plan: Plan, options: PlanOptions): Promise<Plan | null> {
  const reason = context.faker.lorem.sentence().slice(0, 200);
  const evidence = `sha256:${context.rng.hex(32)}`;
  const result =
    context.style === 'A'
      ? await context.client.escrowA.dispute({ escrow_id: plan.escrowId, reason, evidence })
      : await context.client.escrowB.dispute(plan.escrowId, { reason, evidence });
  if (expectedRefusal(context, result, 'escrow')) return later(context, plan);
  if (!result.ok) return afterConflict(context, plan, result, 'dispute');
  const windowEndsAtMs = parseIsoMs(result.body.window_ends_at);
  const nowMs = context.clock.nowMs();
  if (windowEndsAtMs !== null && windowEndsAtMs > nowMs + 1 && context.rng.chance(options.concede, BASIS_POINTS)) {
    return { ...plan, action: 'concede', atMs: nowMs + 1 + context.rng.int(Math.floor((windowEndsAtMs - nowMs) / 2)) };
  }
  return windowCheck(plan, windowEndsAtMs);
}

function windowCheck(plan: Plan, windowEndsAtMs: number | null): Plan | null {
  return windowEndsAtMs === null ? null : { ...plan, action: 'check-window', atMs: windowEndsAtMs + CHECK_DELAY_MS };
}

/** After expiry: no longer locked. After a dispute window: settled. */
async function check(context: Context, plan: Plan): Promise<Plan | null> {
  const seen = await readStatus(context, plan.escrowId);
  if (seen === null) return null;
  if (plan.action === 'check-expired') {
    if (seen.status === 'disputed') return windowCheck(plan, seen.windowEndsAtMs);
    if (seen.status === 'locked')
      context.report(
        `escrow ${plan.escrowId} is still locked ${context.clock.nowMs() - plan.expiresAtMs} ms after its expires_at`,
        plan,
      );
    return null;
  }
  if (seen.status === 'disputed' || seen.status === 'locked')
    context.report(`escrow ${plan.escrowId} is still ${seen.status} after its dispute window ended`, plan);
  return null;
}
