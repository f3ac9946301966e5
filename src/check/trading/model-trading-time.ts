/**
 * What time does to trading in the check model, at its exact instants: prices move at one-minute
 * tick boundaries (UTC-aligned), and at every tick t while anything is open, in this order:
 * at a funding instant (00/08/16 UTC) the funding of every open position (model-funding.ts), then
 * the liquidation of every position whose mark crossed (model-liquidation.ts), then the fills of
 * the resting orders whose limit the quote crossed (model-limit-book.ts). A request at instant t
 * sees the tick of t as already run, so an advance to `toMs` runs the ticks in (now, toMs].
 * Needs the price oracle: without one (a target that does not say its seed) time never moves
 * while trading is open (command-trading.ts switches trading off).
 */
import { assert } from '../../core/assert.ts';
import type { CheckModel } from '../check-model.ts';
import { applyFunding } from './model-funding.ts';
import { fillCrossedOrders } from './model-limit-book.ts';
import { liquidateCrossed } from './model-liquidation.ts';

function anythingOpen(model: Readonly<CheckModel>): boolean {
  return model.trading.positions.length > 0 || model.trading.orders.some((order) => order.status === 'open');
}

/** The first multiple of `periodMs` strictly after `ms`. */
function nextBoundary(ms: number, periodMs: number): number {
  return (Math.floor(ms / periodMs) + 1) * periodMs;
}

/** Runs the trading ticks in (model.nowMs, toMs]; `feeCharged` hears of every fee a limit fill paid. */
export function advanceTrading(model: CheckModel, toMs: number, feeCharged: (atMs: number) => void): void {
  if (!anythingOpen(model)) return;
  assert(model.trading.prices !== null, 'time moves with trading open only when the model has the prices');
  const { tickMs, fundingPeriodMs } = model.config.trading;
  for (let atMs = nextBoundary(model.nowMs, tickMs); atMs <= toMs && anythingOpen(model); atMs += tickMs) {
    if (atMs % fundingPeriodMs === 0) applyFunding(model, atMs);
    liquidateCrossed(model, atMs);
    fillCrossedOrders(model, atMs, feeCharged);
  }
}

/**
 * Instants ahead where trading changes by itself and off-by-one bugs live: the closures' edges,
 * and while a position is open the next funding instant (advance-time lands on each exactly and
 * 1 ms either side).
 */
export function tradingBoundaries(model: Readonly<CheckModel>): number[] {
  const edges = model.trading.closures
    .flatMap((closure) => [closure.fromMs, closure.untilMs])
    .filter((ms) => ms > model.nowMs);
  if (model.trading.positions.length > 0) edges.push(nextBoundary(model.nowMs, model.config.trading.fundingPeriodMs));
  return edges;
}
