/**
 * Where `afp check` sends its requests, and a fresh (model, system) pair per run: the target's
 * interface, the run names that keep runs apart, and the instants and tolerances both targets
 * share. In-process: in-process-target.ts (a fresh Platform per run on a virtual clock); live
 * (`--target URL`): live-target.ts (one server shared by every run, its doors read in
 * live-target-doors.ts). Every capability a target switches off is reported as a note with its reason.
 */
import type { SentRequest } from '../live.ts';
import type { CheckCapabilities, CheckModel, RunNames } from './check-model.ts';
import type { CheckSystem } from './model-command.ts';
import type { ModelClosure } from './trading/trading-state.ts';

/** In-process runs start here: a fixed instant, so the same seed gives the same answers. */
export const CHECK_START_MS = Date.parse('2025-03-01T09:30:00.000Z');
/**
 * The market closures of every in-process run: BTC spot for the run's second and third hour, ETH
 * perpetual for its second; a live target's are read from GET /_afp/platform. Tests serve the
 * same windows from `afp serve` (marketClosuresFrom).
 */
export function marketClosuresFrom(startMs: number): ModelClosure[] {
  return [
    { symbol: 'BTC-USDC', fromMs: startMs + HOUR_MS, untilMs: startMs + 3 * HOUR_MS },
    { symbol: 'ETH-PERP', fromMs: startMs + HOUR_MS, untilMs: startMs + 2 * HOUR_MS },
  ];
}
const HOUR_MS = 3_600_000;
/** Time fields of a wall-clock target are compared within this distance of the model's estimate. */
export const LOOSE_TIME_TOLERANCE_MS = 5 * 60_000;
const IP_COUNTER_MAX = 0xffff;

export interface CheckRun {
  readonly model: CheckModel;
  readonly real: CheckSystem;
}

export interface CheckTarget {
  readonly description: string;
  readonly capabilities: CheckCapabilities;
  /** Why each switched-off capability is off, one line each. */
  readonly notes: readonly string[];
  /** What only the runs could tell (keyless 429s accepted unjudged), once they are over. */
  closingNotes?(): readonly string[];
  /** Live: the last request sent over HTTP (a failure's evidence); absent in-process. */
  lastRequest?(): SentRequest | null;
  newRun(): Promise<CheckRun>;
}

/** Agent ids `ck-<session>-r<run>-a<slot>` and IPs fdaf:<session>:<run>:<n>::1 (valid IPv6 text). */
export function runNames(session: string, runIndex: number): RunNames {
  const prefix = session === '' ? `ck-r${runIndex}` : `ck-${session}-r${runIndex}`;
  const sessionHex = (session === '' ? '0' : session)
    .replace(/[^0-9a-f]/g, '')
    .padStart(8, '0')
    .slice(-8);
  const runHex = (runIndex >>> 0).toString(16).padStart(8, '0');
  let counter = 0;
  return {
    agentId: (slot) => `${prefix}-a${slot}`,
    freshIp: () => {
      counter += 1;
      if (counter > IP_COUNTER_MAX) throw new Error(`a run uses at most ${IP_COUNTER_MAX} fresh IPs`);
      return `fdaf:${sessionHex.slice(0, 4)}:${sessionHex.slice(4)}:${runHex.slice(0, 4)}:${runHex.slice(4)}:${counter.toString(16)}::1`;
    },
  };
}
