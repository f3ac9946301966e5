/**
 * Domain events: what the services report they did, in order. The simulator's invariant
 * checkers and `events.jsonl` consume them; services never read them back (state is the truth).
 * Every event carries the virtual time it happened at. Payload values are JSON-safe (money as
 * decimal strings of micro-USDC is avoided: `amountMicro` fields are bigint and rendered by the
 * report writer).
 */

/** A paid domain term (registration or renewal): the same fields for both. */
interface DomainTermEvent<T extends 'domains.registered' | 'domains.renewed'> {
  type: T;
  atMs: number;
  domainId: string;
  domain: string;
  ownerId: string;
  years: number;
  costMicro: bigint;
  referrerId: string | null;
  referralMicro: bigint;
  expiresAtMs: number;
}

/** What a stop-loss or take-profit event says of its trigger, set or fired. */
interface TriggerEventFields {
  atMs: number;
  triggerId: string;
  positionId: string;
  agentId: string;
  symbol: string;
  kind: 'stop-loss' | 'take-profit';
  triggerPrice: string;
}

export type DomainEvent =
  | {
      type: 'agent.registered';
      atMs: number;
      agentId: string;
      style: 'A' | 'B';
      referrerId: string | null;
      grantMicro: bigint;
    }
  | {
      type: 'faucet.claimed';
      atMs: number;
      agentId: string;
      style: 'A' | 'B';
      amountMicro: bigint;
      nextClaimAtMs: number | null;
    }
  | {
      type: 'escrow.created';
      atMs: number;
      escrowId: string;
      senderId: string;
      receiverId: string;
      amountMicro: bigint;
      feeMicro: bigint;
      expiresAtMs: number;
    }
  | {
      type: 'escrow.released';
      atMs: number;
      escrowId: string;
      netMicro: bigint;
      feeMicro: bigint;
      referrerId: string | null;
      referralMicro: bigint;
    }
  | { type: 'escrow.refunded'; atMs: number; escrowId: string; amountMicro: bigint; cause: 'sender' | 'dispute-window' }
  | { type: 'escrow.expired'; atMs: number; escrowId: string; amountMicro: bigint; expiresAtMs: number }
  | { type: 'escrow.disputed'; atMs: number; escrowId: string; byAgentId: string; windowEndsAtMs: number }
  | { type: 'referral.paid'; atMs: number; referrerId: string; amountMicro: bigint }
  | {
      type: 'casino.bet';
      atMs: number;
      betId: string;
      agentId: string;
      game: string;
      variant: string;
      amountMicro: bigint;
      payoutMicro: bigint;
      source: string;
    }
  | { type: 'casino.seed-rotated'; atMs: number; agentId: string; seedHash: string; nonces: number }
  | {
      type: 'casino.withdrawal';
      atMs: number;
      withdrawalId: string;
      agentId: string;
      amountMicro: bigint;
      feeMicro: bigint;
      status: string;
    }
  | { type: 'casino.deposit'; atMs: number; depositId: string; agentId: string; amountMicro: bigint; status: string }
  | { type: 'casino.tournament'; atMs: number; tournamentId: string; status: string }
  | { type: 'casino.challenge'; atMs: number; challengeId: string; status: string; winnerId: string | null }
  | DomainTermEvent<'domains.registered'>
  | DomainTermEvent<'domains.renewed'>
  | {
      type: 'domains.offered';
      atMs: number;
      domainId: string;
      domain: string;
      ownerId: string;
      buyerId: string;
      priceMicro: bigint;
    }
  | {
      type: 'domains.transferred';
      atMs: number;
      domainId: string;
      domain: string;
      fromId: string;
      toId: string;
      priceMicro: bigint | null;
    }
  | { type: 'domains.expired'; atMs: number; domainId: string; domain: string; ownerId: string; expiresAtMs: number }
  | { type: 'domains.released'; atMs: number; domainId: string; domain: string; ownerId: string; releaseAtMs: number }
  | {
      type: 'trading.order';
      atMs: number;
      orderId: string;
      agentId: string;
      symbol: string;
      side: string;
      orderType: string;
      status: string;
      amountMicro: bigint;
      feeMicro: bigint;
      fillPrice: string | null;
    }
  | {
      type: 'trading.filled';
      atMs: number;
      orderId: string;
      agentId: string;
      symbol: string;
      fillPrice: string;
      feeMicro: bigint;
    }
  | {
      type: 'trading.cancelled';
      atMs: number;
      orderId: string;
      agentId: string;
      symbol: string;
      cause: 'agent' | 'unfundable';
    }
  | {
      type: 'trading.liquidated';
      atMs: number;
      positionId: string;
      agentId: string;
      symbol: string;
      markPrice: string;
      marginMicro: bigint;
      shortfallMicro: bigint;
    }
  | ({ type: 'trading.trigger-set' } & TriggerEventFields)
  | ({ type: 'trading.trigger-fired'; markPrice: string; exitPrice: string } & TriggerEventFields)
  | {
      type: 'trading.trigger-cancelled';
      atMs: number;
      triggerId: string;
      positionId: string;
      agentId: string;
      cause: 'replaced' | 'position-ended';
    }
  | {
      type: 'trading.funding';
      atMs: number;
      positionId: string;
      agentId: string;
      symbol: string;
      ratePpm: number;
      paymentMicro: bigint;
    }
  | { type: 'wallet.created'; atMs: number; agentId: string }
  | { type: 'wallet.minted'; atMs: number; chain: string; asset: string; to: string; amount: bigint }
  | {
      type: 'wallet.sent';
      atMs: number;
      hash: string;
      kind: string;
      chain: string;
      asset: string;
      from: string;
      to: string;
      amount: bigint;
      fee: bigint;
      blockAtMs: number;
    }
  | { type: 'wallet.settled'; atMs: number; hash: string; chain: string; status: string; failure: string | null }
  | {
      type: 'wallet.swap';
      atMs: number;
      orderId: string;
      status: string;
      fromChain: string;
      toChain: string;
      amount: bigint;
    }
  | { type: 'wallet.fee'; atMs: number; orderId: string; agentId: string; feeMicro: bigint };

export type DomainEventType = DomainEvent['type'];

/**
 * One service's events. A checker of one service narrows with its guard and then switches over
 * its own service's events only, so a new service's events touch no other service's checker.
 */
export type EscrowEvent = Extract<DomainEvent, { type: `escrow.${string}` }>;

export function isEscrowEvent(event: DomainEvent): event is EscrowEvent {
  return event.type.startsWith('escrow.');
}

export type EventSink = (event: DomainEvent) => void;

/**
 * The platform's event fan-out, an object with methods rather than a closure per platform: the
 * services call `emit` on every operation, and optimized code that calls a closure keeps that
 * one closure as a constant, so each new platform (a benchmark round, a check run) would throw
 * that code away and compile it again. A method of a class is one function for every platform.
 */
export class EventBus {
  private readonly listeners: EventSink[] = [];

  add(listener: EventSink): void {
    this.listeners.push(listener);
  }

  emit(event: DomainEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
