/**
 * Domains commands of `afp check` and their rows of the command table: register (A and B, years
 * 1, 2 and the refused 11), renew (B, by the owner or another agent, up to past the 10-year
 * horizon), transfer (B: gifts, offers, the buyer's acceptance at the offered or another price,
 * to oneself, to an unregistered agent), DNS set and list (A), check (A), lookup (B) and the
 * caller's lists (A, B). Names are named by index (model-domains.ts), callers by role (the owner,
 * the offered buyer, an outsider), so most commands meet the rule they test. Time (expiry at
 * expires_at, release after the grace) is moved by the shared advance-time row, which lands on
 * the domains' instants too.
 */
import fc from 'fast-check';
import { formatDecimal } from '../../core/money.ts';
import { registeredSlots, SLOT_COUNT, type CheckModel, type Style } from '../check-model.ts';
import { SCOPES, type BudgetScope } from '../model-limits.ts';
import { expectAnswer, keyed, type CommandSpec } from '../model-command.ts';
import {
  DOMAIN_COUNT,
  DOMAIN_RULES,
  domainName,
  predictCheck,
  predictListDns,
  predictListDomains,
  predictLookup,
  predictRegisterDomain,
  predictRenewDomain,
  predictSetDns,
  predictTransferDomain,
  renewalOverHorizonMs,
} from './model-domains.ts';

/** Slots whose balances a domains command may move (all: fees reach referrers, sales move two). */
function allSlots(): number[] {
  return Array.from({ length: SLOT_COUNT }, (_, slot) => slot);
}

/** Who acts on a name: its owner, the agent it is offered to, or another registered agent. */
export type DomainRole = 'owner' | 'buyer' | 'outsider';

function ready(model: Readonly<CheckModel>, style: Style): boolean {
  return model.capabilities.domains && (style === 'B' || model.capabilities.styleA);
}

function scopesOf(style: Style, register: boolean): readonly BudgetScope[] {
  if (style === 'A') return register ? SCOPES.domainsRegisterA : SCOPES.styleA;
  return register ? SCOPES.domainsRegisterB : SCOPES.domainsB;
}

/** The acting slot for `role` on name `index`; a0 for a name nobody holds. */
export function roleSlot(model: Readonly<CheckModel>, index: number, role: DomainRole): number | undefined {
  const domain = model.domains.held[index];
  if (domain === undefined) return model.agents[0] === undefined ? undefined : 0;
  const owner = domain.ownerSlot;
  const buyer = domain.offer?.buyerSlot ?? (owner + 1) % SLOT_COUNT;
  const slot = role === 'owner' ? owner : role === 'buyer' ? buyer : registeredSlots(model).find((candidate) => candidate !== owner && candidate !== buyer);
  return slot !== undefined && model.agents[slot] !== undefined ? slot : undefined;
}

export interface RegisterDomainCommandInput {
  readonly style: Style;
  readonly slot: number;
  readonly index: number;
  readonly years: number;
}

export function registerDomainCommand(input: RegisterDomainCommandInput): CommandSpec {
  const label = `registerDomain${input.style}(a${input.slot}, d${input.index}, ${input.years} y)`;
  return {
    label,
    applicable: (model) => ready(model, input.style) && model.agents[input.slot] !== undefined,
    charges: () => [{ slot: input.slot, scopes: scopesOf(input.style, true) }],
    parties: allSlots,
    execute: async (model, system) => {
      const prediction = predictRegisterDomain(model, input);
      const client = keyed(model, system, input.slot).domains;
      const domain = domainName(model, input.index);
      const answer = input.style === 'A' ? await client.registerA({ domain, years: input.years }) : await client.registerB({ domain, years: input.years });
      expectAnswer(label, model, answer, prediction);
    },
  };
}

export interface RenewDomainCommandInput {
  readonly caller: DomainRole;
  readonly index: number;
  readonly years: number;
}

export function renewDomainCommand(input: RenewDomainCommandInput): CommandSpec {
  const label = `renewDomainB(${input.caller}, d${input.index}, ${input.years} y)`;
  return {
    label,
    applicable: (model) => {
      const slot = roleSlot(model, input.index, input.caller);
      if (!ready(model, 'B') || slot === undefined) return false;
      // On a wall-clock target the horizon is known within the tolerance only: skip renewals near it.
      const over = renewalOverHorizonMs(model, { callerSlot: slot, index: input.index, years: input.years });
      return model.capabilities.exactTime || over === null || Math.abs(over) > model.timeToleranceMs;
    },
    charges: (model) => [{ slot: roleSlot(model, input.index, input.caller) ?? 0, scopes: SCOPES.domainsB }],
    parties: allSlots,
    execute: async (model, system) => {
      const slot = roleSlot(model, input.index, input.caller);
      if (slot === undefined) throw new Error(`${label}: precondition broken, no caller`);
      const prediction = predictRenewDomain(model, { callerSlot: slot, index: input.index, years: input.years });
      expectAnswer(label, model, await keyed(model, system, slot).domains.renew({ domain: domainName(model, input.index), years: input.years }), prediction);
    },
  };
}

export interface TransferDomainCommandInput {
  readonly caller: DomainRole;
  readonly index: number;
  /** The recipient: the caller's slot plus this offset (0: the caller itself). */
  readonly toOffset: number;
  /** null: a gift (or an acceptance without price). */
  readonly priceMicro: bigint | null;
}

export function transferDomainCommand(input: TransferDomainCommandInput): CommandSpec {
  const label = `transferDomainB(${input.caller}, d${input.index}, to +${input.toOffset}${input.priceMicro === null ? '' : `, price ${formatDecimal(input.priceMicro)}`})`;
  return {
    label,
    applicable: (model) => ready(model, 'B') && roleSlot(model, input.index, input.caller) !== undefined,
    charges: (model) => [{ slot: roleSlot(model, input.index, input.caller) ?? 0, scopes: SCOPES.domainsB }],
    parties: allSlots,
    execute: async (model, system) => {
      const slot = roleSlot(model, input.index, input.caller);
      if (slot === undefined) throw new Error(`${label}: precondition broken, no caller`);
      const toSlot = (slot + input.toOffset) % SLOT_COUNT;
      const prediction = predictTransferDomain(model, { callerSlot: slot, index: input.index, toSlot, priceMicro: input.priceMicro });
      const to = model.agents[toSlot]?.id ?? model.names.agentId(toSlot);
      const body = { domain: domainName(model, input.index), to, ...(input.priceMicro === null ? {} : { price: formatDecimal(input.priceMicro) }) };
      expectAnswer(`${label} (a${slot} → a${toSlot})`, model, await keyed(model, system, slot).domains.transfer(body), prediction);
    },
  };
}

export interface DnsCommandInput {
  readonly caller: DomainRole;
  readonly index: number;
  readonly host: '@' | 'www';
  readonly value: string;
}

export function setDnsCommand(input: DnsCommandInput): CommandSpec {
  const label = `setDnsA(${input.caller}, d${input.index}, A ${input.host} ${input.value})`;
  return {
    label,
    applicable: (model) => ready(model, 'A') && roleSlot(model, input.index, input.caller) !== undefined,
    charges: (model) => [{ slot: roleSlot(model, input.index, input.caller) ?? 0, scopes: SCOPES.styleA }],
    parties: (model) => [roleSlot(model, input.index, input.caller) ?? 0],
    execute: async (model, system) => {
      const slot = roleSlot(model, input.index, input.caller);
      if (slot === undefined) throw new Error(`${label}: precondition broken, no caller`);
      const prediction = predictSetDns(model, { callerSlot: slot, index: input.index, host: input.host, value: input.value });
      const answer = await keyed(model, system, slot).domains.setDns({ domain: domainName(model, input.index), records: [{ type: 'A', name: input.host, value: input.value }] });
      expectAnswer(label, model, answer, prediction);
    },
  };
}

export type DomainView = 'check' | 'dns' | 'lookup' | 'listA' | 'listB';

/** The read-only rows: check and DNS list (A), lookup (B), the caller's lists (A, B). */
export function domainViewCommand(view: DomainView, slot: number, index: number): CommandSpec {
  const style: Style = view === 'lookup' || view === 'listB' ? 'B' : 'A';
  const label = view === 'listA' || view === 'listB' ? `domains${style}(a${slot})` : `${view}Domain${style}(a${slot}, d${index})`;
  return {
    label,
    applicable: (model) => ready(model, style) && model.agents[slot] !== undefined,
    charges: () => [{ slot, scopes: style === 'A' ? SCOPES.styleA : SCOPES.domainsB }],
    parties: () => [slot],
    execute: async (model, system) => {
      const client = keyed(model, system, slot).domains;
      const name = domainName(model, index);
      switch (view) {
        case 'check':
          return expectAnswer(label, model, await client.check(name), predictCheck(model, index));
        case 'dns':
          return expectAnswer(label, model, await client.dns(name), predictListDns(model, index));
        case 'lookup':
          return expectAnswer(label, model, await client.lookup(name), predictLookup(model, index));
        case 'listA':
          return expectAnswer(label, model, await client.domainsA(), predictListDomains(model, 'A', slot));
        case 'listB':
          return expectAnswer(label, model, await client.domainsB(), predictListDomains(model, 'B', slot));
      }
    },
  };
}

/** a0 and a1 act most (registered first, and the ones deposits fund). */
const slot = fc.constantFrom(0, 0, 0, 1, 1, 2, 3);
const index = fc.integer({ min: 0, max: DOMAIN_COUNT - 1 });
const role = (main: DomainRole): fc.Arbitrary<DomainRole> => fc.constantFrom<DomainRole>(main, main, main, 'owner', 'buyer', 'outsider');
/** Prices: the usual offer, another one (a wrong acceptance), more than a balance can hold. */
const price = fc.constantFrom<bigint | null>(null, null, 500_000n, 500_000n, 250_000n, 25_000_000n);

/** The domains rows of the command table (command-table.ts adds them to its own). */
export const DOMAINS_SPECS: readonly { weight: number; arbitrary: fc.Arbitrary<CommandSpec> }[] = [
  { weight: 4, arbitrary: fc.record({ style: fc.constantFrom<Style>('A', 'B'), slot, index, years: fc.constantFrom(1, 1, 1, 2, DOMAIN_RULES.yearsMax + 1) }).map(registerDomainCommand) },
  { weight: 2, arbitrary: fc.record({ caller: role('owner'), index, years: fc.constantFrom(1, 1, 9, DOMAIN_RULES.yearsMax) }).map(renewDomainCommand) },
  {
    weight: 3,
    arbitrary: fc
      .record({ caller: fc.constantFrom<DomainRole>('owner', 'owner', 'buyer', 'buyer', 'outsider'), index, toOffset: fc.constantFrom(1, 1, 2, 3, 0), priceMicro: price })
      .map((drawn) => transferDomainCommand(drawn.caller === 'buyer' ? { ...drawn, toOffset: drawn.toOffset === 1 ? 0 : drawn.toOffset } : drawn)),
  },
  { weight: 1, arbitrary: fc.record({ caller: role('owner'), index, host: fc.constantFrom<'@' | 'www'>('@', 'www'), value: fc.constantFrom('192.0.2.1', '192.0.2.2') }).map(setDnsCommand) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom<DomainView>('check', 'dns', 'lookup', 'lookup', 'listA', 'listB'), slot, index).map(([view, actor, name]) => domainViewCommand(view, actor, name)) },
];
