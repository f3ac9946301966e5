/**
 * Liquidation in the check model (spec "liquidation when the mark crosses the liquidation price,
 * with the loss never leaving an agent's balance negative"; docs/decisions/trading.md "Trading"): at the
 * first tick whose mid reaches a position's liquidation price (a long at or below it, a short at
 * or above; a long whose price is 0 never), the position ends and its whole margin is forfeited:
 * the loss at the mark goes to the house, what remains of the margin to insurance, and a loss
 * beyond the margin (the shortfall) is paid to the house by insurance. The agent's balance is not
 * touched, so it cannot go negative; the model counts liquidations and sums the shortfall.
 * Runs at every tick over the open positions in opening order, before the limit fills of the tick.
 */
import { assert } from '../../core/assert.ts';
import type { CheckModel } from '../check-model.ts';
import { liquidationPriceOf, unrealizedOf } from './model-positions.ts';
import type { ModelPosition } from './trading-state.ts';

/** Whether the mark of `atMs` has reached the position's liquidation price. */
export function crossed(model: Readonly<CheckModel>, position: ModelPosition, atMs: number): boolean {
  const prices = model.trading.prices;
  assert(prices !== null, 'liquidation is priced by the oracle');
  const mark = prices.mid(position.market, atMs);
  const liquidation = liquidationPriceOf(model, position);
  return position.side === 'long' ? liquidation > 0n && mark <= liquidation : mark >= liquidation;
}

/** Liquidates the position when the mark of `atMs` has crossed its liquidation price. */
export function liquidateIfCrossed(model: CheckModel, position: ModelPosition, atMs: number): void {
  if (!crossed(model, position, atMs)) return;
  const prices = model.trading.prices;
  assert(prices !== null, 'liquidation is priced by the oracle');
  const loss = -unrealizedOf(position, prices.mid(position.market, atMs));
  if (loss > position.marginMicro) model.trading.shortfallMicro += loss - position.marginMicro;
  model.trading.liquidations += 1;
  position.marginMicro = 0n;
  model.trading.positions = model.trading.positions.filter((open) => open !== position);
}

/** Every open position the mark of tick `atMs` has crossed, liquidated in opening order. */
export function liquidateCrossed(model: CheckModel, atMs: number): void {
  for (const position of [...model.trading.positions]) liquidateIfCrossed(model, position, atMs);
}
