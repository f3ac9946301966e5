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
import { registeredSlots, SLOT_COUNT, type CheckModel, type CheckStyle } from '../check-model.ts';
import { plainEscrowCommand, releaseCommand } from '../escrow/command-escrow.ts';
import { SCOPES, type BudgetScope, type Charge } from '../model-limits.ts';
import { expectAnswer, keyed, type CommandSpec } from '../model-command.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import {
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
import { DOMAIN_COUNT } from './domains-state.ts';

/** Slots whose balances a domains command may move (all: fees reach referrers, sales move two). */
function allSlots(): number[] {
  return Array.from({ length: SLOT_COUNT }, (_, slot) => slot);
}

/** Who acts on a name: its owner, the agent it is offered to, or another registered agent. */
export type DomainRole = 'owner' | 'buyer' | 'outsider';

function ready(model: Readonly<CheckModel>, style: CheckStyle): boolean {
  return model.capabilities.domains && (style === 'B' || model.capabilities.styleA);
}

function scopesOf(style: CheckStyle, register: boolean): readonly BudgetScope[] {
  if (style === 'A') return register ? SCOPES.domainsRegisterA : SCOPES.styleA;
  return register ? SCOPES.domainsRegisterB : SCOPES.domainsB;
}

/**
 * The name a command on held names means: the drawn index among the held names (modulo their
 * count), so that renewals, transfers and DNS meet the names that exist; DOMAIN_COUNT means a name
 * nobody holds (the 404 answers); with no name held, the drawn index itself.
 */
export function nameIndex(model: Readonly<CheckModel>, drawn: number): number {
  const held: number[] = [];
  const unheld: number[] = [];
  model.domains.held.forEach((domain, index) => (domain === undefined ? unheld : held).push(index));
  if (drawn >= DOMAIN_COUNT) return unheld[0] ?? 0;
  return held.length === 0 ? drawn : (held[drawn % held.length] as number);
}

/** The acting slot for `role` on name `index`; a0 for a name nobody holds. */
export function roleSlot(model: Readonly<CheckModel>, index: number, role: DomainRole): number | undefined {
  const domain = model.domains.held[index];
  if (domain === undefined) return model.agents[0] === undefined ? undefined : 0;
  const owner = domain.ownerSlot;
  const buyer = domain.offer?.buyerSlot ?? (owner + 1) % SLOT_COUNT;
  const slot =
    role === 'owner'
      ? owner
      : role === 'buyer'
        ? buyer
        : registeredSlots(model).find((candidate) => candidate !== owner && candidate !== buyer);
  return slot !== undefined && model.agents[slot] !== undefined ? slot : undefined;
}

/** The name a command on held names means, and the slot acting on it in `caller`'s role (undefined: nobody). */
function actingOn(
  model: Readonly<CheckModel>,
  input: { readonly index: number; readonly caller: DomainRole },
): { index: number; slot: number | undefined } {
  const index = nameIndex(model, input.index);
  return { index, slot: roleSlot(model, index, input.caller) };
}

/** The acting slot when the command runs (its precondition made sure there is one). */
function actorOf(
  model: Readonly<CheckModel>,
  input: { readonly index: number; readonly caller: DomainRole },
  label: string,
): { index: number; slot: number } {
  const { index, slot } = actingOn(model, input);
  if (slot === undefined) throw new Error(`${label}: precondition broken, no caller`);
  return { index, slot };
}

/** The registered agent holding the most (the lowest slot on a tie), or undefined when none is registered. */
function richestSlot(model: Readonly<CheckModel>): number | undefined {
  let best: number | undefined;
  for (const slot of registeredSlots(model))
    if (best === undefined || (model.agents[slot]?.balanceMicro ?? 0n) > (model.agents[best]?.balanceMicro ?? 0n))
      best = slot;
  return best;
}

export interface RegisterDomainCommandInput {
  readonly style: CheckStyle;
  /** A slot, or the richest agent at the time (registrations cost more than the 10.00 grant). */
  readonly slot: number | 'richest';
  readonly index: number;
  readonly years: number;
}

export function registerDomainCommand(input: RegisterDomainCommandInput): CommandSpec {
  const slotOf = (model: Readonly<CheckModel>): number | undefined =>
    input.slot === 'richest' ? richestSlot(model) : input.slot;
  const label = `registerDomain${input.style}(${input.slot === 'richest' ? 'richest' : `a${input.slot}`}, d${input.index}, ${input.years} y)`;
  return {
    label,
    applicable: (model) => {
      const slot = slotOf(model);
      return ready(model, input.style) && slot !== undefined && model.agents[slot] !== undefined;
    },
    charges: (model) => [{ slot: slotOf(model) ?? 0, scopes: scopesOf(input.style, true) }],
    parties: allSlots,
    execute: async (model, system) => {
      const slot = slotOf(model);
      if (slot === undefined) throw new Error(`${label}: precondition broken, no agent`);
      const prediction = predictRegisterDomain(model, { ...input, slot });
      const client = keyed(model, system, slot).domains;
      const domain = domainName(model, input.index);
      const answer =
        input.style === 'A'
          ? await client.registerA({ domain, years: input.years })
          : await client.registerB({ domain, years: input.years });
      expectAnswer(input.slot === 'richest' ? `${label} (a${slot})` : label, model, answer, prediction);
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
      const { index, slot } = actingOn(model, input);
      if (!ready(model, 'B') || slot === undefined) return false;
      // On a wall-clock target the horizon is known within the tolerance only: skip renewals near it.
      const over = renewalOverHorizonMs(model, { callerSlot: slot, index, years: input.years });
      return model.capabilities.exactTime || over === null || Math.abs(over) > model.timeToleranceMs;
    },
    charges: (model) => [{ slot: actingOn(model, input).slot ?? 0, scopes: SCOPES.domainsB }],
    parties: allSlots,
    execute: async (model, system) => {
      const { index, slot } = actorOf(model, input, label);
      const prediction = predictRenewDomain(model, { callerSlot: slot, index, years: input.years });
      expectAnswer(
        `${label} (d${index})`,
        model,
        await keyed(model, system, slot).domains.renew({ domain: domainName(model, index), years: input.years }),
        prediction,
      );
    },
  };
}

export interface TransferDomainCommandInput {
  readonly caller: DomainRole;
  readonly index: number;
  /** The recipient: the caller's slot plus this offset (0: the caller itself). */
  readonly toOffset: number;
  readonly price: PriceKind;
}

/**
 * The price sent, chosen against the model at execution: none (a gift, or an acceptance without
 * price), the current offer's (an acceptance), a small one, another one (a wrong acceptance), or
 * one more than the buyer holds (a sale that must not happen unpaid).
 */
export type PriceKind = 'none' | 'offered' | 'small' | 'other' | 'over-balance';

function priceOf(model: Readonly<CheckModel>, kind: PriceKind, index: number, buyerSlot: number): bigint | null {
  switch (kind) {
    case 'none':
      return null;
    case 'offered':
      return model.domains.held[index]?.offer?.priceMicro ?? 500_000n;
    case 'small':
      return 500_000n;
    case 'other':
      return 250_000n;
    case 'over-balance':
      return (model.agents[buyerSlot]?.balanceMicro ?? 0n) + 1_000_000n;
  }
}

export function transferDomainCommand(input: TransferDomainCommandInput): CommandSpec {
  const label = `transferDomainB(${input.caller}, d${input.index}, to +${input.toOffset}${input.price === 'none' ? '' : `, price ${input.price}`})`;
  return {
    label,
    applicable: (model) => ready(model, 'B') && actingOn(model, input).slot !== undefined,
    charges: (model) => [{ slot: actingOn(model, input).slot ?? 0, scopes: SCOPES.domainsB }],
    parties: allSlots,
    execute: async (model, system) => {
      const { index, slot } = actorOf(model, input, label);
      const toSlot = (slot + input.toOffset) % SLOT_COUNT;
      const priceMicro = priceOf(model, input.price, index, toSlot);
      const prediction = predictTransferDomain(model, { callerSlot: slot, index, toSlot, priceMicro });
      const to = model.agents[toSlot]?.id ?? model.names.agentId(toSlot);
      const body = {
        domain: domainName(model, index),
        to,
        ...(priceMicro === null ? {} : { price: formatDecimal(priceMicro) }),
      };
      const shown = priceMicro === null ? '' : `, price ${formatDecimal(priceMicro)}`;
      expectAnswer(
        `${label} (d${index}, a${slot} → a${toSlot}${shown})`,
        model,
        await keyed(model, system, slot).domains.transfer(body),
        prediction,
      );
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
    applicable: (model) => ready(model, 'A') && actingOn(model, input).slot !== undefined,
    charges: (model) => [{ slot: actingOn(model, input).slot ?? 0, scopes: SCOPES.styleA }],
    parties: (model) => [actingOn(model, input).slot ?? 0],
    execute: async (model, system) => {
      const { index, slot } = actorOf(model, input, label);
      const prediction = predictSetDns(model, { callerSlot: slot, index, host: input.host, value: input.value });
      const answer = await keyed(model, system, slot).domains.setDns({
        domain: domainName(model, index),
        records: [{ type: 'A', name: input.host, value: input.value }],
      });
      expectAnswer(`${label} (d${index})`, model, answer, prediction);
    },
  };
}

export type DomainView = 'check' | 'dns' | 'lookup' | 'listA' | 'listB';

/** The read-only rows: check and DNS list (A), lookup (B), the caller's lists (A, B). */
export function domainViewCommand(view: DomainView, slot: number, index: number): CommandSpec {
  const style: CheckStyle = view === 'lookup' || view === 'listB' ? 'B' : 'A';
  const label =
    view === 'listA' || view === 'listB' ? `domains${style}(a${slot})` : `${view}Domain${style}(a${slot}, d${index})`;
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

/** What one donor sends: most of the 10.00 grant, so two donors lift a buyer above a .com year. */
const GIFT_MICRO = 9_900_000n;

function donors(model: Readonly<CheckModel>, receiverSlot: number): number[] {
  return registeredSlots(model)
    .filter((slot) => slot !== receiverSlot && (model.agents[slot]?.balanceMicro ?? 0n) >= GIFT_MICRO)
    .slice(0, 2);
}

/**
 * Funding a buyer (agents start with 10.00 and every sold TLD costs more): up to two other agents
 * each send 9.90 by a style-B escrow and release it at once, through the escrow commands
 * themselves (so the model predicts and checks every step, fee included).
 */
export function fundBuyerCommand(receiverSlot: number): CommandSpec {
  const gift = (donor: number): CommandSpec => plainEscrowCommand(donor, receiverSlot, GIFT_MICRO);
  const release = (index: number): CommandSpec => releaseCommand({ style: 'B', caller: 'sender', escrow: { index } });
  const steps = (model: Readonly<CheckModel>): CommandSpec[] =>
    donors(model, receiverSlot).flatMap((donor, offset) => [gift(donor), release(model.escrows.length + offset)]);
  const label = `fundBuyer(a${receiverSlot}: escrows of 9.90 released by up to two agents)`;
  return {
    label,
    applicable: (model) => model.agents[receiverSlot] !== undefined && donors(model, receiverSlot).length > 0,
    charges: (model) => steps(model).flatMap((step): Charge[] => step.charges(model)),
    parties: allSlots,
    execute: async (model, system) => {
      try {
        for (const donor of donors(model, receiverSlot)) {
          const created = model.escrows.length;
          await gift(donor).execute(model, system);
          // The creation met one of the target's fault windows and changed nothing: no escrow to release.
          if (model.escrows.length === created) return;
          await release(created).execute(model, system);
        }
      } catch (error) {
        // The printed sequence names this command: its mismatch message starts with its own label.
        if (error instanceof CheckMismatch) throw new CheckMismatch(`${label}: ${error.message}`);
        throw error;
      }
    },
  };
}

/** a0 and a1 act most (registered first, and the ones deposits fund). */
const slot = fc.constantFrom(0, 0, 0, 1, 1, 2, 3);
const index = fc.integer({ min: 0, max: DOMAIN_COUNT - 1 });
/** For commands on held names (nameIndex): an index among them, or DOMAIN_COUNT for a name nobody holds. */
const heldIndex = fc.constantFrom(
  ...Array.from({ length: DOMAIN_COUNT }, (_, drawn) => drawn),
  ...Array.from({ length: DOMAIN_COUNT }, (_, drawn) => drawn),
  DOMAIN_COUNT,
);
const role = (main: DomainRole): fc.Arbitrary<DomainRole> =>
  fc.constantFrom<DomainRole>(main, main, main, 'owner', 'buyer', 'outsider');
/** The owner gives or offers (at a small price, or more than the buyer holds); the buyer mostly accepts at the offered price. */
const ownerPrice = fc.constantFrom<PriceKind>('none', 'small', 'small', 'over-balance', 'over-balance', 'other');
const buyerPrice = fc.constantFrom<PriceKind>('offered', 'offered', 'offered', 'none', 'other');

/** The domains rows of the command table (command-table.ts adds them to its own). */
export const DOMAINS_SPECS: readonly { weight: number; arbitrary: fc.Arbitrary<CommandSpec> }[] = [
  { weight: 2, arbitrary: slot.map(fundBuyerCommand) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        style: fc.constantFrom<CheckStyle>('A', 'B'),
        slot: fc.oneof({ weight: 2, arbitrary: fc.constant('richest' as const) }, { weight: 1, arbitrary: slot }),
        index,
        years: fc.constantFrom(1, 1, 1, 2, DOMAIN_RULES.yearsMax + 1),
      })
      .map(registerDomainCommand),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ caller: role('owner'), index: heldIndex, years: fc.constantFrom(1, 1, 9, DOMAIN_RULES.yearsMax) })
      .map(renewDomainCommand),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        caller: fc.constantFrom<DomainRole>('owner', 'owner', 'buyer', 'buyer', 'outsider'),
        index: heldIndex,
        toOffset: fc.constantFrom(1, 1, 2, 3, 0),
        owner: ownerPrice,
        buyer: buyerPrice,
      })
      .map(({ caller, index: name, toOffset, owner, buyer }) =>
        transferDomainCommand(
          caller === 'owner'
            ? { caller, index: name, toOffset, price: owner }
            : { caller, index: name, toOffset: caller === 'buyer' && toOffset === 1 ? 0 : toOffset, price: buyer },
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        caller: role('owner'),
        index: heldIndex,
        host: fc.constantFrom<'@' | 'www'>('@', 'www'),
        value: fc.constantFrom('192.0.2.1', '192.0.2.2'),
      })
      .map(setDnsCommand),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom<DomainView>('check', 'dns', 'lookup', 'lookup', 'listA', 'listB'), slot, index)
      .map(([view, actor, name]) => domainViewCommand(view, actor, name)),
  },
];
