/**
 * Funding over a span of instants, applied at once (docs/decisions/trading.md "Funding over a
 * span"): when the platform reaches an instant (a trading tick, or the end of any advance), every
 * funding instant since the last one applied is applied, each position in one pass over them
 * (funding-run.ts) against marks and rates computed once per market (funding-window.ts). The
 * result is the instant-by-instant timer's: the same margins, funding totals, house and insurance
 * balances, ledger transfer count (one net transfer per position stands for the ones stepping
 * makes, Ledger.transferNet) and liquidations — each at its own instant and mark, in the order
 * stepping meets them (instant, then the open-position order). Nothing else reads or moves what
 * funding moves between two instants, so applying a span at its end changes no other outcome.
 * What differs: no `trading.funding` event per position and instant (afp serve, which funds in
 * spans, has no event consumer; the simulator's invariants watch the timer's).
 */
import type { Ledger } from '../../core/ledger.ts';
import { freshTally, runFunding, type FundingTally } from './funding-run.ts';
import { projectedFunding } from './funding-projection.ts';
import { WINDOW, termsOf, windowPrices, type FundingInstants } from './funding-window.ts';
import { marketBySymbol, type Market } from './market-catalogue.ts';
import type { PriceBook } from './price-book.ts';
import type { MutablePosition } from './trading-book.ts';
import { TRADING_HOUSE, marginAccount } from './trading-record.ts';

export interface SpanWork {
  readonly ledger: Ledger;
  readonly prices: PriceBook;
  readonly maintenanceBps: bigint;
  readonly instants: FundingInstants;
  /** The open positions, in the order the timer visits them. */
  readonly positions: readonly MutablePosition[];
  /** trading.ts's liquidation (margin forfeited, triggers ended, event emitted). */
  readonly liquidate: (position: MutablePosition, mark: bigint, atMs: number) => void;
}

/** Applies funding instants fromIndex..throughIndex (inclusive) to the open positions. */
export function settleSpan(work: SpanWork, fromIndex: number, throughIndex: number): void {
  if (throughIndex < fromIndex || work.positions.length === 0) return;
  const tallies = work.positions.map((position) => tallyOf(work, position, fromIndex, throughIndex));
  const liquidated: number[] = [];
  work.positions.forEach((position, order) => {
    const tally = tallies[order] as FundingTally;
    book(work.ledger, position, tally);
    if (tally.liquidatedAt >= 0) liquidated.push(order);
  });
  liquidated.sort(
    (a, b) => (tallies[a] as FundingTally).liquidatedAt - (tallies[b] as FundingTally).liquidatedAt || a - b,
  );
  for (const order of liquidated) {
    const position = work.positions[order] as MutablePosition;
    const index = (tallies[order] as FundingTally).liquidatedAt;
    const market = marketBySymbol(position.symbol) as Market;
    work.liquidate(position, work.prices.mid(market, atMsOf(index, work.instants)), atMsOf(index, work.instants));
  }
}

function atMsOf(index: number, instants: FundingInstants): number {
  return index * instants.periodMs + instants.lateMs;
}

/** One position's funding over the span, window by window, until it is liquidated. */
function tallyOf(work: SpanWork, position: MutablePosition, fromIndex: number, throughIndex: number): FundingTally {
  const market = marketBySymbol(position.symbol) as Market;
  const terms = termsOf(position, work.maintenanceBps);
  const tally = freshTally(position.marginMicro);
  for (let window = Math.floor(fromIndex / WINDOW); window <= Math.floor(throughIndex / WINDOW); window++) {
    const base = window * WINDOW;
    const range = { from: Math.max(fromIndex, base) - base, to: Math.min(throughIndex + 1, base + WINDOW) - base };
    if (!projectedFunding(position, window, range, tally))
      runFunding(terms, windowPrices(work.prices, market, window, work.instants), tally, range);
    if (tally.liquidatedAt >= 0) {
      tally.liquidatedAt += base;
      break;
    }
  }
  return tally;
}

/** Agent id → its margin account's name, one string per agent (its hash computed once, not per span). */
const ACCOUNTS = new Map<string, string>();
const ACCOUNTS_MAX = 100_000;

function marginAccountOf(agentId: string): string {
  let account = ACCOUNTS.get(agentId);
  if (account === undefined) {
    account = marginAccount(agentId);
    if (ACCOUNTS.size >= ACCOUNTS_MAX) ACCOUNTS.clear();
    ACCOUNTS.set(agentId, account);
  }
  return account;
}

/** The span's funding of one position: one net transfer standing for stepping's, and its fields. */
function book(ledger: Ledger, position: MutablePosition, tally: FundingTally): void {
  const net = BigInt(tally.netPaidMicro);
  const account = marginAccountOf(position.agentId);
  const movements = tally.movements;
  const reference = position.id;
  ledger.transferNet(
    net === 0n
      ? null
      : net > 0n
        ? { from: account, to: TRADING_HOUSE, amountMicro: net, reason: 'trading.funding', reference }
        : { from: TRADING_HOUSE, to: account, amountMicro: -net, reason: 'trading.funding', reference },
    movements,
  );
  position.marginMicro = BigInt(tally.marginMicro);
  position.fundingPaidMicro += net;
}
