/**
 * Coverage probes: "sometimes" assertions, in the manner of Antithesis and of TigerBeetle's VOPR.
 * An invariant must hold always; a probe must be hit at least once somewhere in a sweep, or the
 * sweep never tested what it was meant to (a dispute during a fault, a refund at the expiry
 * instant, a rate-limited claim, …). Each run counts its hits per probe; `afp sweep` adds them up
 * across seeds and lists the probes no seed hit.
 * How: every request's answer and every domain event passes through `onExchange` / `onEvent`,
 * which compare a status, an error code or an event's type: a few comparisons each, no state but
 * the counters (bounded: one per probe). The table is data, in the order reports list it.
 */
import { isEscrowEvent, type DomainEvent, type EscrowEvent } from '../services/shared/events.ts';
import { isDomainsEvent, type DomainsEvent } from '../services/domains/domains-events.ts';

export interface ProbeDefinition {
  readonly name: string;
  readonly description: string;
}

export const PROBES = [
  { name: 'rate-limited', description: 'a request answered 429' },
  { name: 'rate-limited-claim', description: 'a faucet claim answered 429' },
  { name: 'claim-refused', description: 'a faucet claim refused: already claimed, or too early' },
  { name: 'answered-by-fault', description: 'a request answered 500 or 503 inside a fault window' },
  { name: 'conflict', description: 'a request answered 409 CONFLICT' },
  { name: 'insufficient-balance', description: 'a request answered 422 INSUFFICIENT_BALANCE' },
  { name: 'bad-input', description: 'a request answered 400' },
  { name: 'escrow-expired', description: 'an escrow refunded at its expiry instant' },
  { name: 'escrow-released', description: 'an escrow released to its receiver' },
  { name: 'dispute-opened', description: 'an escrow disputed' },
  { name: 'dispute-during-fault', description: 'an escrow disputed while a fault window was open' },
  { name: 'dispute-window-closed', description: 'a disputed escrow refunded at the end of its window' },
  { name: 'referral-paid', description: 'a referral share paid to a referrer' },
  { name: 'casino-bet', description: 'a casino bet placed' },
  { name: 'game-closed', description: 'a bet answered 409 GAME_CLOSED' },
  { name: 'withdrawal-reviewed', description: 'a withdrawal completed after its review' },
  { name: 'tournament-completed', description: 'a tournament reached its end' },
  { name: 'challenge-resolved', description: 'a challenge accepted and drawn' },
  { name: 'challenge-expired', description: 'a challenge expired, its stake returned' },
  { name: 'trading-filled', description: 'a trading order filled (at once or a resting limit order)' },
  { name: 'market-closed', description: 'an order answered 409 MARKET_CLOSED' },
  { name: 'liquidation', description: 'a perpetual position liquidated' },
  { name: 'liquidation-shortfall', description: 'a liquidation whose loss exceeded the margin (insurance paid)' },
  { name: 'funding-paid', description: 'funding applied to an open position' },
  { name: 'domain-registered', description: 'a domain registered' },
  { name: 'domain-renewed', description: 'a domain renewed' },
  { name: 'domain-sold', description: 'a domain sold by an accepted priced transfer' },
  { name: 'domain-expired', description: 'a domain expired at its instant' },
  { name: 'domain-released', description: 'an expired domain released after its grace period' },
] as const satisfies readonly ProbeDefinition[];

export type ProbeName = (typeof PROBES)[number]['name'];

const PROBE_INDEX = new Map<string, number>(PROBES.map((probe, index) => [probe.name, index]));

/** A probe's hits in one run, in the table's order. */
export interface ProbeCount {
  readonly name: ProbeName;
  readonly hits: number;
}

export class ProbeCounter {
  private readonly hits = new Array<number>(PROBES.length).fill(0);
  /** Withdrawals seen entering review and not yet completed (bounded by the casino's own record bound). */
  private readonly reviewed = new Set<string>();

  private hit(name: ProbeName): void {
    const index = PROBE_INDEX.get(name) as number;
    this.hits[index] = (this.hits[index] as number) + 1;
  }

  /** A request's answer: its route (null when no row matched), status and error code. */
  onExchange(routeId: string | null, status: number, code: unknown, inFault: boolean): void {
    if (status < 400) return;
    const claim = routeId !== null && routeId.startsWith('faucet.') && routeId.endsWith('claim');
    if (status === 429) {
      this.hit('rate-limited');
      if (claim) this.hit('rate-limited-claim');
    }
    if (claim && code === 'FAUCET_CLAIMED') this.hit('claim-refused');
    if ((status === 500 || status === 503) && inFault) this.hit('answered-by-fault');
    if (status === 400) this.hit('bad-input');
    if (code === 'CONFLICT') this.hit('conflict');
    if (code === 'INSUFFICIENT_BALANCE') this.hit('insufficient-balance');
    if (code === 'GAME_CLOSED') this.hit('game-closed');
    if (code === 'MARKET_CLOSED') this.hit('market-closed');
  }

  /** A domain event; `inFault` when any fault window is open at its instant. */
  onEvent(event: DomainEvent, inFault: boolean): void {
    if (isEscrowEvent(event)) return this.onEscrowEvent(event, inFault);
    if (isDomainsEvent(event)) return this.onDomainsEvent(event);
    switch (event.type) {
      case 'referral.paid':
        this.hit('referral-paid');
        return;
      case 'casino.bet':
        this.hit('casino-bet');
        return;
      case 'casino.withdrawal':
        if (event.status === 'completed' && this.reviewed.delete(event.withdrawalId)) this.hit('withdrawal-reviewed');
        else if (event.status === 'pending_review') this.reviewed.add(event.withdrawalId);
        return;
      case 'casino.tournament':
        if (event.status === 'completed') this.hit('tournament-completed');
        return;
      case 'casino.challenge':
        if (event.status === 'resolved') this.hit('challenge-resolved');
        if (event.status === 'expired') this.hit('challenge-expired');
        return;
      case 'trading.filled':
        this.hit('trading-filled');
        return;
      case 'trading.order':
        if (event.status === 'filled') this.hit('trading-filled');
        return;
      case 'trading.liquidated':
        this.hit('liquidation');
        if (event.shortfallMicro > 0n) this.hit('liquidation-shortfall');
        return;
      case 'trading.funding':
        this.hit('funding-paid');
        return;
      case 'trading.cancelled':
      case 'trading.trigger-set': // the deployed dialect's stop-loss / take-profit: no scenario drives them yet
      case 'trading.trigger-fired':
      case 'trading.trigger-cancelled':
      case 'agent.registered':
      case 'faucet.claimed':
      case 'casino.deposit':
      case 'casino.seed-rotated':
      case 'wallet.created': // no wallet probe: a new probe row would change every run's probe table
      case 'wallet.minted':
      case 'wallet.sent':
      case 'wallet.settled':
      case 'wallet.swap':
      case 'wallet.fee':
        return;
    }
  }

  /** The escrow events probes count. */
  private onEscrowEvent(event: EscrowEvent, inFault: boolean): void {
    switch (event.type) {
      case 'escrow.expired':
        this.hit('escrow-expired');
        return;
      case 'escrow.released':
        this.hit('escrow-released');
        return;
      case 'escrow.disputed':
        this.hit('dispute-opened');
        if (inFault) this.hit('dispute-during-fault');
        return;
      case 'escrow.refunded':
        if (event.cause === 'dispute-window') this.hit('dispute-window-closed');
        return;
      case 'escrow.created':
        return;
    }
  }

  /** The domains events probes count. */
  private onDomainsEvent(event: DomainsEvent): void {
    switch (event.type) {
      case 'domains.registered':
        this.hit('domain-registered');
        return;
      case 'domains.renewed':
        this.hit('domain-renewed');
        return;
      case 'domains.transferred':
        if (event.priceMicro !== null) this.hit('domain-sold');
        return;
      case 'domains.expired':
        this.hit('domain-expired');
        return;
      case 'domains.released':
        this.hit('domain-released');
        return;
      case 'domains.offered':
        return;
    }
  }

  counts(): ProbeCount[] {
    return PROBES.map((probe, index) => ({ name: probe.name, hits: this.hits[index] as number }));
  }
}
