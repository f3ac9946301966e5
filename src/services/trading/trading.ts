/**
 * TradingService: spot and perpetual orders against the house (spec/platform.md "Trading",
 * spec/NOTES.md "Trading"; afp's choices in docs/decisions/trading.md "Trading").
 *
 * Money (one double-entry transfer per movement): a spot buy pays its cost to the house and its
 * fee to fee-income; a spot sell is paid by the house; a perpetual order moves its margin from the
 * agent's balance to `trading-margin:<agent>`; closing returns the margin and settles the PnL with
 * the house; funding moves between the margin and the house; a liquidation forfeits the margin
 * (the loss to the house, what is left to insurance) and insurance pays the house any loss beyond
 * the margin, so the agent's balance is never touched by it. Open limit orders hold their funds in
 * `trading-hold:<agent>`. The referrer's 20% of every fee accrues from fee-income.
 * Time: prices move at tick boundaries (`tickMs`); the 'trading.tick' timer runs at each boundary
 * while anything is open (liquidations, then limit fills), 'trading.funding' at 00/08/16 UTC while
 * a position is open. Both re-arm themselves only while needed, so a run without trading has no
 * trading timers at all.
 * Precedence of failures: 400 bad input (unknown market, ranges), 404 unknown order, 403 another
 * agent's order, 409 MARKET_CLOSED / not open, 422 funds.
 * This file is the service: its requests, and its clock (ticks, funding, planning). What an order's
 * fill moves is order-fills.ts, a whole-position close and its triggers position-close.ts, the
 * settlement of a close or liquidation position-settlement.ts, each working on trading-desk.ts.
 */
import { assert } from '../../core/assert.ts';
import { fail, succeed, type Outcome } from '../../core/errors.ts';
import { EXTERNAL, type Ledger } from '../../core/ledger.ts';
import type { Micro } from '../../core/money.ts';
import type { PlatformTimer, ServiceContext } from '../shared/context.ts';
import { MARKETS, marketBySymbol, type Market } from './market-catalogue.ts';
import { crossesLiquidation, liquidationPrice, pnlMicro } from './perp-math.ts';
import { TriggerBook, type TriggerKind, type TriggerRecord } from './position-triggers.ts';
import { PriceBook } from './price-book.ts';
import { formatPrice } from './price-scale.ts';
import { RiskBook } from './risk-settings.ts';
import { fundInstant } from './funding-instant.ts';
import { nextActiveTickWithFunding, type PlannedTick } from './funding-plan.ts';
import { settleSpan } from './funding-spans.ts';
import { instantAtOrBefore, type FundingInstants } from './funding-window.ts';
import { nextActiveTick } from './tick-planner.ts';
import { TradingBook, type MutablePosition } from './trading-book.ts';
import type { TradingDesk } from './trading-desk.ts';
import { emitCancelled, emitOrder } from './trading-events.ts';
import { checkPlaceOrder, fillOrder, holdFunds, newOrder, releaseOrderHold } from './order-fills.ts';
import { liquidatePosition } from './position-settlement.ts';
import { closePositionAt, fireTriggers, setPositionTrigger } from './position-close.ts';
import type { TradingConfig } from './trading-config.ts';
import {
  TRADING_HOUSE,
  TRADING_INSURANCE,
  type ListOrdersCommand,
  type MarketClosure,
  type OrderActionCommand,
  type OrderRecord,
  type PlaceOrderCommand,
  type PositionRecord,
  type PriceShock,
  type Quote,
} from './trading-record.ts';

/**
 * How far one plan looks ahead: PLAN_HORIZON_MIN_TICKS (≈ 4 hours) after a request touched trading
 * (another is likely soon and would plan again: a long look would be wasted), four times further
 * after each plan that found nothing, up to PLAN_HORIZON_MAX_TICKS (≈ 2 years); a tick at the
 * horizon plans again.
 */
const PLAN_HORIZON_MIN_TICKS = 2 ** 8;
const PLAN_HORIZON_MAX_TICKS = 2 ** 20;

export type TradingTimer = Extract<PlatformTimer, { kind: 'trading.tick' | 'trading.funding' }>;

/** A position's live numbers at an instant. */
export interface MarkedPosition {
  readonly position: PositionRecord;
  readonly markPrice: bigint;
  readonly unrealizedPnlMicro: Micro;
  readonly liquidationPrice: bigint;
}

export class TradingService implements TradingDesk {
  readonly book = new TradingBook();
  /** Stop-loss and take-profit triggers (position-triggers.ts). */
  readonly triggers = new TriggerBook();
  /** Each agent's own leverage ceiling, daily loss limit and realized PnL of the day (risk-settings.ts). */
  readonly risk = new RiskBook();
  readonly prices: PriceBook;
  readonly config: TradingConfig;
  /** Read by the fills, closes and settlement through TradingDesk (this service is their desk). */
  readonly context: ServiceContext;
  /** The instant of the tick that counts (null: none armed); an earlier arming supersedes a later one. */
  private tickAtMs: number | null = null;
  /**
   * Funding in spans only, both cleared by a request that changes what is open (armSoon): the tick
   * armed before the one the last plan found, which only queues that one (nothing can act at it:
   * the plan looked through it); the tick found and what may act there (the other scans skipped).
   */
  private relayAtMs: number | null = null;
  private planned: PlannedTick | null = null;
  /** Instants of the tick timers in the queue: a superseded one stays queued and is ignored when it fires. */
  private readonly tickTimersMs = new Set<number>();
  /**
   * The stepping twin (tests only): the tick armed at every boundary while anything is open, as
   * before the tick planner; the same fills at the same instants, at a cost of one tick a minute.
   */
  stepEveryTick = false;
  /** The next plan's horizon in ticks (see PLAN_HORIZON_MIN_TICKS). */
  private planHorizonTicks = PLAN_HORIZON_MIN_TICKS;
  private fundingArmed = false;
  /** The last funding instant applied (the tick and the funding timer of one instant share it). */
  private fundedAtMs = -1;
  /**
   * Funding in spans (afp serve; docs/decisions/trading.md "Funding over a span"): no timer per
   * funding instant; the instants passed are applied at once when the platform reaches an instant
   * (settleFunding), and the tick planner looks across them. The same state as the timer's, without
   * its per-instant `trading.funding` events.
   */
  fundingSpans = false;

  constructor(
    context: ServiceContext,
    options: { seed: string; shocks?: readonly PriceShock[]; closures?: readonly MarketClosure[] },
  ) {
    const config = context.config.trading;
    assert(
      config.makerFeeBps >= 0n && config.takerFeeBps >= 0n && config.takerFeeBps < 10_000n,
      'trading fees are below 100%',
    );
    assert(
      config.leverageMax >= 1 && config.orderMinMicro > 0n && config.orderMinMicro <= config.orderMaxMicro,
      'trading config is sane',
    );
    assert(config.tickMs > 0 && config.fundingPeriodMs % config.tickMs === 0, 'funding instants are tick boundaries');
    this.context = context;
    this.config = config;
    this.prices = new PriceBook({
      seed: options.seed,
      config,
      ...(options.shocks === undefined ? {} : { shocks: options.shocks }),
      ...(options.closures === undefined ? {} : { closures: options.closures }),
    });
    context.ledger.transfer({
      from: EXTERNAL,
      to: TRADING_HOUSE,
      amountMicro: config.houseFundingMicro,
      reason: 'trading.house-funding',
      reference: 'genesis',
    });
    context.ledger.transfer({
      from: EXTERNAL,
      to: TRADING_INSURANCE,
      amountMicro: config.insuranceFundingMicro,
      reason: 'trading.insurance-funding',
      reference: 'genesis',
    });
  }

  markets(): readonly Market[] {
    return MARKETS;
  }

  quote(market: Market, nowMs: number): Quote {
    return this.prices.quote(market, nowMs);
  }

  place(command: PlaceOrderCommand, nowMs: number): Outcome<OrderRecord> {
    const market = marketBySymbol(command.symbol);
    if (market === undefined) return fail('BAD_REQUEST', `unknown market ${command.symbol}`);
    const invalid = checkPlaceOrder(this, command, market);
    if (invalid !== null) return invalid;
    if (!this.context.agents.has(command.agentId))
      return fail('NOT_FOUND', `agent ${command.agentId} is not registered`);
    if (!this.prices.isOpen(market, nowMs))
      return fail('MARKET_CLOSED', `market ${market.symbol} is not accepting orders`);
    const quote = this.prices.quote(market, nowMs);
    const takerPrice = command.side === 'buy' ? quote.ask : quote.bid;
    const limit = command.limitPrice;
    const marketable = limit === null || (command.side === 'buy' ? takerPrice <= limit : takerPrice >= limit);
    const order = newOrder(this, command, market, nowMs);
    if (marketable) {
      const filled = fillOrder(this, order, market, takerPrice, 'taker', nowMs);
      if (filled !== null) return filled;
      this.book.addOrder(order);
    } else {
      if (this.book.openOrdersOf(command.agentId) >= this.config.openOrdersPerAgentMax) {
        return fail('BAD_REQUEST', `at most ${this.config.openOrdersPerAgentMax} open orders per agent`);
      }
      const held = holdFunds(this, order, market);
      if (held !== null) return held;
      this.book.addOrder(order);
    }
    this.armSoon(nowMs);
    emitOrder(this.context, order, nowMs);
    return succeed(order);
  }

  /**
   * Closes the whole of one open position at the taker quote (a long sells at the bid, a short
   * buys at the ask): a market order for the position's notional at that price, taker fee, PnL
   * settled as any reducing fill (the deployed dialect's `POST /v1/trade/close { position_id }`).
   * Owner only (403); unknown id 404; already ended 409; market closed 409 MARKET_CLOSED.
   */
  closePosition(
    command: { agentId: string; positionId: string },
    nowMs: number,
  ): Outcome<{ order: OrderRecord; position: PositionRecord }> {
    const closed = closePositionAt(this, command, nowMs);
    if (closed.ok) this.armSoon(nowMs);
    return closed;
  }

  /** Owner only; open limit orders only. The hold returns to the agent. */
  cancel(command: OrderActionCommand, nowMs: number): Outcome<OrderRecord> {
    const order = this.book.order(command.orderId);
    if (order === undefined) return fail('NOT_FOUND', `order ${command.orderId} not found`);
    if (order.agentId !== command.agentId)
      return fail('FORBIDDEN', 'only the agent that placed this order may cancel it');
    if (order.status !== 'open') return fail('CONFLICT', `order is already ${order.status}`);
    releaseOrderHold(this, order);
    order.cancelledAtMs = nowMs;
    this.book.closeOrder(order, 'cancelled');
    emitCancelled(this.context, order, 'agent', nowMs);
    return succeed(order);
  }

  list(command: ListOrdersCommand): Outcome<readonly OrderRecord[]> {
    if (!Number.isSafeInteger(command.limit) || command.limit < 1 || command.limit > this.config.listLimitMax) {
      return fail('BAD_REQUEST', `limit must be between 1 and ${this.config.listLimitMax}`);
    }
    return succeed(this.book.listOrders(command));
  }

  /** The agent's open perpetual positions with their live numbers, in opening order. */
  positions(agentId: string, nowMs: number): MarkedPosition[] {
    return this.book.openPositionsOf(agentId).map((position) => this.view(position, nowMs));
  }

  view(position: PositionRecord, nowMs: number): MarkedPosition {
    const market = marketBySymbol(position.symbol);
    assert(market !== undefined, 'a position names a listed market');
    const markPrice = this.prices.mid(market, nowMs);
    return {
      position,
      markPrice,
      unrealizedPnlMicro:
        position.status === 'open' ? pnlMicro(position.side, position.qty, position.entryPrice, markPrice) : 0n,
      liquidationPrice: this.liquidationOf(position),
    };
  }

  liquidationOf(position: PositionRecord): bigint {
    return liquidationPrice({
      side: position.side,
      qty: position.qty,
      entry: position.entryPrice,
      marginMicro: position.marginMicro,
      maintenanceBps: this.config.maintenanceBps,
    });
  }

  setTrigger(
    command: { agentId: string; positionId: string; kind: TriggerKind; triggerPrice: bigint },
    nowMs: number,
  ): Outcome<TriggerRecord> {
    return setPositionTrigger(this, command, nowMs);
  }

  onTimer(timer: TradingTimer, atMs: number): void {
    switch (timer.kind) {
      case 'trading.tick':
        assert(atMs % this.config.tickMs === 0, 'ticks run at tick boundaries');
        this.tickTimersMs.delete(atMs);
        if (atMs !== this.tickAtMs) return; // superseded by an earlier arming (armAt)
        if (atMs === this.relayAtMs) return this.relay(atMs);
        return this.tick(atMs);
      case 'trading.funding':
        assert(atMs % this.config.fundingPeriodMs === this.fundingLateMs(), 'funding runs at 00, 08 and 16 UTC');
        this.fundingArmed = false;
        this.fundOnce(atMs);
        this.armFunding(atMs);
        this.planUntilFunding(atMs);
        return;
    }
  }

  /**
   * The funding of instant `atMs`, once: the tick and the funding timer of one instant both ask
   * for it and the scheduler runs them in the order they were armed, so funding always comes
   * before the tick's liquidations and limit fills (a position a limit opens at the instant was
   * not open during the period and pays from the next one).
   */
  private fundOnce(atMs: number): void {
    if (this.fundingSpans) return this.settleFunding(atMs);
    if (this.fundedAtMs === atMs) return;
    this.fundedAtMs = atMs;
    fundInstant({ ...this.fundingWork(), liquidateIfCrossed: (one, at) => this.liquidateIfCrossed(one, at) }, atMs);
  }

  /**
   * Funding in spans (`fundingSpans`): every funding instant after the last one applied, up to
   * `throughMs`, applied at once (funding-spans.ts); Platform.advanceTo calls it at the end of every
   * advance, and a tick before it acts. The first call only sets where funding starts.
   */
  settleFunding(throughMs: number): void {
    if (!this.fundingSpans) return;
    // Checked before anything is built: this runs at the end of every advance (every request).
    const instants = { periodMs: this.config.fundingPeriodMs, lateMs: this.fundingLateMs() };
    const through = instantAtOrBefore(throughMs, instants);
    const from = this.fundedAtMs < 0 ? through + 1 : instantAtOrBefore(this.fundedAtMs, instants) + 1;
    if (through < from && this.fundedAtMs >= 0) return;
    if (this.book.openPositionCount > 0 && through >= from)
      settleSpan(
        { ...this.fundingWork(), liquidate: (one, mark, at) => liquidatePosition(this, one, mark, at) },
        from,
        through,
      );
    this.fundedAtMs = through * instants.periodMs + instants.lateMs;
  }

  private fundingWork(): {
    context: ServiceContext;
    ledger: Ledger;
    prices: PriceBook;
    maintenanceBps: bigint;
    instants: FundingInstants;
    positions: MutablePosition[];
  } {
    const instants = { periodMs: this.config.fundingPeriodMs, lateMs: this.fundingLateMs() };
    const { context, prices } = this;
    return {
      context,
      ledger: context.ledger,
      prices,
      maintenanceBps: this.config.maintenanceBps,
      instants,
      positions: this.book.openPositionList(),
    };
  }

  /** 0, or one tick under the defect `trading-funding-late` (funding at 00:01, 08:01, 16:01). */
  private fundingLateMs(): number {
    return this.context.defects.has('trading-funding-late') ? this.config.tickMs : 0;
  }

  /** Resting limit orders whose price the quote has crossed fill at their limit (maker). */
  private fillCrossed(atMs: number): void {
    for (const order of this.book.openOrderList()) {
      const market = marketBySymbol(order.symbol);
      assert(market !== undefined && order.limitPrice !== null, 'an open order is a limit order on a listed market');
      if (!this.prices.isOpen(market, atMs)) continue;
      const quote = this.prices.bidAsk(market, this.prices.mid(market, atMs)); // the quote's bid and ask, without its 24-hour figures
      const crossed = order.side === 'buy' ? quote.ask <= order.limitPrice : quote.bid >= order.limitPrice;
      if (!crossed) continue;
      releaseOrderHold(this, order);
      const atQuote = this.context.defects.has('trading-limit-at-quote');
      const price = atQuote ? (order.side === 'buy' ? quote.ask : quote.bid) : order.limitPrice;
      const refused = fillOrder(this, order, market, price, 'maker', atMs);
      if (refused === null) {
        this.context.emit({
          type: 'trading.filled',
          atMs,
          orderId: order.id,
          agentId: order.agentId,
          symbol: order.symbol,
          fillPrice: formatPrice(price),
          feeMicro: order.feeMicro,
        });
        continue;
      }
      // The position changed since the order was placed and the flip no longer fits: cancelled.
      order.cancelledAtMs = atMs;
      this.book.closeOrder(order, 'cancelled');
      emitCancelled(this.context, order, 'unfundable', atMs);
    }
  }

  private liquidateCrossed(atMs: number): void {
    for (const position of this.book.openPositionList()) this.liquidateIfCrossed(position, atMs);
  }

  private liquidateIfCrossed(position: MutablePosition, atMs: number): void {
    const market = marketBySymbol(position.symbol);
    assert(market !== undefined, 'a position names a listed market');
    const mark = this.prices.mid(market, atMs);
    if (!crossesLiquidation(position.side, mark, this.liquidationOf(position))) return;
    liquidatePosition(this, position, mark, atMs);
  }

  /** The tick at `atMs`: funding, triggers, liquidations and fills, then the plan onward. */
  private tick(atMs: number): void {
    // Funding first at its instant, whichever timer the scheduler runs first (see fundOnce).
    if (this.fundingSpans || atMs % this.config.fundingPeriodMs === this.fundingLateMs()) this.fundOnce(atMs);
    const horizonTicks = this.planHorizonTicks;
    const planned = this.planned?.tick === atMs / this.config.tickMs ? this.planned : null;
    this.planned = null;
    if (planned?.trades !== false) fireTriggers(this, atMs);
    if (planned?.liquidates !== false) this.liquidateCrossed(atMs);
    if (planned?.trades !== false) this.fillCrossed(atMs);
    // A fill or a close asks for a tick (armSoon) but is no request: the horizon stays (see PLAN_HORIZON_MIN_TICKS).
    this.planHorizonTicks = horizonTicks;
    this.tickAtMs = null; // kept until here: fills that open positions ask for a tick (armSoon), this one plans instead
    this.armAfterTick(atMs);
  }

  /** A tick nothing can act at (relayAtMs): it queues the tick after it, which the plan found. */
  private relay(atMs: number): void {
    this.relayAtMs = null;
    this.tickAtMs = null;
    this.armAt(atMs + this.config.tickMs);
  }

  /** After a request changed what is open: the tick at the next boundary (it plans onward), and funding. */
  armSoon(nowMs: number): void {
    this.relayAtMs = null;
    this.planned = null;
    this.planHorizonTicks = PLAN_HORIZON_MIN_TICKS;
    if (this.book.openOrderCount > 0 || this.book.openPositionCount > 0)
      this.armAt(nextBoundary(nowMs, this.config.tickMs));
    this.armFunding(nowMs);
  }

  /** The tick after the one at `atMs`: the next boundary that can act (tick-planner.ts), one boundary early. */
  private armAfterTick(atMs: number): void {
    if (this.book.openOrderCount === 0 && this.book.openPositionCount === 0) return;
    const tickMs = this.config.tickMs;
    if (this.stepEveryTick) {
      this.armAt(atMs + tickMs);
    } else {
      const horizonMs = atMs + this.planHorizonTicks * tickMs;
      const planned = this.plan(atMs, horizonMs);
      const found = planned === null ? null : planned.tick * tickMs;
      if (found === null) this.planHorizonTicks = Math.min(PLAN_HORIZON_MAX_TICKS, this.planHorizonTicks * 4);
      // One boundary early: the tick that acts is then queued by the one before it, as stepping queues it,
      // so it meets the other timers of its instant in the same order.
      const armed = found === null ? horizonMs : Math.max(atMs + tickMs, found - tickMs);
      this.armAt(armed);
      // Funding in spans moves nothing between instants: the tick before the one found only relays to it.
      const relays = this.fundingSpans && found !== null && armed === found - tickMs && this.tickAtMs === armed;
      this.relayAtMs = relays ? armed : null;
      const horizon = { tick: horizonMs / tickMs, liquidates: false, trades: false };
      this.planned = this.fundingSpans ? (planned ?? horizon) : null;
    }
    this.armFunding(atMs);
  }

  /** After funding moved margins (liquidation prices): the plan again, up to the next funding instant. */
  private planUntilFunding(atMs: number): void {
    if (this.book.openOrderCount === 0 && this.book.openPositionCount === 0) return;
    const tickMs = this.config.tickMs;
    if (this.stepEveryTick) {
      this.armAt(nextBoundary(atMs, tickMs));
      return;
    }
    const lateMs = this.fundingLateMs();
    const planned = this.plan(atMs, nextBoundary(atMs - lateMs, this.config.fundingPeriodMs) + lateMs);
    const found = planned === null ? null : planned.tick * tickMs;
    if (found !== null) this.armAt(Math.max(nextBoundary(atMs, tickMs), found - tickMs));
    else if (this.tickAtMs === null) this.armAt(nextBoundary(atMs, tickMs));
  }

  /** The first tick in (fromMs, toMs] at which something can act (and what: see PlannedTick), or null. */
  private plan(fromMs: number, toMs: number): PlannedTick | null {
    const tickMs = this.config.tickMs;
    const input = {
      prices: this.prices,
      tickMs,
      orders: this.book.openOrderList(),
      triggers: this.triggers.pendingList(),
      positions: this.book.openPositionList(),
      liquidationOf: (position: PositionRecord) => this.liquidationOf(position),
    };
    const ticks = [Math.floor(fromMs / tickMs) + 1, Math.floor(toMs / tickMs)] as const;
    if (this.fundingSpans)
      return nextActiveTickWithFunding({ ...input, ...this.fundingWork(), positions: input.positions }, ...ticks);
    const tick = nextActiveTick(input, ...ticks);
    return tick === null ? null : { tick, liquidates: true, trades: true };
  }

  /** Arms the tick at `atMs` unless one is armed at or before it; never queues two timers for one instant. */
  private armAt(atMs: number): void {
    if (this.tickAtMs !== null && this.tickAtMs <= atMs) return;
    this.tickAtMs = atMs;
    if (this.tickTimersMs.has(atMs)) return;
    this.context.timers.schedule(atMs, { kind: 'trading.tick' });
    this.tickTimersMs.add(atMs);
  }

  private armFunding(nowMs: number): void {
    if (this.fundingArmed || this.fundingSpans || this.book.openPositionCount === 0) return;
    const lateMs = this.fundingLateMs();
    this.context.timers.schedule(nextBoundary(nowMs - lateMs, this.config.fundingPeriodMs) + lateMs, {
      kind: 'trading.funding',
    });
    this.fundingArmed = true;
  }
}

/** The first multiple of `periodMs` strictly after `ms`. */
function nextBoundary(ms: number, periodMs: number): number {
  return (Math.floor(ms / periodMs) + 1) * periodMs;
}
