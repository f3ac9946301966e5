/**
 * The century of the bench's travel part (issue 43: "a 100-year move with open limit orders,
 * positions, escrows, domains, tournaments and pending chain transactions takes under 1 s"): an
 * in-process `afp serve` on 127.0.0.1 (manual clock) is given the century world
 * (century-world.ts: casino deposits, escrows, a dispute, a tournament, a challenge, a crash round,
 * a withdrawal under review, then open trading and a domain), and one POST /_afp/clock moves it 100
 * years while a probe sends GET /health every PROBE_EVERY_MS. Reported: the move's wall and CPU
 * time (loop-block.ts: the CPU time is the process's, server and probe, which a loaded machine does
 * not inflate), the longest /health wait, and the move's slices (clock-move.ts). The verdict is on
 * the CPU time, as the travel part's; the wall time stands beside it.
 */
import { startBlock } from '../src/server/loop-block.ts';
import type { ServeHandle } from '../src/server/listeners.ts';
import { buildWorld, DAY_MS, openTrading, urlTarget } from './century-world.ts';
import { probed } from './travel-probe.ts';

/** Issue 43's goal for the century move. */
export const TARGET_CENTURY_MS = 1_000;
const CENTURY_MS = 36_525 * DAY_MS;

export interface CenturyResult {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly healthWaitMsMax: number;
  readonly probes: number;
  readonly slices: number;
  readonly longestSliceMs: number;
  /** Open positions and orders when the move began (what it carried). */
  readonly openPositions: number;
  readonly openOrders: number;
}

export async function centuryMove(handle: ServeHandle, registerTrader: () => string): Promise<CenturyResult> {
  const api = handle.urls.api as string;
  await buildWorld(urlTarget(handle.urls));
  const nowMs = handle.clock.nowMs();
  handle.platform.advanceTo(nowMs);
  openTrading(handle.platform, nowMs, registerTrader());
  const openPositions = handle.platform.trading.book.openPositionCount;
  const openOrders = handle.platform.trading.book.openOrderCount;
  const block = startBlock();
  const measured = await probed(api, async () => {
    const response = await fetch(`${api}/_afp/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: CENTURY_MS }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200 || body['now_ms'] !== nowMs + CENTURY_MS)
      throw new Error(`century: the move answered ${response.status}: ${JSON.stringify(body)}`);
  });
  const took = block();
  const state = (await (await fetch(`${api}/_afp/state`)).json()) as { clock_moves: Record<string, number> };
  return {
    wallMs: took.wallMs,
    cpuMs: took.cpuMs,
    healthWaitMsMax: measured.healthWaitMsMax,
    probes: measured.probes,
    slices: Number(state.clock_moves['slices']),
    longestSliceMs: Number(state.clock_moves['longest_slice_ms']),
    openPositions,
    openOrders,
  };
}

export function centuryVerdict(result: CenturyResult): 'PASS' | 'MISS' {
  return result.cpuMs <= TARGET_CENTURY_MS ? 'PASS' : 'MISS';
}

export function centuryLine(result: CenturyResult): string {
  return (
    `  century  100-year move with ${result.openPositions} positions and ${result.openOrders} resting orders open (and every other timer): ` +
    `cpu ${result.cpuMs.toFixed(0)} ms (wall ${result.wallMs.toFixed(0)} ms, ${result.slices} slices, the longest ${result.longestSliceMs.toFixed(1)} ms; ` +
    `longest /health wait ${result.healthWaitMsMax.toFixed(1)} ms, ${result.probes} probes)  target <= ${TARGET_CENTURY_MS} ms  ${centuryVerdict(result)}`
  );
}
