/**
 * Archetype `domain-flipper`: registers names of its own (`<agent>-<n>.<tld>`), offers each for
 * sale to another flipper at the registration cost × `markup` (a priced transfer: an offer), and
 * buys what other flippers offer it: it looks up a peer's names and accepts an offer made to it
 * (the same transfer, to = itself, the offered price) when the price is within `budget`.
 * Checks: after an accepted sale the lookup shows this agent as owner and no offer left; an offer
 * it made shows in the lookup with its buyer and price; a name it registered is listed as its own.
 */
import { z } from 'zod';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  HOUR_MS,
  jittered,
  MINUTE_MS,
  moneyIn,
  parseIsoMs,
  reportUnexpected,
  RETRY_MS,
} from '../../src/agent/agent-kit.ts';
import { formatDecimal } from '../../src/core/money.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';
import {
  readyDomainsAgent,
  setupDomainsAgent,
  labelOf,
  refusedAsExpected,
  registerDomain,
  type DomainsMemory,
} from './domains-kit.ts';

const params = z.strictObject({
  every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
    .prefault('3h')
    .describe('time between moves'),
  names: z.int().min(1).max(20).prefault(3).describe('how many names of its own it registers'),
  tld: z.enum(['xyz', 'com', 'dev', 'info', 'net', 'org']).prefault('xyz').describe('the TLD of its names'),
  markup: z.number().min(0.1).max(100).prefault(1.5).describe('asking price as a multiple of the yearly price'),
  budget: z.number().positive().max(1_000_000).prefault(60).describe('highest price (USDC) it pays for a name'),
  buy: probability().prefault(0.5).describe('chance of looking for offers made to it on each move'),
});

type Params = z.output<typeof params>;

const nameOf = (agentId: string, index: number, tld: string): string => `${labelOf(agentId)}-${index}.${tld}`;

/** Registers its next own name, then offers a held name to a random other flipper. */
async function sell(context: AgentContext<Params>, memory: DomainsMemory): Promise<void> {
  const { names, tld, markup } = context.params;
  const mine = [...memory.held.keys()];
  if (mine.length < names) {
    for (let index = 0; index < names; index++) {
      const domain = nameOf(context.agentId, index, tld);
      if (memory.held.has(domain)) continue;
      await registerDomain(context, memory, domain, 1);
      break;
    }
    return;
  }
  const buyer = context.directory.pick('domain-flipper', context.rng, context.agentId);
  if (buyer === null) return;
  const domain = context.rng.pick(mine);
  const check = await context.client.domains.check(domain);
  if (!check.ok) {
    if (!refusedAsExpected(context, check, [])) reportUnexpected(context, `checking ${domain}`, check, '200');
    return;
  }
  const priceMicro = (BigInt(Math.round(check.body.price_usdc * 1_000_000)) * BigInt(Math.round(markup * 100))) / 100n;
  const price = formatDecimal(priceMicro > 0n ? priceMicro : 1n);
  const offer = await context.client.domains.transfer({ domain, to: buyer, price });
  if (!offer.ok) {
    // 403/404: sold or released already; 409: expired.
    if (!refusedAsExpected(context, offer, [403, 404, 409]))
      reportUnexpected(context, `offering ${domain} to ${buyer}`, offer, '200');
    if (offer.status === 403 || offer.status === 404) memory.held.delete(domain);
    return;
  }
  if (
    offer.body.status !== 'offered' ||
    offer.body.owner !== context.agentId ||
    offer.body.to !== buyer ||
    offer.body.price !== price
  ) {
    context.report(
      `offered ${domain} to ${buyer} at ${price} but the answer says ${offer.body.status} to ${offer.body.to} at ${offer.body.price}`,
      offer.body,
    );
  }
}

/** Looks up a peer's names and accepts an offer made to this agent within budget. */
async function shop(context: AgentContext<Params>, memory: DomainsMemory): Promise<void> {
  const seller = context.directory.pick('domain-flipper', context.rng, context.agentId);
  if (seller === null) return;
  const domain = nameOf(seller, context.rng.int(context.params.names), context.params.tld);
  const lookup = await context.client.domains.lookup(domain);
  if (!lookup.ok) {
    if (!refusedAsExpected(context, lookup, [404]))
      reportUnexpected(context, `looking up ${domain}`, lookup, '200 or 404');
    return;
  }
  const offer = lookup.body.offer;
  if (offer === null || offer.to !== context.agentId || lookup.body.status !== 'active') return;
  const priceMicro = moneyIn(offer.price);
  if (priceMicro === null || priceMicro > BigInt(Math.round(context.params.budget * 1_000_000))) return;
  const accepted = await context.client.domains.transfer({ domain, to: context.agentId, price: offer.price });
  if (!accepted.ok) {
    // 403: the offer was withdrawn or the name sold; 409: expired or price changed; 422: funds.
    if (!refusedAsExpected(context, accepted, [403, 409, 422]))
      reportUnexpected(context, `accepting the offer of ${domain}`, accepted, '200');
    return;
  }
  const after = await context.client.domains.lookup(domain);
  if (after.ok && (after.body.owner !== context.agentId || after.body.offer !== null)) {
    context.report(
      `bought ${domain} but the lookup shows owner ${after.body.owner} and offer ${JSON.stringify(after.body.offer)}`,
      after.body,
    );
    return;
  }
  memory.held.set(domain, parseIsoMs(lookup.body.expires) ?? context.clock.nowMs());
}

export const domainFlipper = defineAgent<Params>({
  name: 'domain-flipper',
  service: 'domains',
  description:
    'registers names of its own, offers them to other flippers (priced transfers), accepts offers made to it',
  params,
  setup: setupDomainsAgent,
  async step(context) {
    const memory = await readyDomainsAgent(context);
    if (memory === null) return { wakeInMs: RETRY_MS };
    if (context.rng.chance(context.params.buy, BASIS_POINTS)) await shop(context, memory);
    else await sell(context, memory);
    return { wakeInMs: jittered(context, context.params.every, Math.floor(context.params.every / 4)) };
  },
});
