/**
 * The reference model's escrow views: one escrow in detail (parties only: 404 unknown, 403
 * otherwise) and the caller's list (filtered by role and status, newest first — created_at
 * descending, then escrow_id ascending — at most `limit`, default 20; `count` is the number listed).
 * detail-B: {escrow_id, status, sender, receiver, amount, fee, net, description, conditions,
 * referrer, created_at, expires_at, settled_at, tx_hash, dispute}; detail-A names the parties
 * buyer/seller, the description memo, adds currency "USDC" and renders money as numbers.
 */
import { requireAgent, type CheckModel, type ModelEscrow, type CheckStyle } from '../check-model.ts';
import { eq, json, list, money, object, text, time, type Matcher, type Prediction } from '../expectation.ts';
import { access, type EscrowActionInput } from './model-escrow.ts';
import type { EscrowRole, EscrowStatus } from '../../services/escrow/escrow-record.ts';

export function predictGet(model: Readonly<CheckModel>, input: EscrowActionInput): Prediction {
  const found = access(model, input, 'party');
  if ('expected' in found) return found;
  return { expected: { status: 200, body: escrowDetail(model, found, input.style) } };
}

export interface EscrowListInput {
  readonly style: CheckStyle;
  readonly callerSlot: number;
  /** null: the parameter is not sent (all roles). */
  readonly role: EscrowRole | null;
  readonly status: EscrowStatus | null;
  readonly limit: number | null;
}

export function predictList(model: Readonly<CheckModel>, input: EscrowListInput): Prediction {
  const role = input.role ?? 'all';
  const slot = input.callerSlot;
  const matching = model.escrows.filter((escrow) => {
    const asSender = escrow.senderSlot === slot && role !== 'receiver';
    const asReceiver = escrow.receiverSlot === slot && role !== 'sender';
    return (asSender || asReceiver) && (input.status === null || escrow.status === input.status);
  });
  // A wall-clock target's creation instants are known within a tolerance only: compared by id there.
  matching.sort(model.capabilities.exactTime ? newestFirst : byId);
  const listed = matching.slice(0, input.limit ?? model.config.escrow.listLimitDefault);
  return {
    expected: {
      status: 200,
      body: {
        escrows: list(listed.map((escrow) => object(escrowDetail(model, escrow, input.style)))),
        count: eq(listed.length),
      },
    },
  };
}

function byId(a: ModelEscrow, b: ModelEscrow): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function newestFirst(a: ModelEscrow, b: ModelEscrow): number {
  if (a.createdAtMs !== b.createdAtMs) return b.createdAtMs - a.createdAtMs;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function escrowDetail(
  model: Readonly<CheckModel>,
  escrow: ModelEscrow,
  style: CheckStyle,
): Record<string, Matcher> {
  const senderId = requireAgent(model, escrow.senderSlot).id;
  const receiverId = requireAgent(model, escrow.receiverSlot).id;
  const referrerId = escrow.referrerSlot === null ? null : requireAgent(model, escrow.referrerSlot).id;
  const parties: Record<string, Matcher> =
    style === 'A'
      ? { buyer: eq(senderId), seller: eq(receiverId), memo: eq(escrow.description), currency: eq('USDC') }
      : { sender: eq(senderId), receiver: eq(receiverId), description: eq(escrow.description) };
  return {
    escrow_id: eq(escrow.id),
    status: eq(escrow.status),
    ...parties,
    amount: money(style, escrow.amountMicro),
    fee: money(style, escrow.feeMicro),
    net: money(style, escrow.netMicro),
    conditions: json(escrow.conditions),
    referrer: eq(referrerId),
    created_at: time(escrow.createdAtMs),
    expires_at: time(escrow.expiresAtMs),
    settled_at: time(escrow.settledAtMs),
    tx_hash: escrow.txHash === null ? eq(null) : escrow.txHash === 'unknown' ? text() : eq(escrow.txHash),
    dispute: disputeDetail(model, escrow),
  };
}

function disputeDetail(model: Readonly<CheckModel>, escrow: ModelEscrow): Matcher {
  const dispute = escrow.dispute;
  if (dispute === null) return eq(null);
  return object({
    reason: eq(dispute.reason),
    evidence: eq(dispute.evidence),
    opened_by: eq(requireAgent(model, dispute.openedBySlot).id),
    opened_at: time(dispute.openedAtMs),
    window_ends_at: time(dispute.windowEndsAtMs),
    outcome: eq(dispute.outcome),
  });
}
