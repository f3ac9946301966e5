// Funding in spans (funding-spans.ts, the tick planner across instants: funding-plan.ts) against
// its stepping twin (issue 71 part 4): fast-check draws a small population — perpetual positions
// of both sides at 1x to 10x on a few markets, resting limit orders near the price, a stop-loss or
// take-profit — and a span of days to weeks (crossing a window of funding instants,
// funding-window.ts), cut at random instants where both twins get the same request (a market
// order, a close, a limit, a cancel). One platform funds in spans and plans its ticks; the twin
// ticks every minute and funds instant by instant with the funding timer. Every answer, and at
// every cut and at the end the comparable digest (comparable-digest.ts: balances, the ledger's
// transfer count, positions with their margins and funding, orders, triggers, liquidations and
// fills, the risk book, the other timers), must agree; the liquidations and fills seen are
// counted so the runs are known to reach them. Beside it, one instant of the double-precision
// loop (funding-run.ts) against the timer's bigint arithmetic, at quantities, marks and margins
// drawn onto the roundings' and the liquidation's boundaries; and a run over many instants
// against them stepped one by one (the margin and movements after each), from margins far from liquidation (where the run checks no
// instant for one, FastStep.far) to margins near it.
// Size: AFP_PROPERTY_RUNS runs (default 12, seconds); AFP_PROPERTY_SEED fixes the seed (default 71).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { usdc } from '../../../src/core/money.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { exactStep, freshTally, priceReach, runFunding } from '../../../src/services/trading/funding-run.ts';
import { marketBySymbol } from '../../../src/services/trading/market-catalogue.ts';
import { addAgent } from '../../fixtures/agents.ts';
import { comparableDigest } from './comparable-digest.ts';

const RUNS = Number(process.env['AFP_PROPERTY_RUNS'] ?? 12);
const SEED = Number(process.env['AFP_PROPERTY_SEED'] ?? 71);
const MINUTE = 60_000;
const DAY = 86_400_000;
/** Funding instant 61,440 (a window boundary: 30 × 2,048) is 2026-01-26 08:00 UTC; the runs start before it and cross it. */
const START = Date.UTC(2026, 0, 20);
const SYMBOLS = ['BTC-PERP', 'DOGE-PERP', 'SOL-PERP', 'EUR-PERP'];

interface Opening {
  readonly symbol: number;
  readonly side: 'buy' | 'sell';
  readonly leverage: number;
  readonly amount: number;
}

interface Cut {
  /** Minutes after the previous cut (0: the same instant). */
  readonly afterMinutes: number;
  readonly request: 'market' | 'close' | 'limit' | 'cancel' | 'none';
  readonly pick: number;
}

const opening = fc.record({
  symbol: fc.nat({ max: SYMBOLS.length - 1 }),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  leverage: fc.integer({ min: 1, max: 10 }),
  amount: fc.integer({ min: 20, max: 3_000 }),
});
const cut = fc.record({
  afterMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 600 }), fc.integer({ min: 600, max: 9 * 1_440 })),
  request: fc.constantFrom('market' as const, 'close' as const, 'limit' as const, 'cancel' as const, 'none' as const),
  pick: fc.nat({ max: 1_000 }),
});

const seen = { liquidated: 0, filled: 0, funded: 0 };

function platformOf(stepping: boolean, agents: number): Platform {
  const platform = new Platform({ seed: 'spans', startMs: START, fundingSpans: !stepping });
  platform.trading.stepEveryTick = stepping;
  for (let index = 0; index < agents; index++)
    addAgent(platform, `a${index}`, { createdAtMs: START, fundMicro: usdc(20_000) });
  return platform;
}

const text = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item));

/** One request on a platform at `nowMs` (advanced there first); its answer as text. */
function send(platform: Platform, request: Cut['request'] | Opening, pick: number, nowMs: number): string {
  platform.advanceTo(nowMs);
  const trading = platform.trading;
  const agentId = `a${pick % 3}`;
  if (typeof request === 'object' || request === 'market' || request === 'limit') {
    const order: Opening =
      typeof request === 'object'
        ? request
        : {
            symbol: pick % SYMBOLS.length,
            side: pick % 2 === 0 ? 'buy' : 'sell',
            leverage: 1 + (pick % 10),
            amount: 100,
          };
    const symbol = SYMBOLS[order.symbol] as string;
    const mid = trading.prices.mid(marketBySymbol(symbol) as NonNullable<ReturnType<typeof marketBySymbol>>, nowMs);
    const away = BigInt(10 + (pick % 60));
    const limit = order.side === 'buy' ? (mid * (10_000n - away)) / 10_000n : (mid * (10_000n + away)) / 10_000n;
    return text(
      trading.place(
        {
          agentId,
          symbol,
          side: order.side,
          type: request === 'limit' ? 'limit' : 'market',
          amountMicro: usdc(order.amount),
          leverage: order.leverage,
          limitPrice: request === 'limit' ? limit : null,
        },
        nowMs,
      ),
    );
  }
  if (request === 'close') {
    const open = trading.book.openPositionList();
    const position = open[pick % Math.max(1, open.length)];
    return position === undefined
      ? 'none'
      : text(trading.closePosition({ agentId: position.agentId, positionId: position.id }, nowMs));
  }
  if (request === 'cancel') {
    const orders = trading.book.openOrderList();
    const order = orders[pick % Math.max(1, orders.length)];
    return order === undefined ? 'none' : text(trading.cancel({ agentId: order.agentId, orderId: order.id }, nowMs));
  }
  return 'none';
}

/** A stop-loss below (long) or above (short) the mark on every open position, 3% away. */
function protect(platform: Platform, nowMs: number): string[] {
  return platform.trading.book.openPositionList().map((position) => {
    const mark = platform.trading.prices.mid(marketBySymbol(position.symbol) as never, nowMs);
    const triggerPrice = position.side === 'long' ? (mark * 97n) / 100n : (mark * 103n) / 100n;
    return text(
      platform.trading.setTrigger(
        { agentId: position.agentId, positionId: position.id, kind: 'stop-loss', triggerPrice },
        nowMs,
      ),
    );
  });
}

describe('funding in spans', () => {
  test('equals its stepping twin: answers, balances, positions, liquidations and fills', () => {
    fc.assert(
      fc.property(
        fc.array(opening, { minLength: 1, maxLength: 6 }),
        fc.array(cut, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (openings, cuts, protectFirst) => {
          const jump = platformOf(false, 3);
          const step = platformOf(true, 3);
          let count = 0;
          jump.onEvent((event) => {
            if (event.type === 'trading.liquidated') seen.liquidated++;
            if (event.type === 'trading.filled') seen.filled++;
          });
          step.onEvent((event) => {
            if (event.type === 'trading.funding') seen.funded++;
          });
          for (const one of openings) expect(send(jump, one, count, START)).toBe(send(step, one, count++, START));
          if (protectFirst) expect(protect(jump, START)).toEqual(protect(step, START));
          expect(send(jump, 'limit', 7, START)).toBe(send(step, 'limit', 7, START));
          let nowMs = START;
          for (const next of cuts) {
            nowMs += next.afterMinutes * MINUTE;
            expect(send(jump, next.request, next.pick, nowMs)).toBe(send(step, next.request, next.pick, nowMs));
            expect(comparableDigest(jump, { fundings: true })).toBe(comparableDigest(step, { fundings: true }));
          }
          const endMs = Math.max(nowMs, START + 7 * DAY) + 3 * DAY + 1_234;
          jump.advanceTo(endMs);
          step.advanceTo(endMs);
          expect(comparableDigest(jump, { fundings: true })).toBe(comparableDigest(step, { fundings: true }));
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect(seen.funded).toBeGreaterThan(0);
    expect(seen.liquidated).toBeGreaterThan(0);
    expect(seen.filled).toBeGreaterThan(0);
  });

  test("one instant in doubles equals the timer's bigint arithmetic, at the edges of every rounding", () => {
    // Quantities and marks drawn so that qty × mark often lands on or next to a multiple of 10^10,
    // margins on or next to a liquidation boundary, and values up to the fast path's limit.
    const edge = fc.oneof(fc.constant(0n), fc.constant(1n), fc.constant(-1n), fc.bigInt({ min: -3n, max: 3n }));
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 44n }),
        fc.bigInt({ min: 1n, max: 2n ** 42n }),
        edge,
        fc.bigInt({ min: 0n, max: 2n ** 44n }),
        fc.integer({ min: -500, max: 500 }),
        fc.constantFrom('long' as const, 'short' as const),
        fc.integer({ min: 0, max: 2_000 }),
        fc.option(edge, { freq: 2 }),
        (qty, entry, nudge, drawnMargin, rate, side, maintenanceBps, atBoundary) => {
          // A mark whose notional is (about) a whole number of micro-USDC: qty × mark near k × 10^10.
          const aligned = ((entry * qty + 5_000_000_000n) / 10_000_000_000n) * 10_000_000_000n;
          const mark = aligned / qty + nudge > 0n ? aligned / qty + nudge : 1n;
          if (mark >= 2n ** 52n) return;
          // Or a margin on (or next to) the one at which the liquidation price meets the mark.
          const maintenance = (entry * BigInt(maintenanceBps)) / 10_000n;
          const gap = side === 'long' ? entry + maintenance - mark + 1n : mark - entry + maintenance + 1n;
          const boundary = (gap * qty) / 10_000_000_000n + (atBoundary ?? 0n);
          const margin = atBoundary !== null && boundary >= 0n && boundary < 2n ** 52n ? boundary : drawnMargin;
          const terms = { side, qty, entry, maintenanceBps: BigInt(maintenanceBps) };
          const exact = exactStep(terms, margin, mark, rate);
          const tally = freshTally(margin);
          runFunding(
            terms,
            {
              marks: Float64Array.of(Number(mark)),
              rates: Int32Array.of(rate),
              fast: true,
              exactMarks: null,
              reach: null,
            },
            tally,
            { from: 0, to: 1 },
          );
          expect(BigInt(tally.marginMicro)).toBe(margin - exact.paymentMicro);
          expect(tally.liquidatedAt === 0).toBe(exact.liquidated);
        },
      ),
      { numRuns: RUNS * 500, seed: SEED },
    );
  });

  test('a run over many instants equals them stepped one by one, far from liquidation (no instant checked) or near it', () => {
    // Marks within ±30% of the entry, rates of either sign, margins from a sliver of the notional to
    // twice it, a run from any offset: the run's margins, totals and liquidation against exactStep's.
    const ends = { liquidated: 0, whole: 0 };
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 40n }),
        fc.bigInt({ min: 1_000n, max: 2n ** 36n }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.constantFrom('long' as const, 'short' as const),
        fc.array(fc.tuple(fc.integer({ min: -3_000, max: 3_000 }), fc.integer({ min: -500, max: 500 })), {
          minLength: 1,
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.nat(),
        (qty, entry, maintenanceBps, side, instants, marginPerMille, start) => {
          const marks = instants.map(([bps]) => (entry * BigInt(10_000 + bps)) / 10_000n || 1n);
          const rates = instants.map(([, rate]) => rate);
          const margin = (((qty * entry) / 10_000_000_000n) * BigInt(marginPerMille)) / 10_000n;
          const terms = { side, qty, entry, maintenanceBps: BigInt(maintenanceBps) };
          const from = start % instants.length;
          const stepped = { margin, moves: 0, liquidatedAt: -1 };
          const margins: bigint[] = [];
          const moves: number[] = [];
          for (let index = from; index < instants.length && stepped.liquidatedAt < 0; index++) {
            const one = exactStep(terms, stepped.margin, marks[index] as bigint, rates[index] as number);
            if (one.paymentMicro !== 0n) stepped.moves++;
            stepped.margin -= one.paymentMicro;
            margins.push(stepped.margin);
            moves.push(stepped.moves);
            if (one.liquidated) stepped.liquidatedAt = index;
          }
          const markNumbers = Float64Array.from(marks, Number);
          const rateInts = Int32Array.from(rates);
          const prices = {
            marks: markNumbers,
            rates: rateInts,
            fast: true,
            exactMarks: null,
            reach: priceReach(markNumbers, rateInts),
          };
          const tally = freshTally(margin);
          const trace = { margins: new Float64Array(instants.length + 1), moves: new Uint16Array(instants.length + 1) };
          runFunding(terms, prices, tally, { from, to: instants.length }, trace);
          expect(BigInt(tally.marginMicro)).toBe(stepped.margin);
          expect([BigInt(tally.netPaidMicro), tally.movements, tally.liquidatedAt]).toEqual([
            margin - stepped.margin,
            stepped.moves,
            stepped.liquidatedAt,
          ]);
          const recorded = { from: from + 1, to: from + 1 + margins.length };
          expect(Array.from(trace.margins.subarray(recorded.from, recorded.to), BigInt)).toEqual(margins);
          expect(Array.from(trace.moves.subarray(recorded.from, recorded.to))).toEqual(moves);
          if (stepped.liquidatedAt >= 0) ends.liquidated++;
          else ends.whole++;
        },
      ),
      { numRuns: RUNS * 100, seed: SEED },
    );
    expect(ends.liquidated).toBeGreaterThan(0);
    expect(ends.whole).toBeGreaterThan(0);
  });
});
