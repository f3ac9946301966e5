/**
 * The reference model's escrow operations: create, release, refund (B), dispute. Each `predict*`
 * reads the model only; the returned `commit` applies an accepted answer.
 *
 * Rules, from the contract: amount ≥ the minimum; the full amount leaves the sender's balance at
 * creation (422 when short); the receiver is another registered agent (404 unknown, 400 self);
 * fee = 1% rounded up to the micro, net = amount − fee, fixed at creation; the referrer is the
 * explicit one (404 unknown, 400 a party) else the sender's registration referrer unless a party.
 * Release: sender only, from locked or disputed; refund: sender only, from locked; dispute: either
 * party, from locked, window 48 h. Precedence: 400 input, 403 A's buyer ≠ caller, 404 unknown,
 * 403 not allowed, 409 wrong state, 422 funds.
 */
import {
  requireAgent,
  resolveEscrow,
  type AgentRef,
  type CheckModel,
  type EscrowRef,
  type ModelAgent,
  type ModelEscrow,
  type CheckStyle,
} from '../check-model.ts';
import { eq, failure, money, text, time, type Matcher, type Prediction } from '../expectation.ts';
import { credit, payRelease } from '../model-time.ts';

export interface CreateEscrowInput {
  readonly style: CheckStyle;
  readonly senderSlot: number;
  readonly receiver: AgentRef;
  readonly amountMicro: bigint;
  /** Style B: seconds, null = the default. Style A always uses the default. */
  readonly expiresInSeconds: number | null;
  /** Style B: the explicit referrer, or null. */
  readonly referrer: AgentRef | null;
  readonly description: string | null;
  /** Style B: release conditions, stored and shown as sent. */
  readonly conditions: Readonly<Record<string, unknown>> | null;
  /** Style A: the buyer named in the body; null = the caller's own id. */
  readonly buyer: AgentRef | null;
}

/** 1% (feeBps) of the amount, rounded up to the micro: the house never pays a fraction. */
export function escrowFeeMicro(amountMicro: bigint, feeBps: bigint): bigint {
  return (amountMicro * feeBps + 9_999n) / 10_000n;
}

export function predictCreate(model: Readonly<CheckModel>, input: CreateEscrowInput): Prediction {
  const sender = requireAgent(model, input.senderSlot);
  const config = model.config.escrow;
  if (input.style === 'A' && input.buyer !== null && input.buyer.slot !== sender.slot) return failure(403, 'FORBIDDEN');
  if (input.amountMicro < config.minimumMicro) return failure(400, 'BAD_REQUEST');
  const receiver = model.agents[input.receiver.slot];
  if (receiver === undefined) return failure(404, 'NOT_FOUND');
  if (receiver.slot === sender.slot) return failure(400, 'BAD_REQUEST');
  const referrerSlot = createReferrer(model, input, sender, receiver);
  if (typeof referrerSlot === 'object' && referrerSlot !== null) return referrerSlot;
  if (sender.balanceMicro < input.amountMicro) return failure(422, 'INSUFFICIENT_BALANCE');
  const feeMicro = escrowFeeMicro(input.amountMicro, config.feeBps);
  const netMicro = input.amountMicro - feeMicro;
  const nowMs = model.nowMs;
  const expiresAtMs = nowMs + (input.expiresInSeconds ?? config.defaultExpiresInSeconds) * 1000;
  const style = input.style;
  const body: Record<string, Matcher> = {
    escrow_id: text(),
    status: eq('locked'),
    amount: money(style, input.amountMicro),
    fee: money(style, feeMicro),
    net: money(style, netMicro),
    expires_at: time(expiresAtMs),
  };
  if (style === 'B') body['receiver'] = eq(receiver.id);
  return {
    expected: { status: 201, body },
    commit: (answer) => {
      sender.balanceMicro -= input.amountMicro;
      (model as CheckModel).escrows.push({
        id: String(answer['escrow_id']),
        senderSlot: sender.slot,
        receiverSlot: receiver.slot,
        amountMicro: input.amountMicro,
        feeMicro,
        netMicro,
        description: input.description,
        conditions: input.conditions,
        referrerSlot,
        createdAtMs: nowMs,
        expiresAtMs,
        status: 'locked',
        settledAtMs: null,
        txHash: null,
        dispute: null,
      });
    },
  };
}

/** The escrow's referrer slot, or the failure an explicit referrer causes. */
function createReferrer(
  model: Readonly<CheckModel>,
  input: CreateEscrowInput,
  sender: ModelAgent,
  receiver: ModelAgent,
): number | null | Prediction {
  if (input.referrer !== null) {
    const referrer = model.agents[input.referrer.slot];
    if (referrer === undefined) return failure(404, 'NOT_FOUND');
    if (referrer.slot === sender.slot || referrer.slot === receiver.slot) return failure(400, 'BAD_REQUEST');
    return referrer.slot;
  }
  const registeredReferrer = sender.referrerSlot;
  return registeredReferrer === null || registeredReferrer === sender.slot || registeredReferrer === receiver.slot
    ? null
    : registeredReferrer;
}

export interface EscrowActionInput {
  readonly style: CheckStyle;
  readonly callerSlot: number;
  readonly escrow: EscrowRef;
}

export function predictRelease(model: Readonly<CheckModel>, input: EscrowActionInput): Prediction {
  const found = access(model, input, 'sender');
  if ('expected' in found) return found;
  const escrow = found;
  if (escrow.status !== 'locked' && escrow.status !== 'disputed') return failure(409, 'CONFLICT');
  const receiverId = requireAgent(model, escrow.receiverSlot).id;
  const body: Record<string, Matcher> =
    input.style === 'A'
      ? {
          escrow_id: eq(escrow.id),
          status: eq('released'),
          released_amount: money('A', escrow.netMicro),
          seller: eq(receiverId),
          fee: money('A', escrow.feeMicro),
          tx_hash: text(),
        }
      : {
          escrow_id: eq(escrow.id),
          status: eq('released'),
          tx_hash: text(),
          net: money('B', escrow.netMicro),
          fee: money('B', escrow.feeMicro),
        };
  const nowMs = model.nowMs;
  return {
    expected: { status: 200, body },
    commit: (answer) => {
      payRelease(model as CheckModel, escrow);
      settle(escrow, 'released', nowMs, answer);
    },
  };
}

export function predictRefund(model: Readonly<CheckModel>, input: EscrowActionInput): Prediction {
  const found = access(model, input, 'sender');
  if ('expected' in found) return found;
  const escrow = found;
  if (escrow.status !== 'locked') return failure(409, 'CONFLICT');
  const nowMs = model.nowMs;
  return {
    expected: {
      status: 200,
      body: {
        escrow_id: eq(escrow.id),
        status: eq('refunded'),
        amount: money('B', escrow.amountMicro),
        tx_hash: text(),
      },
    },
    commit: (answer) => {
      credit(model as CheckModel, escrow.senderSlot, escrow.amountMicro);
      settle(escrow, 'refunded', nowMs, answer);
    },
  };
}

export interface DisputeInput extends EscrowActionInput {
  readonly reason: string;
  readonly evidence: string | null;
}

export function predictDispute(model: Readonly<CheckModel>, input: DisputeInput): Prediction {
  const found = access(model, input, 'party');
  if ('expected' in found) return found;
  const escrow = found;
  if (escrow.status !== 'locked') return failure(409, 'CONFLICT');
  const nowMs = model.nowMs;
  const windowEndsAtMs = nowMs + model.config.escrow.disputeWindowMs;
  return {
    expected: {
      status: 200,
      body: {
        escrow_id: eq(escrow.id),
        status: eq('disputed'),
        reason: eq(input.reason),
        evidence: eq(input.evidence),
        window_ends_at: time(windowEndsAtMs),
      },
    },
    commit: () => {
      escrow.status = 'disputed';
      escrow.dispute = {
        reason: input.reason,
        evidence: input.evidence,
        openedBySlot: input.callerSlot,
        openedAtMs: nowMs,
        windowEndsAtMs,
        outcome: null,
      };
    },
  };
}

/** The escrow a caller may act on, or the failure: 404 unknown, 403 not the sender / not a party. */
export function access(
  model: Readonly<CheckModel>,
  input: EscrowActionInput,
  who: 'sender' | 'party',
): ModelEscrow | Prediction {
  const escrow = resolveEscrow(model, input.escrow);
  if (escrow === undefined) return failure(404, 'NOT_FOUND');
  const isSender = escrow.senderSlot === input.callerSlot;
  if (who === 'sender' && !isSender) return failure(403, 'FORBIDDEN');
  if (who === 'party' && !isSender && escrow.receiverSlot !== input.callerSlot) return failure(403, 'FORBIDDEN');
  return escrow;
}

function settle(
  escrow: ModelEscrow,
  status: 'released' | 'refunded',
  nowMs: number,
  answer: Readonly<Record<string, unknown>>,
): void {
  escrow.status = status;
  escrow.settledAtMs = nowMs;
  escrow.txHash = String(answer['tx_hash']);
  if (escrow.dispute !== null) escrow.dispute.outcome = status;
}
