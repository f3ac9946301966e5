/**
 * The advance-time command: moves the target's clock (the VirtualClock in-process, POST
 * /_afp/clock on a live afp server with a manual clock) and the model's time together, then the
 * frame reads every balance back (expiries, dispute windows and referral sweeps move money).
 * A step is either a fixed duration or a landing on one of the model's own boundaries (an
 * escrow's expires_at, a dispute window's end, a B cooldown's end, the next referral sweep),
 * exactly or 1 ms either side: the instants where off-by-one bugs live.
 */
import { SLOT_COUNT, type CheckModel } from './check-model.ts';
import type { CommandSpec } from './model-command.ts';
import { advanceModel, timeBoundaries } from './model-time.ts';
import { syncTradingAfterAdvance, tradingSyncCharges } from './trading/command-trading.ts';
import { tradingSlots } from './trading/model-trading.ts';

export type TimeStep =
  | { readonly kind: 'by'; readonly ms: number }
  | { readonly kind: 'boundary'; readonly pick: number; readonly offsetMs: -1 | 0 | 1 };

/** The instant a step lands on, or null when it would not move time forward. */
export function stepTargetMs(model: Readonly<CheckModel>, step: TimeStep): number | null {
  if (step.kind === 'by') return step.ms > 0 ? model.nowMs + step.ms : null;
  const boundaries = timeBoundaries(model);
  const boundary = boundaries[step.pick % boundaries.length];
  if (boundary === undefined) return null;
  const target = boundary + step.offsetMs;
  return target > model.nowMs ? target : null;
}

export function advanceTimeCommand(step: TimeStep): CommandSpec {
  const label =
    step.kind === 'by'
      ? `advanceTime(+${durationText(step.ms)})`
      : `advanceTime(to boundary#${step.pick}${step.offsetMs === 0 ? '' : ` ${step.offsetMs > 0 ? '+' : '−'}1 ms`})`;
  return {
    label,
    applicable: (model) => model.capabilities.advance && stepTargetMs(model, step) !== null,
    charges: tradingSyncCharges,
    parties: () => Array.from({ length: SLOT_COUNT }, (_, slot) => slot),
    execute: async (model, system) => {
      const target = stepTargetMs(model, step);
      if (target === null) throw new Error(`${label}: precondition broken, no instant ahead`);
      const tradingParties = tradingSlots(model);
      await system.moveClock(target);
      advanceModel(model, target);
      await syncTradingAfterAdvance(model, system, { label, slots: tradingParties });
    },
  };
}

export function durationText(ms: number): string {
  const units: readonly [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  for (const [size, unit] of units) if (ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}
