/**
 * The domains part of the reference model of `afp check`, written from the wire contract alone
 * (spec/platform.md "Domains" and docs/decisions/domains.md "Domains"); it never imports the domains
 * service. A run names DOMAIN_COUNT names of its own (`<run>-d<i>.<tld>`), so commands meet the
 * same names; each is unheld, active or expired (in grace).
 *
 * Rules predicted: a registration costs the TLD's yearly price × years (all of it a domain fee, 15%
 * of it rounded down to the registrant's referrer's payable), 409 when the name is held (also in
 * grace), 422 short of funds; a renewal (owner only) extends from the current expiry and may not
 * end past 10 years from now; a priced transfer by the owner is an offer that moves nothing, the
 * offered buyer's transfer to itself at the same price is the sale (price to the seller, whole);
 * a transfer without price is a gift; DNS (owner only, active only) replaces the (type, host) set
 * sent; at expires_at a domain expires (offer dropped), 30 days later it is released.
 * Non-goals: the 100-domain and 1,000,000-domain caps (a run holds DOMAIN_COUNT names), valuation
 * (a heuristic: the conformance suite and unit tests cover it), resolvers.
 */
import { assert } from '../../core/assert.ts';
import type { Micro } from '../../core/money.ts';
import type { CheckModel, CheckStyle } from '../check-model.ts';
import { payFeeShares } from '../model-referral.ts';
import type { ModelDomain } from './domains-state.ts';
import {
  eq,
  failure,
  list,
  money,
  object,
  text,
  time,
  type Expected,
  type Matcher,
  type Prediction,
} from '../expectation.ts';

/** The TLD of name i: the cheapest (xyz, 14.40) and the most common (com, 18.00). */
const TLDS: readonly string[] = ['xyz', 'com', 'xyz', 'com'];
/** The yearly prices of those TLDs (spec/NOTES.md price table). */
const YEARLY_PRICE_MICRO: Readonly<Record<string, Micro>> = { xyz: 14_400_000n, com: 18_000_000n };
/**
 * docs/decisions/domains.md "Domains": years 1..10, a 15% referral share. The year and the grace
 * (365 and 30 days by default) are the target's configured numbers (model.config.domains: a
 * scenario may set them, and an afp serve says them in GET /_afp/platform), not constants here.
 */
export const DOMAIN_RULES = {
  yearsMin: 1,
  yearsMax: 10,
  referralShareBps: 1500n,
} as const;

/** The name of index `index` in this run: made of the run's agent-id prefix, so runs never share one. */
export function domainName(model: Readonly<CheckModel>, index: number): string {
  const prefix = model.names
    .agentId(0)
    .toLowerCase()
    .replace(/-a0$/, '')
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return `${prefix}-d${index}.${TLDS[index % TLDS.length] as string}`;
}

export function yearlyPrice(index: number): Micro {
  return YEARLY_PRICE_MICRO[TLDS[index % TLDS.length] as string] as Micro;
}

function releaseAt(model: Readonly<CheckModel>, domain: ModelDomain): number {
  return domain.expiresAtMs + model.config.domains.graceMs;
}

function agentId(model: Readonly<CheckModel>, slot: number): string {
  return model.agents[slot]?.id ?? model.names.agentId(slot);
}

function validYears(years: number): boolean {
  return Number.isSafeInteger(years) && years >= DOMAIN_RULES.yearsMin && years <= DOMAIN_RULES.yearsMax;
}

/** A domain fee: out of the payer's balance, 15% (down) of it to the payer's referrer's payable, half and a quarter of that to the next two up. */
function chargeFee(model: CheckModel, slot: number, costMicro: Micro): void {
  const agent = model.agents[slot];
  if (agent === undefined) return;
  agent.balanceMicro -= costMicro;
  model.feeIncomeMicro += costMicro;
  payFeeShares(model, { payerSlot: slot, feeMicro: costMicro, levelOneBps: DOMAIN_RULES.referralShareBps });
}

export interface RegisterDomainInput {
  readonly style: CheckStyle;
  readonly slot: number;
  readonly index: number;
  readonly years: number;
}

export function predictRegisterDomain(model: CheckModel, input: RegisterDomainInput): Prediction {
  if (!validYears(input.years)) return failure(400, 'BAD_REQUEST');
  if (model.domains.held[input.index] !== undefined) return failure(409, 'CONFLICT');
  const agent = model.agents[input.slot];
  const costMicro = yearlyPrice(input.index) * BigInt(input.years);
  if (agent === undefined || agent.balanceMicro < costMicro) return failure(422, 'INSUFFICIENT_BALANCE');
  const name = domainName(model, input.index);
  const expiresAtMs = model.nowMs + input.years * model.config.domains.yearMs;
  const body: Record<string, Matcher> =
    input.style === 'A'
      ? { domain: eq(name), expires_at: time(expiresAtMs) }
      : { domain: eq(name), cost: money('B', costMicro), expires: time(expiresAtMs), tx_hash: text() };
  return {
    expected: { status: 201, body },
    commit: () => {
      chargeFee(model, input.slot, costMicro);
      model.domains.held[input.index] = {
        ownerSlot: input.slot,
        registeredAtMs: model.nowMs,
        expiresAtMs,
        status: 'active',
        offer: null,
        records: [],
      };
    },
  };
}

export interface RenewDomainInput {
  readonly callerSlot: number;
  readonly index: number;
  readonly years: number;
}

/** How far a renewal would end past the 10-year horizon (ms; > 0 is refused). */
export function renewalOverHorizonMs(model: Readonly<CheckModel>, input: RenewDomainInput): number | null {
  const domain = model.domains.held[input.index];
  if (domain === undefined) return null;
  return (
    domain.expiresAtMs +
    input.years * model.config.domains.yearMs -
    (model.nowMs + DOMAIN_RULES.yearsMax * model.config.domains.yearMs)
  );
}

export function predictRenewDomain(model: CheckModel, input: RenewDomainInput): Prediction {
  if (!validYears(input.years)) return failure(400, 'BAD_REQUEST');
  const domain = model.domains.held[input.index];
  if (domain === undefined) return failure(404, 'NOT_FOUND');
  if (domain.ownerSlot !== input.callerSlot) return failure(403, 'FORBIDDEN');
  if ((renewalOverHorizonMs(model, input) ?? 0) > 0) return failure(409, 'CONFLICT');
  const costMicro = yearlyPrice(input.index) * BigInt(input.years);
  const owner = model.agents[domain.ownerSlot];
  if (owner === undefined || owner.balanceMicro < costMicro) return failure(422, 'INSUFFICIENT_BALANCE');
  const expiresAtMs = domain.expiresAtMs + input.years * model.config.domains.yearMs;
  return {
    expected: {
      status: 200,
      body: {
        domain: eq(domainName(model, input.index)),
        years: eq(input.years),
        cost: money('B', costMicro),
        expires: time(expiresAtMs),
        tx_hash: text(),
      },
    },
    commit: () => {
      chargeFee(model, domain.ownerSlot, costMicro);
      domain.expiresAtMs = expiresAtMs;
      domain.status = 'active';
    },
  };
}

export interface TransferDomainInput {
  readonly callerSlot: number;
  readonly index: number;
  readonly toSlot: number;
  readonly priceMicro: Micro | null;
}

export function predictTransferDomain(model: CheckModel, input: TransferDomainInput): Prediction {
  const domain = model.domains.held[input.index];
  if (domain === undefined) return failure(404, 'NOT_FOUND');
  if (model.agents[input.toSlot] === undefined) return failure(404, 'NOT_FOUND');
  const ownerSlot = domain.ownerSlot;
  if (input.callerSlot === ownerSlot) {
    if (input.toSlot === ownerSlot) return failure(400, 'BAD_REQUEST');
    if (domain.status !== 'active') return failure(409, 'CONFLICT');
    const priceMicro = input.priceMicro;
    if (priceMicro !== null) {
      return {
        expected: transferAnswer(model, { index: input.index, status: 'offered', to: input.toSlot, priceMicro }),
        commit: () => {
          domain.offer = { buyerSlot: input.toSlot, priceMicro, offeredAtMs: model.nowMs };
        },
      };
    }
    return {
      expected: transferAnswer(model, { index: input.index, status: 'completed', to: input.toSlot, priceMicro: null }),
      commit: () => {
        domain.ownerSlot = input.toSlot;
        domain.offer = null;
      },
    };
  }
  const offer = domain.offer;
  if (input.toSlot !== input.callerSlot || offer === null || offer.buyerSlot !== input.callerSlot)
    return failure(403, 'FORBIDDEN');
  if (domain.status !== 'active') return failure(409, 'CONFLICT');
  if (input.priceMicro !== offer.priceMicro) return failure(409, 'CONFLICT');
  const buyer = model.agents[input.callerSlot];
  if (buyer === undefined || buyer.balanceMicro < offer.priceMicro) return failure(422, 'INSUFFICIENT_BALANCE');
  return {
    expected: transferAnswer(model, {
      index: input.index,
      status: 'completed',
      to: input.callerSlot,
      priceMicro: offer.priceMicro,
    }),
    commit: () => {
      buyer.balanceMicro -= offer.priceMicro;
      const seller = model.agents[ownerSlot];
      if (seller !== undefined) seller.balanceMicro += offer.priceMicro;
      domain.ownerSlot = input.callerSlot;
      domain.offer = null;
    },
  };
}

/**
 * The B transfer answer (200) of held name `index`, from its owner: an offer (a price, no sale
 * yet: the owner stays, no transaction) or a completed transfer (a gift, price null, or a sale at
 * the offered price: the recipient owns it; a transaction hash). Read before the commit moves it.
 */
function transferAnswer(
  model: Readonly<CheckModel>,
  transfer: {
    readonly index: number;
    readonly status: 'offered' | 'completed';
    readonly to: number;
    readonly priceMicro: Micro | null;
  },
): Expected {
  const domain = model.domains.held[transfer.index];
  assert(domain !== undefined, 'a transfer answer is of a held name');
  const offered = transfer.status === 'offered';
  return {
    status: 200,
    body: {
      domain: eq(domainName(model, transfer.index)),
      status: eq(transfer.status),
      from: eq(agentId(model, domain.ownerSlot)),
      to: eq(agentId(model, transfer.to)),
      price: transfer.priceMicro === null ? eq(null) : money('B', transfer.priceMicro),
      owner: eq(agentId(model, offered ? domain.ownerSlot : transfer.to)),
      tx_hash: offered ? eq(null) : text(),
    },
  };
}

function recordsMatcher(domain: ModelDomain): Matcher {
  return list(
    domain.records.map((record) =>
      object({ type: eq('A'), name: eq(record.host), value: eq(record.value), ttl: eq(3600), priority: eq(null) }),
    ),
  );
}

interface DnsInput {
  readonly callerSlot: number;
  readonly index: number;
  readonly host: '@' | 'www';
  readonly value: string;
}

export function predictSetDns(model: CheckModel, input: DnsInput): Prediction {
  const domain = model.domains.held[input.index];
  if (domain === undefined) return failure(404, 'NOT_FOUND');
  if (domain.ownerSlot !== input.callerSlot) return failure(403, 'FORBIDDEN');
  if (domain.status !== 'active') return failure(409, 'CONFLICT');
  const records = domain.records.map((record) => ({ ...record }));
  const existing = records.find((record) => record.host === input.host);
  if (existing === undefined) records.push({ host: input.host, value: input.value });
  else existing.value = input.value;
  const after: ModelDomain = { ...domain, records };
  return {
    expected: {
      status: 200,
      body: { domain: eq(domainName(model, input.index)), count: eq(records.length), records: recordsMatcher(after) },
    },
    commit: () => {
      domain.records = records;
    },
  };
}

/** GET /api/v1/dns?domain= (public). */
export function predictListDns(model: Readonly<CheckModel>, index: number): Prediction {
  const domain = model.domains.held[index];
  if (domain === undefined) return failure(404, 'NOT_FOUND');
  return {
    expected: {
      status: 200,
      body: { domain: eq(domainName(model, index)), count: eq(domain.records.length), records: recordsMatcher(domain) },
    },
  };
}

export function predictCheck(model: Readonly<CheckModel>, index: number): Prediction {
  return {
    expected: {
      status: 200,
      body: {
        domain: eq(domainName(model, index)),
        available: eq(model.domains.held[index] === undefined),
        price_usdc: money('A', yearlyPrice(index)),
      },
    },
  };
}

export function predictLookup(model: Readonly<CheckModel>, index: number): Prediction {
  const domain = model.domains.held[index];
  if (domain === undefined) return failure(404, 'NOT_FOUND');
  const offer =
    domain.offer === null
      ? eq(null)
      : object({
          to: eq(agentId(model, domain.offer.buyerSlot)),
          price: money('B', domain.offer.priceMicro),
          offered_at: time(domain.offer.offeredAtMs),
        });
  return {
    expected: {
      status: 200,
      body: {
        domain: eq(domainName(model, index)),
        status: eq(domain.status),
        owner: eq(agentId(model, domain.ownerSlot)),
        registered_at: time(domain.registeredAtMs),
        expires: time(domain.expiresAtMs),
        grace_ends: time(releaseAt(model, domain)),
        records: recordsMatcher(domain),
        offer,
      },
    },
  };
}

/** The caller's domains, by name (A: `*_at` names, B: `expires`, `grace_ends`). */
export function predictListDomains(model: Readonly<CheckModel>, style: CheckStyle, slot: number): Prediction {
  const owned = model.domains.held
    .map((domain, index) => ({ domain, name: domainName(model, index) }))
    .filter(
      (entry): entry is { domain: ModelDomain; name: string } =>
        entry.domain !== undefined && entry.domain.ownerSlot === slot,
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const items = owned.map(({ domain, name }) =>
    style === 'A'
      ? object({
          domain: eq(name),
          status: eq(domain.status),
          registered_at: time(domain.registeredAtMs),
          expires_at: time(domain.expiresAtMs),
          grace_ends_at: time(releaseAt(model, domain)),
        })
      : object({
          domain: eq(name),
          status: eq(domain.status),
          registered_at: time(domain.registeredAtMs),
          expires: time(domain.expiresAtMs),
          grace_ends: time(releaseAt(model, domain)),
        }),
  );
  return { expected: { status: 200, body: { count: eq(items.length), domains: list(items) } } };
}

/** Expiry at exactly expires_at (the offer dropped), release at exactly the end of grace. */
export function advanceDomains(model: CheckModel, toMs: number): void {
  const held = model.domains.held;
  for (let index = 0; index < held.length; index++) {
    const domain = held[index];
    if (domain === undefined) continue;
    if (domain.status === 'active' && domain.expiresAtMs <= toMs) {
      domain.status = 'expired';
      domain.offer = null;
    }
    if (domain.status === 'expired' && releaseAt(model, domain) <= toMs) held[index] = undefined;
  }
}

/** Future instants where a domain expires or is released. */
export function domainsBoundaries(model: Readonly<CheckModel>): number[] {
  const found: number[] = [];
  for (const domain of model.domains.held) {
    if (domain === undefined) continue;
    if (domain.status === 'active' && domain.expiresAtMs > model.nowMs) found.push(domain.expiresAtMs);
    if (releaseAt(model, domain) > model.nowMs) found.push(releaseAt(model, domain));
  }
  return found;
}
