/**
 * Funding in the check model (spec "funding applied to open positions every 8 hours";
 * docs/decisions/trading.md "Trading"): at each 00/08/16 UTC instant T every open position, in opening
 * order, pays (a long when the rate is positive, a short when it is negative) or receives the rate
 * quoted for the period that ends at T, on its notional at the mark of T (qty × mid, down):
 * a payment rounds up and is at most the margin, a receipt rounds down; both move the margin only,
 * never the balance. Right after its payment a position whose mark has crossed its (moved)
 * liquidation price is liquidated (model-liquidation.ts). Funding runs before the tick's
 * liquidations and limit fills of the same instant, so a position a limit opens at T pays from
 * the next instant on. Rates and marks come from the price oracle; the amounts are the model's.
 */
import { assert } from '../../core/assert.ts';
import type { Micro } from '../../core/money.ts';
import type { CheckModel } from '../check-model.ts';
import { liquidateIfCrossed } from './model-liquidation.ts';
import { ceilDiv, NOTIONAL_DIVISOR } from './model-trading.ts';
import type { ModelPosition } from './trading-state.ts';

const RATE_ONE_PPM = 1_000_000n;

/** The signed margin change of one position at funding instant `atMs` (negative: it pays). */
export function fundingMicro(model: Readonly<CheckModel>, position: ModelPosition, atMs: number): Micro {
  const prices = model.trading.prices;
  assert(prices !== null, 'funding is priced by the oracle');
  const rate = prices.fundingRatePpm(position.market, atMs - 1);
  if (rate === 0) return 0n;
  const notional = (position.qty * prices.mid(position.market, atMs)) / NOTIONAL_DIVISOR;
  const ratePpm = BigInt(Math.abs(rate));
  const pays = (rate > 0 && position.side === 'long') || (rate < 0 && position.side === 'short');
  if (!pays) return (notional * ratePpm) / RATE_ONE_PPM;
  const owed = ceilDiv(notional * ratePpm, RATE_ONE_PPM);
  return -(owed < position.marginMicro ? owed : position.marginMicro);
}

/** Applies the funding of instant `atMs` to every open position, each followed by its liquidation check. */
export function applyFunding(model: CheckModel, atMs: number): void {
  assert(atMs % model.config.trading.fundingPeriodMs === 0, 'funding runs at 00, 08 and 16 UTC');
  for (const position of [...model.trading.positions]) {
    position.marginMicro += fundingMicro(model, position, atMs);
    liquidateIfCrossed(model, position, atMs);
  }
}
