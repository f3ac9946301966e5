/**
 * Archetype `domain-squatter`: races the other squatters for one shared list of sought-after
 * names (the same `pool` names for every squatter of the run: `<word><n>.<tld>`). Every `every` it
 * checks a name of the pool and registers it when available; a 409 means another agent got there
 * first (or the name is expired, in grace). It renews a held name near its expiry with chance
 * `renew`, else lets it expire, so names come back to the pool after the grace period.
 * Checks: a name it registered shows in its own list right after, with the expiry it was told;
 * a name it holds is never shown available by check.
 */
import { z } from 'zod';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import { HOUR_MS, jittered, MINUTE_MS, parseIsoMs, reportUnexpected, RETRY_MS } from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';
import {
  readyDomainsAgent,
  setupDomainsAgent,
  refusedAsExpected,
  registerDomain,
  type DomainsMemory,
} from './domains-kit.ts';

const DAY_MS = 24 * HOUR_MS;
const POOL_WORDS = ['agent', 'swap', 'yield', 'pay', 'bot', 'data', 'cloud', 'trade'] as const;

const params = z.strictObject({
  every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * DAY_MS })
    .prefault('1h')
    .describe('time between attempts'),
  pool: z.int().min(1).max(1000).prefault(40).describe('how many contested names the squatters race for'),
  tld: z.enum(['xyz', 'com', 'dev', 'info', 'net', 'org']).prefault('xyz').describe('the TLD of the contested names'),
  years: z.int().min(1).max(10).prefault(1).describe('years registered at a time'),
  renew: probability().prefault(0.3).describe('chance of renewing a held name when it is near expiry'),
});

type Params = z.output<typeof params>;

/** The contested name `index` of the pool (the same list for every squatter). */
export function poolName(index: number, tld: string): string {
  return `${POOL_WORDS[index % POOL_WORDS.length] as string}${Math.floor(index / POOL_WORDS.length)}.${tld}`;
}

async function verifyHeld(context: AgentContext<Params>, domain: string, expiresAtMs: number): Promise<void> {
  const listed =
    context.style === 'A' ? await context.client.domains.domainsA() : await context.client.domains.domainsB();
  if (!listed.ok) {
    if (!refusedAsExpected(context, listed, [])) reportUnexpected(context, 'listing own domains', listed, '200');
    return;
  }
  const item = listed.body.domains.find((entry) => entry.domain === domain);
  const expires = item === undefined ? undefined : 'expires_at' in item ? item.expires_at : item.expires;
  if (expires === undefined || parseIsoMs(expires) !== expiresAtMs)
    context.report(
      `registered ${domain} (expires ${new Date(expiresAtMs).toISOString()}) but the own list shows ${expires ?? 'nothing'}`,
      listed.body,
    );
}

async function attempt(context: AgentContext<Params>, memory: DomainsMemory): Promise<void> {
  const domain = poolName(context.rng.int(context.params.pool), context.params.tld);
  const check = await context.client.domains.check(domain);
  if (!check.ok) {
    if (!refusedAsExpected(context, check, [])) reportUnexpected(context, `checking ${domain}`, check, '200');
    return;
  }
  if (memory.held.has(domain) && (memory.held.get(domain) ?? 0) > context.clock.nowMs() && check.body.available) {
    context.report(
      `${domain} is held by this agent until ${new Date(memory.held.get(domain) ?? 0).toISOString()} but check says available`,
      check.body,
    );
    return;
  }
  if (!check.body.available) return;
  const expiresAtMs = await registerDomain(context, memory, domain, context.params.years);
  if (expiresAtMs !== null) await verifyHeld(context, domain, expiresAtMs);
}

/** Renews (with chance `renew`) the held names within a week of expiry; forgets released ones. */
async function tend(context: AgentContext<Params>, memory: DomainsMemory): Promise<void> {
  const nowMs = context.clock.nowMs();
  for (const [domain, expiresAtMs] of [...memory.held]) {
    if (expiresAtMs - nowMs > 7 * DAY_MS) continue;
    if (!context.rng.chance(context.params.renew, BASIS_POINTS)) {
      if (expiresAtMs < nowMs) memory.held.delete(domain);
      continue;
    }
    const renewed = await context.client.domains.renew({ domain, years: 1 });
    if (renewed.ok) memory.held.set(domain, parseIsoMs(renewed.body.expires) ?? expiresAtMs);
    else {
      // 404: released after grace; 409: past the horizon; 422: funds; 403: not ours any more.
      if (!refusedAsExpected(context, renewed, [403, 404, 409, 422]))
        reportUnexpected(context, `renewing ${domain}`, renewed, '200');
      memory.held.delete(domain);
    }
  }
}

export const domainSquatter = defineAgent<Params>({
  name: 'domain-squatter',
  service: 'domains',
  description: 'races other squatters for one shared list of names: checks, registers, renews some, lets others lapse',
  params,
  setup: setupDomainsAgent,
  async step(context) {
    const memory = await readyDomainsAgent(context);
    if (memory === null) return { wakeInMs: RETRY_MS };
    await tend(context, memory);
    await attempt(context, memory);
    return { wakeInMs: jittered(context, context.params.every, Math.floor(context.params.every / 4)) };
  },
});
