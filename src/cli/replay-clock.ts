/**
 * The target's clock during `afp replay`: whether it follows the record (an afp serve, per
 * --sync-clock), and the pacing before each exchange (--speed), which moves a synced clock to the
 * exchange's instant. Its own file: replay-record.ts sends the exchanges; this decides when, and
 * at what target time.
 */
import type { ClockSyncState } from '../replay/diff-report.ts';
import type { RecordedExchange } from '../replay/record-format.ts';
import { AdminClient } from '../client/admin-client.ts';
import { LivenessError } from '../replay/replay-run.ts';
import type { Target } from '../live.ts';
import { dueOffsetMs } from '../replay/pacing.ts';
import type { ReplayFlags } from './replay-flags.ts';
import { type CommandFailure, invalidInput } from '../core/command-failure.ts';
import { abortableWait } from './replay-send.ts';

const CLOCK_TIMEOUT_MS = 5_000;

export type ClockDecision =
  | { readonly state: ClockSyncState; readonly mode: string | null }
  | { readonly failure: CommandFailure };

/** Whether and how the target's clock follows the record (see the file header). */
export async function decideClock(
  api: string,
  flags: ReplayFlags,
  record: { firstAtMs: number; startMs: number },
): Promise<ClockDecision> {
  const { firstAtMs } = record;
  if (flags.sync === 'off')
    return {
      state: { synced: false, exact: false, note: '--sync-clock off: time-derived values are not compared' },
      mode: null,
    };
  const clock = await readTargetClock(api, flags.timeoutMs);
  if (clock === null) {
    if (flags.sync === 'on')
      return {
        failure: invalidInput(
          `afp replay: --sync-clock on, but ${api} has no clock to move (GET /_afp/clock); use afp serve --clock manual`,
        ),
      };
    return {
      state: {
        synced: false,
        exact: false,
        note: 'the target has no clock to move (not afp serve): time-derived values are not compared',
      },
      mode: null,
    };
  }
  if (clock.nowMs > firstAtMs) {
    const why = `the target's clock (${new Date(clock.nowMs).toISOString()}) is past the record's first exchange (${new Date(firstAtMs).toISOString()}); start a fresh afp serve --clock manual --start ${new Date(record.startMs).toISOString()}`;
    if (flags.sync === 'on') return { failure: invalidInput(`afp replay: ${why}`) };
    return { state: { synced: false, exact: false, note: `${why}: time-derived values are not compared` }, mode: null };
  }
  const exact = clock.mode === 'manual';
  const note = exact
    ? "the target clock (manual) is moved to each exchange's instant: every value is compared"
    : `the target clock (${clock.mode}) is moved forward but keeps running: time-derived values are not compared`;
  return { state: { synced: true, exact, note }, mode: clock.mode };
}

async function readTargetClock(api: string, timeoutMs: number): Promise<{ nowMs: number; mode: string } | null> {
  const answer = await AdminClient.ofUrl(api, { timeoutMs: Math.min(timeoutMs, CLOCK_TIMEOUT_MS) }).clock();
  return answer.ok ? { nowMs: answer.value.nowMs, mode: answer.value.mode } : null;
}

async function moveTargetClock(
  api: string,
  toMs: number,
  timeoutMs: number,
): Promise<{ ok: true } | { ok: false; why: string }> {
  const answer = await AdminClient.ofUrl(api, { timeoutMs: Math.min(timeoutMs, CLOCK_TIMEOUT_MS) }).moveClock({ toMs });
  if (answer.ok) return { ok: true };
  switch (answer.kind) {
    case 'unreachable':
      throw new LivenessError(`the target's clock does not answer (POST ${api}/_afp/clock): ${answer.detail}`);
    case 'unreadable':
      return { ok: true };
    case 'status':
      return { ok: false, why: answer.message };
  }
}

/** The clock a replay through a dialect keeps: the target's own when it is an afp serve and --sync-clock allows, else none (said why). */
export async function dialectClock(
  target: Target,
  flags: ReplayFlags,
  times: { readonly firstAtMs: number; readonly startMs: number },
): ReturnType<typeof decideClock> {
  if (target.adminUrl !== null && flags.sync !== 'off') return decideClock(target.adminUrl, flags, times);
  const note =
    target.adminUrl === null
      ? 'the target has no clock to move (not afp serve): time-derived values are not compared'
      : '--sync-clock off: time-derived values are not compared';
  return { state: { synced: false, exact: false, note }, mode: null };
}

/** Why a replay stopped at Ctrl-C (its stop's reason). */
const INTERRUPTED = 'interrupted (Ctrl-C): this exchange and the ones after it were not sent';

/**
 * Waits for each exchange's turn (`--speed`), then moves a synced target clock to its instant. Once
 * `stop` is aborted (Ctrl-C) the wait ends and the exchange is not sent: LivenessError, the stop.
 */
export function pacedBeforeSend(options: {
  flags: ReplayFlags;
  api: string;
  clock: ClockSyncState;
  clockMode: string | null;
  stop: AbortSignal;
}): (exchange: RecordedExchange) => Promise<void> {
  const { flags, api, clock, stop } = options;
  let firstWallMs: number | null = null;
  let firstAtMs = 0;
  let clockAtMs = -1;
  return async (exchange) => {
    if (firstWallMs === null) {
      firstWallMs = Date.now();
      firstAtMs = exchange.at_ms;
    }
    const offsetMs = dueOffsetMs(exchange.at_ms, firstAtMs, flags.speed);
    if (offsetMs !== null) await abortableWait(firstWallMs + offsetMs - Date.now(), stop);
    if (stop.aborted) throw new LivenessError(INTERRUPTED);
    if (!clock.synced || exchange.at_ms <= clockAtMs) return;
    const moved = await moveTargetClock(api, exchange.at_ms, flags.timeoutMs);
    // A clock already past the instant (a funding deposit's confirmation moved it) is no failure.
    const ahead = !moved.ok && ((await readTargetClock(api, flags.timeoutMs))?.nowMs ?? -1) >= exchange.at_ms;
    if (!moved.ok && !ahead && options.clockMode === 'manual')
      throw new LivenessError(
        `cannot move the target's clock to ${new Date(exchange.at_ms).toISOString()}: ${moved.why}`,
      );
    clockAtMs = exchange.at_ms;
  };
}
