/**
 * The targets the conformance suite runs against:
 *   - in-process: a fresh Platform behind the Dispatcher over ALL_ROUTES, through the in-process
 *     transport (JSON round-trip check on), with a VirtualClock the suite moves;
 *   - live: any URL (an `afp serve` or a deployment), its mounts found by `discoverTarget`, its
 *     clock moved through POST /_afp/clock only when GET /_afp/clock says 'manual' (exact instants);
 *     otherwise time-dependent cases are skipped with the reason in `clockNote`.
 * Non-goals: starting servers (the tests start `afp serve` and hand its URL to `liveConformanceTarget`).
 */
import { AdminClient } from '../client/admin-client.ts';
import { AfpClient } from '../client/client.ts';
import { httpTransport } from '../client/http-transport.ts';
import { inProcessTransport } from '../client/in-process.ts';
import { discoverTarget } from '../live.ts';
import type { Mount, MountUrls } from '../client/transport.ts';
import { VirtualClock } from '../core/clock.ts';
import { Dispatcher } from '../http/dispatcher.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { Platform } from '../platform/platform.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { ClockControl, ConformanceTarget } from './conformance-case.ts';

export const CONFORMANCE_TIMEOUT_MS = 10_000;
const IN_PROCESS_MOUNTS: readonly Mount[] = ['api', 'faucet', 'escrow', 'trading', 'domains'];

/** `defects` (tests of the suite itself): a deliberately broken platform the suite must catch. */
export function inProcessConformanceTarget(options: {
  seed: string;
  startMs: number;
  defects?: readonly DefectName[];
}): ConformanceTarget {
  const clock = new VirtualClock(options.startMs);
  const platform = new Platform({ seed: options.seed, startMs: options.startMs, defects: options.defects ?? [] });
  const transport = inProcessTransport({
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock,
    checkJsonRoundTrip: true,
  });
  const control: ClockControl = {
    advance: (deltaMs) => {
      clock.advance(deltaMs);
      return Promise.resolve();
    },
  };
  return {
    description: `in-process (seed ${options.seed}, virtual clock)`,
    client: () => new AfpClient(transport),
    mounts: IN_PROCESS_MOUNTS,
    clock: control,
    clockNote: null,
  };
}

export async function liveConformanceTarget(
  url: string,
  options: { timeoutMs?: number } = {},
): Promise<ConformanceTarget> {
  const timeoutMs = options.timeoutMs ?? CONFORMANCE_TIMEOUT_MS;
  const urls = await discoverTarget(url, { timeoutMs });
  return servedConformanceTarget(urls, `live ${url}`, timeoutMs);
}

/** A target at known mount URLs; its clock is moved only when GET <api>/_afp/clock says 'manual'. */
export async function servedConformanceTarget(
  urls: MountUrls,
  description: string,
  timeoutMs: number,
): Promise<ConformanceTarget> {
  const transport = httpTransport({ urls, timeoutMs });
  const client = new AfpClient(transport);
  const mounts = (Object.keys(urls) as Mount[]).filter((mount) => urls[mount] !== undefined);
  if (urls.api === undefined)
    return {
      description,
      client: () => client,
      mounts,
      clock: null,
      clockNote: 'the target has no style-B api mount, where afp serve keeps its clock (/_afp/clock)',
    };
  const doors = new AdminClient(transport);
  const clockAnswer = await doors.clock();
  if (!clockAnswer.ok && clockAnswer.kind === 'unreachable') throw new Error(clockAnswer.message);
  const manual = clockAnswer.ok && clockAnswer.value.mode === 'manual';
  const clockNote = manual
    ? null
    : !clockAnswer.ok
      ? `the target has no GET /_afp/clock (answered ${clockAnswer.status}), so its clock cannot be moved`
      : `the target's clock runs in '${clockAnswer.value.mode}' mode, so exact instants cannot be hit (start it with --clock manual)`;
  const control: ClockControl = { advance: (deltaMs) => advanceLiveClock(doors, deltaMs) };
  return { description, client: () => client, mounts, clock: manual ? control : null, clockNote };
}

async function advanceLiveClock(doors: AdminClient, deltaMs: number): Promise<void> {
  const answer = await doors.moveClock({ advanceMs: deltaMs });
  if (answer.ok) return;
  throw new Error(
    answer.kind === 'unreachable'
      ? answer.message
      : `POST /_afp/clock {advance_ms: ${deltaMs}} answered ${answer.status} ${JSON.stringify(answer.body)}`,
  );
}
