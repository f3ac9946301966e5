/**
 * Shared moves of the agent archetypes: registering in the agent's style, the daily style-B faucet
 * claim with its own cooldown bookkeeping, money in either style, and the judgement "is this
 * answer a broken rule or an expected outcome" (429s and fault-window 5xx are expected).
 *
 * Every move goes through the agent's AfpClient. What an agent checks here is what a real agent
 * could check from the answers alone: a claim paid before the next_claim it was told, or refused
 * after it, is reported (context.report) and stops the run.
 */
import { z } from 'zod';
import type { ApiResult } from '../client/client.ts';
import { parseDecimal, parseNumber, formatDecimal, toNumber, MAX_AMOUNT_MICRO, type Micro } from '../core/money.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { AgentContext } from './agent.ts';

/** What every archetype remembers about its registration and its faucet. */
export interface FaucetMemory {
  registered: boolean;
  /** First instant of the next accepted B claim as the platform said; null = not yet told. */
  nextClaimBAtMs: number | null;
  claimedA: boolean;
  /** Failed registration attempts (bounded: an agent gives up after REGISTER_ATTEMPTS_MAX). */
  registerAttempts: number;
}

export const REGISTER_ATTEMPTS_MAX = 20;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

const FRAMEWORKS = ['langchain', 'autogen', 'crewai', 'eliza', 'semantic-kernel', 'custom'] as const;

/** The agent's memory object, created on first use (each archetype types its own). */
export function memoryOf<S extends object>(context: AgentContext<unknown>, create: () => S): S {
  context.memory ??= create();
  return context.memory as S;
}

export function freshFaucetMemory(): FaucetMemory {
  return { registered: false, nextClaimBAtMs: null, claimedA: false, registerAttempts: 0 };
}

/** True when the answer is an expected non-success: rate limited, or a scheduled outage. */
export function expectedRefusal(
  context: AgentContext<unknown>,
  result: { status: number },
  service: ServiceName,
): boolean {
  return result.status === 429 || (result.status >= 500 && context.expectedOutage(service));
}

/** Reports an answer the contract rules out, with what was asked. */
export function reportUnexpected(
  context: AgentContext<unknown>,
  what: string,
  result: ApiResult<unknown>,
  expected: string,
): void {
  context.report(`${what}: expected ${expected}, got ${result.status}`, {
    what,
    status: result.status,
    body: result.body,
  });
}

/**
 * Registers the agent in its style (B sends framework metadata from its faker); on success the
 * agent learns its key. Returns whether the agent is registered now. A refusal other than a rate
 * limit or an outage is a broken rule: agent ids are unique per run.
 */
export async function register(
  context: AgentContext<unknown>,
  memory: FaucetMemory,
  referrer?: string,
): Promise<boolean> {
  if (memory.registered) return true;
  if (memory.registerAttempts >= REGISTER_ATTEMPTS_MAX) return false;
  memory.registerAttempts++;
  const withReferrer = referrer === undefined ? {} : { referrer };
  const result =
    context.style === 'A'
      ? await context.client.faucetA.register({ agent_id: context.agentId, ...withReferrer })
      : await context.client.faucetB.register({
          agent_id: context.agentId,
          ...withReferrer,
          metadata: {
            framework: context.faker.helpers.arrayElement(FRAMEWORKS),
            version: context.faker.system.semver(),
          },
        });
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'faucet'))
      reportUnexpected(context, `registration of ${context.agentId}`, result, '201');
    return false;
  }
  context.setKey(result.body.api_key);
  memory.registered = true;
  if ('next_claim' in result.body) memory.nextClaimBAtMs = parseIsoMs(result.body.next_claim);
  return true;
}

/**
 * Registration plus, for a style-A agent, its one-time claim: how every archetype that holds
 * money joins the platform, in `setup` and again in `step` while registration has not succeeded
 * (a rate limit or an outage refused it). Returns whether the agent is registered now.
 */
export async function onboard(
  context: AgentContext<unknown>,
  memory: FaucetMemory,
  referrer?: string,
): Promise<boolean> {
  if (memory.registered) return true;
  if (!(await register(context, memory, referrer))) return false;
  if (context.style === 'A') await claimA(context, memory);
  return true;
}

/** The one-time style-A claim: 200 the first time, 409 FAUCET_CLAIMED ever after. */
export async function claimA(context: AgentContext<unknown>, memory: FaucetMemory): Promise<void> {
  const result = await context.client.faucetA.claim();
  if (expectedRefusal(context, result, 'faucet') || (!result.ok && result.body.code === 'INSUFFICIENT_BALANCE')) return;
  if (memory.claimedA) {
    if (result.ok || result.body.code !== 'FAUCET_CLAIMED')
      reportUnexpected(context, 'a second style-A claim', result, '409 FAUCET_CLAIMED');
    return;
  }
  if (!result.ok) {
    reportUnexpected(context, 'the first style-A claim', result, '200');
    return;
  }
  memory.claimedA = true;
}

/**
 * A style-B claim with the agent's key. Accepted exactly from next_claim on: a payout before the
 * instant the platform announced, or a refusal after it, is reported. Learns the next instant
 * from the answer (200: next_claim; 409: next_claim of the error body).
 */
export async function claimB(context: AgentContext<unknown>, memory: FaucetMemory): Promise<ClaimOutcome> {
  const nowMs = context.clock.nowMs();
  const known = memory.nextClaimBAtMs;
  const result = await context.client.faucetB.claim();
  if (expectedRefusal(context, result, 'faucet') || (!result.ok && result.body.code === 'INSUFFICIENT_BALANCE'))
    return 'not-answered';
  if (result.ok) {
    if (known !== null && nowMs < known)
      reportUnexpected(
        context,
        `a B claim ${known - nowMs} ms before the announced next_claim`,
        result,
        '409 FAUCET_CLAIMED',
      );
    memory.nextClaimBAtMs = parseIsoMs(result.body.next_claim);
    return 'paid';
  }
  if (result.body.code !== 'FAUCET_CLAIMED') {
    reportUnexpected(context, 'a B claim', result, '200 or 409 FAUCET_CLAIMED');
    return 'not-answered';
  }
  if (known !== null && nowMs >= known) {
    reportUnexpected(context, `a B claim ${nowMs - known} ms after the announced next_claim`, result, '200');
    return 'not-answered';
  }
  memory.nextClaimBAtMs = parseIsoMs(result.body['next_claim']) ?? known;
  return 'refused';
}

export type ClaimOutcome = 'paid' | 'refused' | 'not-answered';

/** Claims in style B when the announced instant has come (or was never announced). */
export async function claimIfDue(context: AgentContext<unknown>, memory: FaucetMemory): Promise<void> {
  const nowMs = context.clock.nowMs();
  if (memory.nextClaimBAtMs !== null && nowMs < memory.nextClaimBAtMs) return;
  // Unanswered (rate limit, outage): try again later, never in a tight loop. Moving the known
  // instant later keeps the checks sound: the platform's own next_claim is not after it.
  if ((await claimB(context, memory)) === 'not-answered') memory.nextClaimBAtMs = nowMs + RETRY_MS;
}

/** After a rate limit or an outage an agent waits this long before the same move. */
export const RETRY_MS = 10 * 60_000;

/** Milliseconds until `atMs`, at least 1 (a wake-up is always in the future). */
export function untilMs(context: AgentContext<unknown>, atMs: number): number {
  return Math.max(1, atMs - context.clock.nowMs());
}

/** `baseMs` moved by a uniform draw in [-jitterMs, +jitterMs], at least 1 ms. */
export function jittered(context: AgentContext<unknown>, baseMs: number, jitterMs: number): number {
  if (jitterMs <= 0) return Math.max(1, baseMs);
  return Math.max(1, baseMs - jitterMs + context.rng.int(2 * jitterMs + 1));
}

/** An ISO 8601 instant from an answer, or null when absent or unreadable. */
export function parseIsoMs(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const atMs = Date.parse(value);
  return Number.isSafeInteger(atMs) ? atMs : null;
}

/** Money as the agent's style sends it: A a JSON number, B a decimal string. */
export function moneyOut(style: 'A' | 'B', amountMicro: Micro): number | string {
  return style === 'A' ? toNumber(amountMicro) : formatDecimal(amountMicro);
}

/** Money from an answer in either style, or null when it is not a readable amount. */
export function moneyIn(value: unknown): Micro | null {
  const parsed =
    typeof value === 'number' ? parseNumber(value) : typeof value === 'string' ? parseDecimal(value) : null;
  return typeof parsed === 'bigint' ? parsed : null;
}

/** zod: a USDC amount in params (number or decimal text, <= 6 decimals, > 0) → micro-USDC. */
export function usdcAmount(): z.ZodType<Micro, number | string> {
  // Metadata only (the editor schema's bounds; scenario/scenario-schema.ts folds `x-range` into the description).
  const range = {
    exclusiveMinimum: 0,
    maximum: toNumber(MAX_AMOUNT_MICRO),
    'x-range': 'USDC above 0, at most 6 decimals',
  };
  return z
    .union([z.number(), z.string()])
    .meta(range)
    .transform((value, context) => {
      const parsed = moneyIn(value);
      if (parsed === null || parsed <= 0n || parsed > MAX_AMOUNT_MICRO) {
        context.addIssue({ code: 'custom', message: 'must be a positive USDC amount with at most 6 decimals' });
        return z.NEVER;
      }
      return parsed;
    });
}
