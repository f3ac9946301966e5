/**
 * Invariant `domains-fees`: domain money goes where the rules say. A registration or renewal moves
 * exactly its cost (yearly price × years) from the agent to fee-income in one transfer, and the
 * referrer's share is exactly 15% of it (rounded down) when the agent has a referrer; a completed
 * sale moves exactly the offered price from the buyer to the seller, and a gift moves nothing.
 * (The ledger's platform-wide sum is the `conservation` invariant's.)
 */
import { FEE_INCOME, agentAccount } from '../../../core/ledger.ts';
import { basisPoints } from '../../../core/money.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';
import { isDomainsEvent, type DomainsEvent } from '../../../services/domains/domains-events.ts';

/** Domain money moved since the last domains event: [reason, from, to, amount, reference]. */
interface Moved {
  readonly reason: string;
  readonly from: string;
  readonly to: string;
  readonly amountMicro: bigint;
  readonly reference: string;
}

/** A registration or renewal's fee: one transfer of its cost from the owner to fee-income, and the referral's share; what is wrong, or null. */
function feeBroken(
  event: Extract<DomainsEvent, { type: 'domains.registered' | 'domains.renewed' }>,
  pending: readonly Moved[],
  shareBps: bigint,
): string | null {
  const reason = event.type === 'domains.registered' ? 'domains.register' : 'domains.renew';
  const moved = pending.filter((entry) => entry.reference === event.domainId);
  const fee = moved[0];
  if (
    moved.length !== 1 ||
    fee === undefined ||
    fee.reason !== reason ||
    fee.from !== agentAccount(event.ownerId) ||
    fee.to !== FEE_INCOME ||
    fee.amountMicro !== event.costMicro
  )
    return `${event.type} of ${event.domain} should move ${event.costMicro} micro-USDC from ${event.ownerId} to fee-income in one transfer; moved ${jsonText(moved.map((entry) => ({ ...entry, amountMicro: String(entry.amountMicro) })))}`;
  if (event.referrerId !== null && event.referralMicro !== basisPoints(event.costMicro, shareBps, 'down'))
    return `${event.type} of ${event.domain}: referral ${event.referralMicro} is not ${shareBps} bps of ${event.costMicro}`;
  if (event.referrerId === null && event.referralMicro !== 0n)
    return `${event.type} of ${event.domain}: a referral share without a referrer`;
  return null;
}

/** A transfer: a gift moves no money, a sale its price from the buyer to the seller in one transfer; what is wrong, or null. */
function saleBroken(
  event: Extract<DomainsEvent, { type: 'domains.transferred' }>,
  pending: readonly Moved[],
): string | null {
  const moved = pending.filter((entry) => entry.reference === event.domainId);
  if (event.priceMicro === null) return moved.length !== 0 ? `the gift of ${event.domain} moved money` : null;
  const sale = moved[0];
  if (
    moved.length !== 1 ||
    sale === undefined ||
    sale.reason !== 'domains.sale' ||
    sale.from !== agentAccount(event.toId) ||
    sale.to !== agentAccount(event.fromId) ||
    sale.amountMicro !== event.priceMicro
  )
    return `the sale of ${event.domain} should move ${event.priceMicro} micro-USDC from ${event.toId} to ${event.fromId}`;
  return null;
}

export const domainsFees: InvariantDefinition = {
  name: 'domains-fees',
  description: 'domain fees go to fee-income (15% on to the referrer), sales move the price buyer to seller',
  create({ platform }) {
    const shareBps = platform.config.domains.referralShareBps;
    /** Domain money moved since the last domains event, by reference: [reason, from, to, amount]. */
    let pending: Moved[] = [];
    return {
      onTransfer(transfer) {
        if (transfer.reason.startsWith('domains.'))
          pending.push({
            reason: transfer.reason,
            from: transfer.from,
            to: transfer.to,
            amountMicro: transfer.amountMicro,
            reference: transfer.reference,
          });
        return null;
      },
      onEvent(event) {
        if (!isDomainsEvent(event)) return null;
        let broken: string | null = null;
        switch (event.type) {
          case 'domains.registered':
          case 'domains.renewed':
            broken = feeBroken(event, pending, shareBps);
            break;
          case 'domains.transferred':
            broken = saleBroken(event, pending);
            break;
          case 'domains.offered':
          case 'domains.expired':
          case 'domains.released':
            if (pending.some((entry) => entry.reference === event.domainId))
              broken = `${event.type} of ${event.domain} moved money`;
            break;
        }
        pending = [];
        const violation: Violation | null = broken === null ? null : eventViolation(event, broken);
        return violation;
      },
    };
  },
};
