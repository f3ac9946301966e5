// The digest two platforms share when they hold the same state but armed their trading ticks
// differently (the tick planner and its stepping twin): the state digest's text with the timer
// queue, the price memo and the tick bookkeeping written empty, plus the pending timers other than
// trading ticks as (instant, payload) in queue order. Sequence numbers are left out: the twin
// queues one tick a minute, the planner a few, so the counters differ while the order of every
// other timer — and so every state the ticks touch — must not.
import { createHash } from 'node:crypto';
import { Scheduler } from '../../../src/core/scheduler.ts';
import type { Platform } from '../../../src/platform/platform.ts';
import { encodeState, type TransientFields } from '../../../src/platform/state-codec.ts';
import { PLATFORM_TRANSIENT, stateClassRegistry } from '../../../src/platform/state-classes.ts';
import { EventBus } from '../../../src/services/shared/events.ts';
import { PriceBook } from '../../../src/services/trading/price-book.ts';
import { TradingService } from '../../../src/services/trading/trading.ts';

const COMPARABLE: TransientFields = new Map([
  ...PLATFORM_TRANSIENT,
  [Scheduler.prototype, { heap: () => [], nextSequence: () => 0 }],
  [EventBus.prototype, { listeners: () => [] }],
  [PriceBook.prototype, { memo: () => new Map() }],
  [
    TradingService.prototype,
    {
      tickAtMs: () => null,
      relayAtMs: () => null,
      planned: () => null,
      tickTimersMs: () => new Set(),
      stepEveryTick: () => false,
      planHorizonTicks: () => 0,
    },
  ],
]);

/**
 * Also leaves out how funding was driven (`fundings: true`): the funding timer's bookkeeping and
 * queued funding timers, for a platform funding in spans against one funding by the timer.
 */
const FUNDING_DRIVEN: TransientFields = new Map([
  ...COMPARABLE,
  [
    TradingService.prototype,
    {
      ...COMPARABLE.get(TradingService.prototype),
      fundingArmed: () => false,
      fundedAtMs: () => -1,
      fundingSpans: () => false,
    },
  ],
]);

export function comparableDigest(platform: Platform, options: { fundings?: boolean } = {}): string {
  const fields = options.fundings === true ? FUNDING_DRIVEN : COMPARABLE;
  const state = JSON.stringify(encodeState(platform, stateClassRegistry(), fields, { inline: true }));
  const heap = (
    platform.timers as unknown as { heap: Array<{ atMs: number; sequence: number; payload: { kind: string } }> }
  ).heap;
  const pending = heap
    .filter(
      (event) =>
        event.payload.kind !== 'trading.tick' &&
        (options.fundings !== true || event.payload.kind !== 'trading.funding'),
    )
    .sort((a, b) => a.atMs - b.atMs || a.sequence - b.sequence)
    .map((event) => [event.atMs, event.payload]);
  return createHash('sha256').update(state).update(JSON.stringify(pending)).digest('hex');
}
