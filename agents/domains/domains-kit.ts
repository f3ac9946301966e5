/**
 * What the domains archetypes share: their memory (the faucet's, plus the names they hold), the
 * registration call in the agent's style, and the reading of expected refusals. A domain answer is
 * expected to be a success or one of the documented refusals for the move; anything else is a
 * broken rule the agent reports (a 5xx outside an outage, a 400 on a well-formed request...).
 */
import type { ApiResult } from '../../src/client/client.ts';
import type { AgentContext } from '../../src/agent/agent.ts';
import {
  claimIfDue,
  expectedRefusal,
  freshFaucetMemory,
  memoryOf,
  onboard,
  parseIsoMs,
  reportUnexpected,
  type FaucetMemory,
} from '../../src/agent/agent-kit.ts';

export interface DomainsMemory extends FaucetMemory {
  /** Names this agent registered or bought and believes it holds, with their expiry (ms). */
  held: Map<string, number>;
}

export function freshDomainsMemory(): DomainsMemory {
  return { ...freshFaucetMemory(), held: new Map() };
}

/** Most names one agent keeps track of (the platform caps holdings at 100 per agent). */
export const HELD_MAX = 100;

/**
 * Whether a refusal is one the move may meet: a rate limit or an outage always; else the statuses
 * named in `allowed` (409 taken or expired, 422 funds, 404 released, 403 not yours any more).
 */
export function refusedAsExpected(
  context: AgentContext<unknown>,
  result: ApiResult<unknown>,
  allowed: readonly number[],
): boolean {
  return expectedRefusal(context, result, 'domains') || allowed.includes(result.status);
}

/** Registers `domain` for `years` in the agent's style; the expiry on success, else null. */
export async function registerDomain(
  context: AgentContext<unknown>,
  memory: DomainsMemory,
  domain: string,
  years: number,
): Promise<number | null> {
  const result =
    context.style === 'A'
      ? await context.client.domains.registerA({ domain, years })
      : await context.client.domains.registerB({ domain, years });
  if (!result.ok) {
    // 409: another agent was faster (a race) or the name is in grace; 422: not funded yet.
    if (!refusedAsExpected(context, result, [409, 422]))
      reportUnexpected(context, `registering ${domain}`, result, '201, 409 or 422');
    return null;
  }
  const expires = 'expires_at' in result.body ? result.body.expires_at : result.body.expires;
  const expiresAtMs = parseIsoMs(expires);
  if (result.body.domain !== domain || expiresAtMs === null) {
    context.report(`registered ${domain} but the answer names ${result.body.domain}, expiry ${expires}`, result.body);
    return null;
  }
  if (memory.held.size < HELD_MAX) memory.held.set(domain, expiresAtMs);
  return expiresAtMs;
}

/** A DNS label made of the agent id: lowercase letters, digits and '-' only, at most 40 characters. */
export function labelOf(agentId: string): string {
  const cleaned = agentId
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '');
  return (cleaned.length === 0 ? 'agent' : cleaned).slice(0, 40).replace(/-+$/, '');
}

/** Every domains archetype's setup: register with the platform (its faucet grant funds the names). */
export async function setupDomainsAgent(context: AgentContext<unknown>): Promise<void> {
  await onboard(context, memoryOf(context, freshDomainsMemory));
}

/** The start of every domains step: registered (or null: try again later), the daily claim made when due. */
export async function readyDomainsAgent(context: AgentContext<unknown>): Promise<DomainsMemory | null> {
  const memory = memoryOf(context, freshDomainsMemory);
  if (!memory.registered && !(await onboard(context, memory))) return null;
  await claimIfDue(context, memory);
  return memory;
}
