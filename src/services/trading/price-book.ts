/**
 * PriceBook: quotes of every market at an instant — the seeded path (price-path.ts) at the tick
 * containing the instant, times the scenario's price shocks that began at or before that tick,
 * with the market's spread around the mid — and whether a market accepts orders then (scenario
 * closures and the optional weekend schedule).
 *
 * Invariants: a quote is a pure function of (seed, shocks, market, tick); bid < mid < ask is not
 * promised for tiny prices (a spread below one price unit rounds away), bid ≤ mid ≤ ask is.
 * Shocks are permanent moves of an asset (its perpetual and spot market alike). A small memo of
 * the latest mid per market keeps repeated quotes within one tick cheap.
 */
import { assert } from '../../core/assert.ts';
import type { Market } from './market-catalogue.ts';
import { pathKeyOf } from './path-key.ts';
import { seedHashOf, volumeMicroAt } from './price-path.ts';
import type { TradingConfig } from './trading-config.ts';
import { TRADING_LIMITS, type MarketClosure, type PriceShock, type Quote } from './trading-record.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Closures and weekend days a search for the next open instant steps over before it gives up. */
const OPEN_SEARCH_STEPS = 16;

export class PriceBook {
  readonly seedHash: number;
  private readonly config: TradingConfig;
  private readonly shocks: readonly PriceShock[];
  private readonly closures: readonly MarketClosure[];
  /** symbol → [tick, mid] of the latest mid computed. */
  private readonly memo = new Map<string, [number, bigint]>();

  constructor(options: {
    seed: string;
    config: TradingConfig;
    shocks?: readonly PriceShock[];
    closures?: readonly MarketClosure[];
  }) {
    this.seedHash = seedHashOf(options.seed);
    this.config = options.config;
    this.shocks = [...(options.shocks ?? [])].sort(
      (a, b) => a.atMs - b.atMs || (a.base < b.base ? -1 : a.base > b.base ? 1 : 0),
    );
    this.closures = options.closures ?? [];
    assert(
      this.shocks.length <= TRADING_LIMITS.shocksMax && this.closures.length <= TRADING_LIMITS.closuresMax,
      'shocks and closures are bounded',
    );
    for (const shock of this.shocks)
      assert(
        Number.isSafeInteger(shock.moveBps) && shock.moveBps > -10_000 && shock.moveBps <= 100_000,
        'a shock keeps the price positive',
      );
  }

  tickOf(nowMs: number): number {
    return Math.floor(nowMs / this.config.tickMs);
  }

  /** How many ticks `ms` spans when it is a whole number of them (instants `ms` apart are then as many ticks apart); else null. */
  wholeTicks(ms: number): number | null {
    return ms % this.config.tickMs === 0 ? ms / this.config.tickMs : null;
  }

  /** The mid price at the tick containing `nowMs`, shocks included. */
  mid(market: Market, nowMs: number): bigint {
    const tick = this.tickOf(nowMs);
    const remembered = this.memo.get(market.symbol);
    if (remembered !== undefined && remembered[0] === tick) return remembered[1];
    const price = this.shocked(market, pathKeyOf(this.seedHash, market).priceAt(tick), tick);
    if (remembered === undefined) this.memo.set(market.symbol, [tick, price]);
    else {
      // Written in place: a century's move asks for a new tick's mid at every funding instant.
      remembered[0] = tick;
      remembered[1] = price;
    }
    return price;
  }

  /** Whether no scenario shock ever moves `market`'s asset (its mid is then the path's price, at least 1). */
  shockFree(market: Market): boolean {
    return this.shocks.every((shock) => shock.base !== market.base);
  }

  /** `mid` at tick `tick`, without the latest-mid memo (funding-window.ts reads each funding instant once). */
  midAtTick(market: Market, tick: number): bigint {
    return this.shocked(market, pathKeyOf(this.seedHash, market).priceAt(tick), tick);
  }

  /** The mid at tick `tick` had the path's log there been `logPpm` (monotone in it): the tick planner's threshold search. */
  midOfLog(market: Market, logPpm: number, tick: number): bigint {
    return this.shocked(market, pathKeyOf(this.seedHash, market).stepPrice(logPpm), tick);
  }

  /** The first tick after `tick` whose shocks differ from `tick`'s for this market (a shock took effect), or null. */
  nextShockTick(market: Market, tick: number): number | null {
    const tickStartMs = tick * this.config.tickMs;
    for (const shock of this.shocks) {
      if (shock.atMs > tickStartMs && shock.base === market.base) return Math.ceil(shock.atMs / this.config.tickMs);
    }
    return null;
  }

  /** The first instant at or after `ms` at which the market accepts orders (closures and weekends), within OPEN_SEARCH_STEPS steps; else null. */
  openFrom(market: Market, ms: number): number | null {
    let atMs = ms;
    for (let step = 0; step < OPEN_SEARCH_STEPS; step++) {
      if (this.isOpen(market, atMs)) return atMs;
      for (const closure of this.closures) {
        if (
          (closure.symbol === '*' || closure.symbol === market.symbol) &&
          atMs >= closure.fromMs &&
          atMs < closure.untilMs
        )
          atMs = closure.untilMs;
      }
      if (!this.isOpen(market, atMs) && this.config.weekendClosure)
        atMs = Math.max(atMs, (Math.floor(atMs / DAY_MS) + 1) * DAY_MS);
    }
    return null;
  }

  /** `price` with the shocks of `market`'s asset that began at or before tick `tick`, at least 1. */
  private shocked(market: Market, pathMid: bigint, tick: number): bigint {
    let price = pathMid;
    const tickStartMs = tick * this.config.tickMs;
    for (const shock of this.shocks) {
      if (shock.atMs > tickStartMs) break;
      if (shock.base !== market.base) continue;
      price = (price * BigInt(10_000 + shock.moveBps)) / 10_000n;
    }
    return price < 1n ? 1n : price;
  }

  /** The bid and ask around `mid`: half the market's spread either side. */
  bidAsk(market: Market, mid: bigint): { bid: bigint; ask: bigint } {
    const halfSpread = (mid * BigInt(market.spreadBps)) / 20_000n;
    return { bid: mid - halfSpread, ask: mid + halfSpread };
  }

  quote(market: Market, nowMs: number): Quote {
    const mid = this.mid(market, nowMs);
    const { bid, ask } = this.bidAsk(market, mid);
    const before = this.mid(market, nowMs - DAY_MS);
    // Re-memoize the current tick (the 24-hour look-back replaced it).
    this.memo.set(market.symbol, [this.tickOf(nowMs), mid]);
    const perp = market.kind === 'perp';
    const period = this.config.fundingPeriodMs;
    return {
      symbol: market.symbol,
      mid,
      bid,
      ask,
      change24hBps: ((mid - before) * 10_000n) / before,
      volume24hMicro: volumeMicroAt(this.seedHash, market, Math.floor(nowMs / HOUR_MS)),
      fundingRatePpm: perp ? this.fundingRatePpm(market, nowMs) : null,
      nextFundingAtMs: perp ? (Math.floor(nowMs / period) + 1) * period : null,
      open: this.isOpen(market, nowMs),
    };
  }

  /** The funding rate quoted during the 8-hour period containing `nowMs`. */
  fundingRatePpm(market: Market, nowMs: number): number {
    return pathKeyOf(this.seedHash, market).fundingRatePpm(this.fundingPeriodOf(nowMs));
  }

  /** The index of the funding period containing `nowMs` (PathKey.fundingRatePpm's argument). */
  fundingPeriodOf(nowMs: number): number {
    return Math.floor(nowMs / this.config.fundingPeriodMs);
  }

  /** Whether the market accepts orders at `nowMs`. */
  isOpen(market: Market, nowMs: number): boolean {
    for (const closure of this.closures) {
      if (
        (closure.symbol === '*' || closure.symbol === market.symbol) &&
        nowMs >= closure.fromMs &&
        nowMs < closure.untilMs
      )
        return false;
    }
    if (this.config.weekendClosure && (market.category === 'stock' || market.category === 'index')) {
      const weekday = (Math.floor(nowMs / DAY_MS) + 4) % 7; // 1970-01-01 was a Thursday (4); 6 = Saturday, 0 = Sunday
      if (weekday === 6 || weekday === 0) return false;
    }
    return true;
  }
}
