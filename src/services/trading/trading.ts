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
 */
import { assert } from '../../core/assert.ts';
import { fail, succeed, type Failure, type Outcome } from '../../core/errors.ts';
import { EXTERNAL, FEE_INCOME, agentAccount, type Ledger } from '../../core/ledger.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { PlatformTimer, ServiceContext } from '../shared/context.ts';
import { accrueFeeShares } from '../shared/referral-programme.ts';
import { MARKETS, marketBySymbol, type Market } from './market-catalogue.ts';
import { combinedEntry, crossesLiquidation, feeFor, liquidationPrice, marginFor, pnlMicro } from './perp-math.ts';
import { TriggerBook, triggerCrossed, type TriggerKind, type TriggerRecord } from './position-triggers.ts';
import { PriceBook } from './price-book.ts';
import { formatPrice, notionalMicro, qtyFor, scaled } from './price-scale.ts';
import { RiskBook } from './risk-settings.ts';
import { fundInstant } from './funding-instant.ts';
import { nextActiveTickWithFunding } from './funding-plan.ts';
import { settleSpan } from './funding-spans.ts';
import { instantAtOrBefore, type FundingInstants } from './funding-window.ts';
import { nextActiveTick } from './tick-planner.ts';
import { TradingBook, type MutableOrder, type MutablePosition } from './trading-book.ts';
import type { TradingConfig } from './trading-config.ts';
import {
  TRADING_HOUSE,
  TRADING_INSURANCE,
  holdAccount,
  marginAccount,
  type ListOrdersCommand,
  type MarketClosure,
  type OrderActionCommand,
  type OrderRecord,
  type PlaceOrderCommand,
  type PositionRecord,
  type PositionSide,
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
export interface PositionView {
  readonly position: PositionRecord;
  readonly markPrice: bigint;
  readonly unrealizedPnlMicro: Micro;
  readonly liquidationPrice: bigint;
}

export class TradingService {
  readonly book = new TradingBook();
  /** Stop-loss and take-profit triggers (position-triggers.ts). */
  readonly triggers = new TriggerBook();
  /** Each agent's own leverage ceiling, daily loss limit and realized PnL of the day (risk-settings.ts). */
  readonly risk = new RiskBook();
  readonly prices: PriceBook;
  readonly config: TradingConfig;
  private readonly context: ServiceContext;
  /** The instant of the tick that counts (null: none armed); an earlier arming supersedes a later one. */
  private tickAtMs: number | null = null;
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
    const invalid = this.checkPlace(command, market);
    if (invalid !== null) return invalid;
    if (!this.context.agents.has(command.agentId))
      return fail('NOT_FOUND', `agent ${command.agentId} is not registered`);
    if (!this.prices.isOpen(market, nowMs))
      return fail('MARKET_CLOSED', `market ${market.symbol} is not accepting orders`);
    const quote = this.prices.quote(market, nowMs);
    const takerPrice = command.side === 'buy' ? quote.ask : quote.bid;
    const limit = command.limitPrice;
    const marketable = limit === null || (command.side === 'buy' ? takerPrice <= limit : takerPrice >= limit);
    const order = this.newOrder(command, market, nowMs);
    if (marketable) {
      const filled = this.fill(order, market, takerPrice, 'taker', nowMs);
      if (filled !== null) return filled;
      this.book.addOrder(order);
    } else {
      if (this.book.openOrdersOf(command.agentId) >= this.config.openOrdersPerAgentMax) {
        return fail('BAD_REQUEST', `at most ${this.config.openOrdersPerAgentMax} open orders per agent`);
      }
      const held = this.hold(order, market);
      if (held !== null) return held;
      this.book.addOrder(order);
    }
    this.armSoon(nowMs);
    this.emitOrder(order, nowMs);
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
    const closed = this.closeAt(command, nowMs);
    if (closed.ok) this.armSoon(nowMs);
    return closed;
  }

  private closeAt(
    command: { agentId: string; positionId: string },
    nowMs: number,
  ): Outcome<{ order: OrderRecord; position: PositionRecord }> {
    const record = this.book.position(command.positionId);
    if (record === undefined) return fail('NOT_FOUND', `position ${command.positionId} not found`);
    if (record.agentId !== command.agentId)
      return fail('FORBIDDEN', 'only the agent that holds this position may close it');
    const position = this.book.openPosition(record.agentId, record.symbol);
    if (record.status !== 'open' || position === undefined || position.id !== record.id)
      return fail('CONFLICT', `position is already ${record.status}`);
    const market = marketBySymbol(position.symbol);
    assert(market !== undefined, 'a position names a listed market');
    if (!this.prices.isOpen(market, nowMs))
      return fail('MARKET_CLOSED', `market ${market.symbol} is not accepting orders`);
    const quote = this.prices.quote(market, nowMs);
    const price = position.side === 'long' ? quote.bid : quote.ask;
    const amountMicro = notionalMicro(position.qty, price, 'down');
    const order = this.newOrder(
      {
        agentId: position.agentId,
        symbol: position.symbol,
        side: position.side === 'long' ? 'sell' : 'buy',
        type: 'market',
        amountMicro,
        leverage: position.leverage,
        limitPrice: null,
      },
      market,
      nowMs,
    );
    const pnl = pnlMicro(position.side, position.qty, position.entryPrice, price);
    const qty = position.qty;
    this.settleClose(position, {
      closeQty: qty,
      released: position.marginMicro,
      pnl,
      price,
      reference: order.id,
      nowMs,
    });
    order.realizedPnlMicro = pnl;
    const available = this.context.ledger.balance(agentAccount(order.agentId));
    const fee = feeFor(amountMicro, this.config.takerFeeBps);
    this.chargeFee(order, fee < available ? fee : available);
    order.fillQty = qty;
    order.fillPrice = price;
    order.liquidity = 'taker';
    order.filledAtMs = nowMs;
    order.status = 'filled';
    this.book.addOrder(order);
    accrueFeeShares(this.context, {
      service: 'trading',
      payerId: order.agentId,
      feeMicro: order.feeMicro,
      reference: order.id,
    });
    this.emitOrder(order, nowMs);
    return succeed({ order, position });
  }

  /** Owner only; open limit orders only. The hold returns to the agent. */
  cancel(command: OrderActionCommand, nowMs: number): Outcome<OrderRecord> {
    const order = this.book.order(command.orderId);
    if (order === undefined) return fail('NOT_FOUND', `order ${command.orderId} not found`);
    if (order.agentId !== command.agentId)
      return fail('FORBIDDEN', 'only the agent that placed this order may cancel it');
    if (order.status !== 'open') return fail('CONFLICT', `order is already ${order.status}`);
    this.release(order);
    order.cancelledAtMs = nowMs;
    this.book.closeOrder(order, 'cancelled');
    this.emitCancelled(order, 'agent', nowMs);
    return succeed(order);
  }

  list(command: ListOrdersCommand): Outcome<readonly OrderRecord[]> {
    if (!Number.isSafeInteger(command.limit) || command.limit < 1 || command.limit > this.config.listLimitMax) {
      return fail('BAD_REQUEST', `limit must be between 1 and ${this.config.listLimitMax}`);
    }
    return succeed(this.book.listOrders(command));
  }

  /** The agent's open perpetual positions with their live numbers, in opening order. */
  positions(agentId: string, nowMs: number): PositionView[] {
    return this.book.openPositionsOf(agentId).map((position) => this.view(position, nowMs));
  }

  view(position: PositionRecord, nowMs: number): PositionView {
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

  /**
   * Sets (or replaces) the stop-loss or take-profit of an open position (position-triggers.ts).
   * Owner only (403), unknown position 404, ended 409; a price the mark is already at or through
   * is refused 400 (it would fire at once: close the position instead).
   */
  setTrigger(
    command: { agentId: string; positionId: string; kind: TriggerKind; triggerPrice: bigint },
    nowMs: number,
  ): Outcome<TriggerRecord> {
    const record = this.book.position(command.positionId);
    if (record === undefined) return fail('NOT_FOUND', `position ${command.positionId} not found`);
    if (record.agentId !== command.agentId)
      return fail('FORBIDDEN', 'only the agent that holds this position may set its triggers');
    if (record.status !== 'open') return fail('CONFLICT', `position is already ${record.status}`);
    if (command.triggerPrice <= 0n) return fail('BAD_REQUEST', 'trigger price must be positive');
    const market = marketBySymbol(record.symbol);
    assert(market !== undefined, 'a position names a listed market');
    const mark = this.prices.mid(market, nowMs);
    if (triggerCrossed({ kind: command.kind, side: record.side, triggerPrice: command.triggerPrice }, mark)) {
      const where = (command.kind === 'stop-loss') === (record.side === 'long') ? 'below' : 'above';
      return fail(
        'BAD_REQUEST',
        `a ${record.side} position's ${command.kind} must be ${where} the mark price ${formatPrice(mark)}`,
      );
    }
    const replaced = this.triggers.pendingOfKind(record.id, command.kind);
    if (replaced !== undefined) {
      this.triggers.end(replaced.id, nowMs, { cancelled: 'replaced' });
      this.context.emit({
        type: 'trading.trigger-cancelled',
        atMs: nowMs,
        triggerId: replaced.id,
        positionId: record.id,
        agentId: record.agentId,
        cause: 'replaced',
      });
    }
    const trigger = this.triggers.add({
      id: this.context.ids.next('trg_', 16),
      agentId: record.agentId,
      positionId: record.id,
      symbol: record.symbol,
      kind: command.kind,
      side: record.side,
      triggerPrice: command.triggerPrice,
      createdAtMs: nowMs,
    });
    this.context.emit({
      type: 'trading.trigger-set',
      atMs: nowMs,
      triggerId: trigger.id,
      positionId: record.id,
      agentId: record.agentId,
      symbol: record.symbol,
      kind: trigger.kind,
      triggerPrice: formatPrice(trigger.triggerPrice),
    });
    this.armSoon(nowMs);
    return succeed(trigger);
  }

  onTimer(timer: TradingTimer, atMs: number): void {
    switch (timer.kind) {
      case 'trading.tick':
        assert(atMs % this.config.tickMs === 0, 'ticks run at tick boundaries');
        this.tickTimersMs.delete(atMs);
        if (atMs !== this.tickAtMs) return; // superseded by an earlier arming (armAt)
        // Funding first at its instant, whichever timer the scheduler runs first (see fundOnce).
        if (this.fundingSpans || atMs % this.config.fundingPeriodMs === this.fundingLateMs()) this.fundOnce(atMs);
        this.fireTriggers(atMs);
        this.liquidateCrossed(atMs);
        this.fillCrossed(atMs);
        this.tickAtMs = null; // kept until here: fills that open positions ask for a tick (armSoon), this one plans instead
        this.armAfterTick(atMs);
        return;
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
      settleSpan({ ...this.fundingWork(), liquidate: (one, mark, at) => this.liquidate(one, mark, at) }, from, through);
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

  private checkPlace(command: PlaceOrderCommand, market: Market): Failure | null {
    const config = this.config;
    if (command.amountMicro < config.orderMinMicro || command.amountMicro > config.orderMaxMicro) {
      return fail(
        'BAD_REQUEST',
        `amount must be between ${formatDecimal(config.orderMinMicro)} and ${formatDecimal(config.orderMaxMicro)} USDC`,
      );
    }
    const leverageMax = Math.min(config.leverageMax, market.maxLeverage);
    if (!Number.isSafeInteger(command.leverage) || command.leverage < 1 || command.leverage > leverageMax) {
      return fail(
        'BAD_REQUEST',
        market.kind === 'spot'
          ? 'leverage applies to perpetuals only (spot is 1)'
          : `leverage must be a whole number from 1 to ${leverageMax}`,
      );
    }
    if (command.type === 'limit' && (command.limitPrice === null || command.limitPrice <= 0n))
      return fail('BAD_REQUEST', 'a limit order needs a positive price');
    if (command.type === 'market' && command.limitPrice !== null)
      return fail('BAD_REQUEST', 'price is only for limit orders');
    return null;
  }

  private newOrder(command: PlaceOrderCommand, market: Market, nowMs: number): MutableOrder {
    return {
      id: this.context.ids.next('ord_', 16),
      agentId: command.agentId,
      symbol: market.symbol,
      kind: market.kind,
      side: command.side,
      type: command.type,
      amountMicro: command.amountMicro,
      leverage: command.leverage,
      limitPrice: command.limitPrice,
      status: 'open',
      fillPrice: null,
      fillQty: null,
      feeMicro: 0n,
      liquidity: null,
      holdMicro: 0n,
      holdQty: 0n,
      realizedPnlMicro: 0n,
      createdAtMs: nowMs,
      filledAtMs: null,
      cancelledAtMs: null,
    };
  }

  /** Fills `order` at `price` now; a Failure (nothing moved) when the agent cannot afford it. */
  private fill(
    order: MutableOrder,
    market: Market,
    price: bigint,
    liquidity: 'maker' | 'taker',
    nowMs: number,
  ): Failure | null {
    const feeBps = liquidity === 'maker' ? this.config.makerFeeBps : this.config.takerFeeBps;
    const unpaid = liquidity === 'taker' && this.context.defects.has('trading-fee-unpaid');
    const fee = unpaid ? 0n : feeFor(order.amountMicro, feeBps);
    const refused = market.kind === 'spot' ? this.fillSpot(order, price, fee) : this.fillPerp(order, price, fee, nowMs);
    if (refused !== null) return refused;
    order.fillPrice = price;
    order.liquidity = liquidity;
    order.filledAtMs = nowMs;
    if (order.status === 'open' && this.book.order(order.id) !== undefined) this.book.closeOrder(order, 'filled');
    else order.status = 'filled';
    accrueFeeShares(this.context, {
      service: 'trading',
      payerId: order.agentId,
      feeMicro: order.feeMicro,
      reference: order.id,
    });
    return null;
  }

  private fillSpot(order: MutableOrder, price: bigint, fee: Micro): Failure | null {
    const { ledger } = this.context;
    const agent = agentAccount(order.agentId);
    const holding = this.book.holding(order.agentId, order.symbol);
    if (order.side === 'buy') {
      const qty = qtyFor(order.amountMicro, price);
      if (qty <= 0n) return fail('BAD_REQUEST', 'amount buys nothing at this price');
      const balance = ledger.balance(agent);
      if (balance < order.amountMicro + fee) return insufficient(balance, order.amountMicro + fee);
      ledger.transfer({
        from: agent,
        to: TRADING_HOUSE,
        amountMicro: order.amountMicro,
        reason: 'trading.spot.buy',
        reference: order.id,
      });
      this.chargeFee(order, fee);
      holding.qty += qty;
      holding.costMicro += order.amountMicro;
      order.fillQty = qty;
      return null;
    }
    const qty = scaled(order.amountMicro, 10_000_000_000n, price, 'up');
    const free = holding.qty - holding.reservedQty;
    if (free < qty) return fail('INSUFFICIENT_BALANCE', `holding of ${order.symbol} is too small for this sell`);
    ledger.transfer({
      from: TRADING_HOUSE,
      to: agent,
      amountMicro: order.amountMicro,
      reason: 'trading.spot.sell',
      reference: order.id,
    });
    this.chargeFee(order, fee);
    holding.costMicro -= scaled(holding.costMicro, qty, holding.qty, 'down');
    holding.qty -= qty;
    order.fillQty = qty;
    return null;
  }

  /**
   * A perpetual fill: opens or adds to the agent's position on the order's side, or reduces,
   * closes or flips a position on the other side. Planned in full before anything moves.
   */
  private fillPerp(order: MutableOrder, price: bigint, fee: Micro, nowMs: number): Failure | null {
    const { ledger } = this.context;
    const agent = agentAccount(order.agentId);
    const side: PositionSide = order.side === 'buy' ? 'long' : 'short';
    const qty = qtyFor(order.amountMicro, price);
    if (qty <= 0n) return fail('BAD_REQUEST', 'amount buys nothing at this price');
    const position = this.book.openPosition(order.agentId, order.symbol);
    const balance = ledger.balance(agent);
    if (position === undefined || position.side === side) {
      const margin = marginFor(order.amountMicro, order.leverage);
      if (balance < margin + fee) return insufficient(balance, margin + fee);
      this.openOrAdd(order, { side, qty, price, margin, position, nowMs });
      this.chargeFee(order, fee);
      order.fillQty = qty;
      return null;
    }
    const closeQty = qty < position.qty ? qty : position.qty;
    const remainingQty = qty - closeQty;
    const released =
      closeQty === position.qty ? position.marginMicro : scaled(position.marginMicro, closeQty, position.qty, 'down');
    const pnl = pnlMicro(position.side, closeQty, position.entryPrice, price);
    const remainderMargin =
      remainingQty > 0n ? marginFor(notionalMicro(remainingQty, price, 'up'), order.leverage) : 0n;
    if (remainingQty > 0n && balance + released + pnl < remainderMargin + fee)
      return insufficient(balance + released + pnl, remainderMargin + fee);
    this.settleClose(position, { closeQty, released, pnl, price, reference: order.id, nowMs });
    order.realizedPnlMicro = pnl;
    if (remainingQty > 0n)
      this.openOrAdd(order, { side, qty: remainingQty, price, margin: remainderMargin, position: undefined, nowMs });
    const available = ledger.balance(agent);
    this.chargeFee(order, fee < available ? fee : available);
    order.fillQty = qty;
    return null;
  }

  private openOrAdd(
    order: MutableOrder,
    lot: {
      side: PositionSide;
      qty: bigint;
      price: bigint;
      margin: Micro;
      position: MutablePosition | undefined;
      nowMs: number;
    },
  ): void {
    this.context.ledger.transfer({
      from: agentAccount(order.agentId),
      to: marginAccount(order.agentId),
      amountMicro: lot.margin,
      reason: 'trading.margin',
      reference: order.id,
    });
    const position = lot.position;
    if (position !== undefined) {
      position.entryPrice = combinedEntry(position.qty, position.entryPrice, lot.qty, lot.price);
      position.qty += lot.qty;
      position.openedQty += lot.qty;
      position.marginMicro += lot.margin;
      position.leverage = order.leverage;
      return;
    }
    this.book.addPosition({
      id: this.context.ids.next('pos_', 16),
      agentId: order.agentId,
      symbol: order.symbol,
      side: lot.side,
      qty: lot.qty,
      entryPrice: lot.price,
      marginMicro: lot.margin,
      leverage: order.leverage,
      status: 'open',
      openedAtMs: lot.nowMs,
      closedAtMs: null,
      fundingPaidMicro: 0n,
      realizedPnlMicro: 0n,
      liquidationMark: null,
      openedQty: lot.qty,
      exitPrice: null,
    });
    this.armSoon(lot.nowMs);
  }

  /**
   * Closes `closeQty` of a position: `released` margin back to the agent with the PnL settled
   * against the house. A loss is taken from the released margin first, then from the agent's
   * balance, and only what neither covers from insurance (never below zero).
   */
  private settleClose(
    position: MutablePosition,
    close: { closeQty: bigint; released: Micro; pnl: Micro; price: bigint; reference: string; nowMs: number },
  ): void {
    const { ledger } = this.context;
    const agent = agentAccount(position.agentId);
    const margin = marginAccount(position.agentId);
    const { released, pnl, reference } = close;
    if (pnl >= 0n) {
      if (released > 0n)
        ledger.transfer({
          from: margin,
          to: agent,
          amountMicro: released,
          reason: 'trading.margin.release',
          reference,
        });
      if (pnl > 0n)
        ledger.transfer({ from: TRADING_HOUSE, to: agent, amountMicro: pnl, reason: 'trading.pnl', reference });
    } else {
      const loss = -pnl;
      const fromMargin = loss < released ? loss : released;
      if (fromMargin > 0n)
        ledger.transfer({ from: margin, to: TRADING_HOUSE, amountMicro: fromMargin, reason: 'trading.pnl', reference });
      if (released > fromMargin)
        ledger.transfer({
          from: margin,
          to: agent,
          amountMicro: released - fromMargin,
          reason: 'trading.margin.release',
          reference,
        });
      const rest = loss - fromMargin;
      const balance = ledger.balance(agent);
      const fromBalance = rest < balance ? rest : balance;
      if (fromBalance > 0n)
        ledger.transfer({ from: agent, to: TRADING_HOUSE, amountMicro: fromBalance, reason: 'trading.pnl', reference });
      this.coverShortfall(rest - fromBalance, reference);
    }
    position.qty -= close.closeQty;
    position.marginMicro -= released;
    position.realizedPnlMicro += pnl;
    this.risk.realize(position.agentId, pnl, close.nowMs);
    if (position.qty === 0n) {
      assert(position.marginMicro === 0n, 'a closed position holds no margin');
      position.status = 'closed';
      position.closedAtMs = close.nowMs;
      position.exitPrice = close.price;
      this.book.endPosition(position);
      this.endTriggers(position, close.nowMs);
    }
  }

  /** Insurance pays the house what a loss left uncovered, as far as insurance holds. */
  private coverShortfall(shortfall: Micro, reference: string): Micro {
    if (shortfall <= 0n) return 0n;
    const available = this.context.ledger.balance(TRADING_INSURANCE);
    const paid = shortfall < available ? shortfall : available;
    if (paid > 0n)
      this.context.ledger.transfer({
        from: TRADING_INSURANCE,
        to: TRADING_HOUSE,
        amountMicro: paid,
        reason: 'trading.insurance',
        reference,
      });
    return paid;
  }

  private chargeFee(order: MutableOrder, fee: Micro): void {
    if (fee > 0n)
      this.context.ledger.transfer({
        from: agentAccount(order.agentId),
        to: FEE_INCOME,
        amountMicro: fee,
        reason: 'trading.fee',
        reference: order.id,
      });
    order.feeMicro = fee;
  }

  /** Holds a resting limit order's funds (or base units); a Failure when it cannot. */
  private hold(order: MutableOrder, market: Market): Failure | null {
    assert(order.limitPrice !== null, 'a resting order has a limit');
    const fee = feeFor(order.amountMicro, this.config.makerFeeBps);
    if (market.kind === 'spot' && order.side === 'sell') {
      const holding = this.book.holding(order.agentId, order.symbol);
      const qty = scaled(order.amountMicro, 10_000_000_000n, order.limitPrice, 'up');
      if (holding.qty - holding.reservedQty < qty)
        return fail('INSUFFICIENT_BALANCE', `holding of ${order.symbol} is too small for this sell`);
      holding.reservedQty += qty;
      order.holdQty = qty;
      return null;
    }
    const needed = (market.kind === 'spot' ? order.amountMicro : marginFor(order.amountMicro, order.leverage)) + fee;
    const balance = this.context.ledger.balance(agentAccount(order.agentId));
    if (balance < needed) return insufficient(balance, needed);
    this.context.ledger.transfer({
      from: agentAccount(order.agentId),
      to: holdAccount(order.agentId),
      amountMicro: needed,
      reason: 'trading.hold',
      reference: order.id,
    });
    order.holdMicro = needed;
    return null;
  }

  /** Returns a resting order's hold to the agent. */
  private release(order: MutableOrder): void {
    if (order.holdMicro > 0n)
      this.context.ledger.transfer({
        from: holdAccount(order.agentId),
        to: agentAccount(order.agentId),
        amountMicro: order.holdMicro,
        reason: 'trading.hold.release',
        reference: order.id,
      });
    if (order.holdQty > 0n) this.book.holding(order.agentId, order.symbol).reservedQty -= order.holdQty;
    order.holdMicro = 0n;
    order.holdQty = 0n;
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
      this.release(order);
      const atQuote = this.context.defects.has('trading-limit-at-quote');
      const price = atQuote ? (order.side === 'buy' ? quote.ask : quote.bid) : order.limitPrice;
      const refused = this.fill(order, market, price, 'maker', atMs);
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
      this.emitCancelled(order, 'unfundable', atMs);
    }
  }

  /** Pending triggers whose mark is at or through them at this tick close their position (open markets only). */
  private fireTriggers(atMs: number): void {
    for (const trigger of this.triggers.pendingList()) {
      if (this.triggers.trigger(trigger.id)?.status !== 'pending') continue;
      const market = marketBySymbol(trigger.symbol);
      assert(market !== undefined, 'a trigger names a listed market');
      const mark = this.prices.mid(market, atMs);
      if (!this.prices.isOpen(market, atMs) || !triggerCrossed(trigger, mark)) continue;
      this.triggers.end(trigger.id, atMs, { fired: mark });
      const closed = this.closeAt({ agentId: trigger.agentId, positionId: trigger.positionId }, atMs);
      assert(closed.ok, 'a pending trigger names an open position on an open market');
      this.context.emit({
        type: 'trading.trigger-fired',
        atMs,
        triggerId: trigger.id,
        positionId: trigger.positionId,
        agentId: trigger.agentId,
        symbol: trigger.symbol,
        kind: trigger.kind,
        triggerPrice: formatPrice(trigger.triggerPrice),
        markPrice: formatPrice(mark),
        exitPrice: formatPrice(closed.value.order.fillPrice ?? mark),
      });
    }
  }

  /** A position that ended cancels its pending triggers. */
  private endTriggers(position: PositionRecord, atMs: number): void {
    for (const trigger of this.triggers.pendingOf(position.id)) {
      this.triggers.end(trigger.id, atMs, { cancelled: 'position-ended' });
      this.context.emit({
        type: 'trading.trigger-cancelled',
        atMs,
        triggerId: trigger.id,
        positionId: position.id,
        agentId: position.agentId,
        cause: 'position-ended',
      });
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
    this.liquidate(position, mark, atMs);
  }

  /**
   * Forfeits the margin: the loss at the mark goes to the house, what remains of the margin to
   * insurance; a loss beyond the margin is paid to the house by insurance. The agent's balance is
   * not touched.
   */
  private liquidate(position: MutablePosition, mark: bigint, atMs: number): void {
    const { ledger } = this.context;
    const margin = marginAccount(position.agentId);
    const pnl = pnlMicro(position.side, position.qty, position.entryPrice, mark);
    const held = position.marginMicro;
    const reference = position.id;
    let shortfall = 0n;
    if (this.context.defects.has('trading-liquidation-as-close')) {
      // The defect: settled as a voluntary close (what is left of the margin back to the agent, a loss beyond it from the balance).
      this.settleClose(position, { closeQty: position.qty, released: held, pnl, price: mark, reference, nowMs: atMs });
      position.status = 'liquidated';
      position.liquidationMark = mark;
      this.emitLiquidated(position, { mark, held, shortfall: 0n }, atMs);
      return;
    }
    if (pnl > 0n) {
      if (held > 0n)
        ledger.transfer({
          from: margin,
          to: TRADING_INSURANCE,
          amountMicro: held,
          reason: 'trading.liquidation.penalty',
          reference,
        });
      ledger.transfer({
        from: TRADING_HOUSE,
        to: TRADING_INSURANCE,
        amountMicro: pnl,
        reason: 'trading.liquidation.penalty',
        reference,
      });
    } else {
      const loss = -pnl;
      const toHouse = loss < held ? loss : held;
      if (toHouse > 0n)
        ledger.transfer({
          from: margin,
          to: TRADING_HOUSE,
          amountMicro: toHouse,
          reason: 'trading.liquidation',
          reference,
        });
      if (held > toHouse)
        ledger.transfer({
          from: margin,
          to: TRADING_INSURANCE,
          amountMicro: held - toHouse,
          reason: 'trading.liquidation.penalty',
          reference,
        });
      shortfall = loss - toHouse;
      this.coverShortfall(shortfall, reference);
    }
    position.realizedPnlMicro -= held;
    position.marginMicro = 0n;
    position.status = 'liquidated';
    position.liquidationMark = mark;
    position.exitPrice = mark;
    position.closedAtMs = atMs;
    this.book.endPosition(position);
    this.risk.realize(position.agentId, -held, atMs);
    this.endTriggers(position, atMs);
    this.emitLiquidated(position, { mark, held, shortfall }, atMs);
  }

  private emitOrder(order: OrderRecord, atMs: number): void {
    this.context.emit({
      type: 'trading.order',
      atMs,
      orderId: order.id,
      agentId: order.agentId,
      symbol: order.symbol,
      side: order.side,
      orderType: order.type,
      status: order.status,
      amountMicro: order.amountMicro,
      feeMicro: order.feeMicro,
      fillPrice: order.fillPrice === null ? null : formatPrice(order.fillPrice),
    });
  }

  private emitCancelled(order: OrderRecord, cause: 'agent' | 'unfundable', atMs: number): void {
    this.context.emit({
      type: 'trading.cancelled',
      atMs,
      orderId: order.id,
      agentId: order.agentId,
      symbol: order.symbol,
      cause,
    });
  }

  /** `held`: the margin the position held; `shortfall`: the loss beyond it, which the insurance fund covers. */
  private emitLiquidated(
    position: PositionRecord,
    at: { mark: bigint; held: Micro; shortfall: Micro },
    atMs: number,
  ): void {
    this.context.emit({
      type: 'trading.liquidated',
      atMs,
      positionId: position.id,
      agentId: position.agentId,
      symbol: position.symbol,
      markPrice: formatPrice(at.mark),
      marginMicro: at.held,
      shortfallMicro: at.shortfall,
    });
  }

  /** After a request changed what is open: the tick at the next boundary (it plans onward), and funding. */
  private armSoon(nowMs: number): void {
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
      const found = this.plan(atMs, horizonMs);
      if (found === null) this.planHorizonTicks = Math.min(PLAN_HORIZON_MAX_TICKS, this.planHorizonTicks * 4);
      // One boundary early: the tick that acts is then queued by the one before it, as stepping queues it,
      // so it meets the other timers of its instant in the same order.
      this.armAt(found === null ? horizonMs : Math.max(atMs + tickMs, found - tickMs));
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
    const found = this.plan(atMs, nextBoundary(atMs - lateMs, this.config.fundingPeriodMs) + lateMs);
    if (found !== null) this.armAt(Math.max(nextBoundary(atMs, tickMs), found - tickMs));
    else if (this.tickAtMs === null) this.armAt(nextBoundary(atMs, tickMs));
  }

  /** The first boundary in (fromMs, toMs] at which a tick can act, or null. */
  private plan(fromMs: number, toMs: number): number | null {
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
    const tick = this.fundingSpans
      ? nextActiveTickWithFunding({ ...input, ...this.fundingWork(), positions: input.positions }, ...ticks)
      : nextActiveTick(input, ...ticks);
    return tick === null ? null : tick * tickMs;
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

function insufficient(balanceMicro: Micro, neededMicro: Micro): Failure {
  return fail(
    'INSUFFICIENT_BALANCE',
    `balance ${formatDecimal(balanceMicro < 0n ? 0n : balanceMicro)} is below the ${formatDecimal(neededMicro)} this order needs`,
  );
}

/** The first multiple of `periodMs` strictly after `ms`. */
function nextBoundary(ms: number, periodMs: number): number {
  return (Math.floor(ms / periodMs) + 1) * periodMs;
}
