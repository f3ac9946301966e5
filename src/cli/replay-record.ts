/**
 * The replay of `afp replay` once its flags are valid and its record file readable (replay.ts checks
 * both with light imports, then loads this): the record validated and its header printed, the
 * target found, the exchanges sent and diffed, the reports written. Why apart from replay.ts: this
 * imports the record reader, the clients and the report writers, and a typo in a flag should not
 * pay for them. Output and exit codes are replay.ts's contract.
 * Beside it: the record's first pass (replay-record-check.ts), the target's clock and the pacing
 * (replay-clock.ts), one request sent with its retries (replay-send.ts).
 */
import { budgetLine } from './target-budget.ts';
import { concludeReplay, pacingLine } from './replay-conclusion.ts';
import type { MountUrls, Transport } from '../client/transport.ts';
import { httpTransport } from '../client/http-transport.ts';
import type { ClockSyncState } from '../replay/diff-report.ts';
import {
  recordedDepositsOf,
  recordedMintsOf,
  recordedTiersOf,
  type RecordedExchange,
} from '../replay/record-format.ts';
import { runReplay, type ReplayDeps } from '../replay/replay-run.ts';
import { ReplaySession } from '../replay/replay-session.ts';
import { sendDeposit, applyMint, applyTier, checkTargetPlatform } from './replay-target-setup.ts';
import { resolveTarget } from '../live/options.ts';
import { type Target, RemoteServeClock, discoverTarget } from '../live.ts';
import { Progress, WALL_PROGRESS_CLOCK } from './progress.ts';
import { SYSTEM_LIVE_CLOCK } from './audit-io.ts';
import type { Clock } from '../core/clock.ts';
import type { RecordFields } from './json-output.ts';
import { whileInterruptible, type InterruptIo } from './process-interrupt.ts';
import { reproduceReplayCommand, URL_PATTERN, type ReplayFlags } from './replay-flags.ts';
import { adminDoorLines, type AdminDoorFilter } from '../replay/admin-doors.ts';
import { exchangesToSend } from './replay-exchanges.ts';
import { CommandFailure, invalidInput, unresolvedTarget, unsettled, type Ending } from '../core/command-failure.ts';
import { validateRecord, type CheckedRecord } from './replay-record-check.ts';
import { decideClock, dialectClock, pacedBeforeSend } from './replay-clock.ts';
import { sendWithRetries } from './replay-send.ts';

export interface ReplayIo extends InterruptIo {
  out(text: string): void;
  err(text: string): void;
  readonly errIsTty?: boolean;
  readonly clock?: Clock;
}

/** Replays the record of `flags` (whose file replay.ts found readable); returns its ending (replay.ts's contract). */
export async function replayRecord(flags: ReplayFlags, io: ReplayIo, record: RecordFields): Promise<Ending> {
  const checked = await validateRecord(flags.file, io);
  if (checked instanceof CommandFailure) return checked;
  record({
    seed: checked.header.seed,
    scenario: checked.header.scenario,
    exchanges: checked.header.exchanges,
    target: flags.target,
    reproduce: reproduceReplayCommand(flags),
    out: flags.out,
  });
  const progress = new Progress({
    label: 'replay',
    unit: 'exchanges',
    total: checked.header.exchanges,
    write: (text) => io.err(text),
    isTty: io.errIsTty ?? false,
    quiet: flags.quiet,
    clock: io.clock ?? WALL_PROGRESS_CLOCK,
  });
  const { doors, exchanges } = exchangesToSend(flags.file, progress, flags.withAdmin);
  // Ctrl-C (or SIGTERM): no further exchange is sent (a pacing wait ends at once); the reports cover
  // what was sent, and the stop says it was interrupted (exit 4).
  return whileInterruptible(
    io,
    'afp replay: interrupted: sending no further exchange, then writing the reports',
    (stop) => replayTo({ flags, checked, progress, exchanges, doors, stop }, io, record),
  );
}

/** A replay once its record is checked: what to send, how far it got, and its Ctrl-C. */
interface ReplayRun {
  readonly flags: ReplayFlags;
  readonly checked: CheckedRecord;
  readonly progress: Progress;
  readonly exchanges: AsyncIterable<RecordedExchange>;
  readonly doors: AdminDoorFilter;
  readonly stop: AbortSignal;
}

/** The replay once the record is read: the target found, then the exchanges sent and the reports written. */
async function replayTo(replay: ReplayRun, io: ReplayIo, record: RecordFields): Promise<Ending> {
  const path = await replayPath(replay.flags);
  if (path.kind === 'failed') return path.exit;
  if (path.kind === 'dialect') return replayThroughTarget({ ...replay, target: path.target }, io, record);
  return replayVerbatim(replay, path.notServe, io, record);
}

/** The replay of the recorded requests as they are, to an afp serve or another URL, diffed answer by answer. */
async function replayVerbatim(
  replay: ReplayRun,
  notServe: string | null,
  io: ReplayIo,
  record: RecordFields,
): Promise<Ending> {
  const { flags, checked, progress, exchanges, doors, stop } = replay;
  const found = await discoverMounts(flags, checked, notServe, io);
  if (!('urls' in found)) return found;
  const { urls, api } = found;
  const clock = await decideClock(api, flags, {
    firstAtMs: checked.firstAtMs ?? checked.header.start_ms,
    startMs: checked.header.start_ms,
  });
  if ('failure' in clock) return clock.failure;
  announceClock(io, clock.state, checked.header.end_ms - (checked.firstAtMs ?? checked.header.end_ms), flags);
  const session = new ReplaySession({
    references: checked.references,
    exactTime: clock.state.exact,
    tiers: recordedTiersOf(checked.header),
    deposits: recordedDepositsOf(checked.header),
    mints: recordedMintsOf(checked.header),
  });
  io.out(`${await checkTargetPlatform({ api, header: checked.header, session, timeoutMs: flags.timeoutMs })}\n`);
  const deps = replayDeps({
    flags,
    api,
    transport: httpTransport({ urls, timeoutMs: flags.timeoutMs }),
    clock: clock.state,
    clockMode: clock.mode,
    stop,
  });
  const stopped = await runReplay(exchanges, session, deps);
  progress.finish();
  return concludeReplay(
    {
      recordPath: flags.file,
      header: checked.header,
      target: flags.target,
      speed: flags.speedText,
      clock: clock.state,
      totals: session.totals(),
      stop: stopped,
      reproduce: reproduceReplayCommand(flags),
      adminDoors: { skipped: doors.skippedDoors(), lines: adminDoorLines(doors, flags.withAdmin) },
    },
    flags.out,
    io,
    record,
  );
}

/** The target's mounts (GET /_afp/mounts), each the record sends to announced; else the replay ends before sending. */
async function discoverMounts(
  flags: ReplayFlags,
  checked: CheckedRecord,
  notServe: string | null,
  io: ReplayIo,
): Promise<{ urls: MountUrls; api: string } | Ending> {
  let urls: MountUrls;
  try {
    urls = await discoverTarget(flags.target, {
      timeoutMs: flags.timeoutMs,
      onNote: (note) => io.err(`afp replay: note: ${note}\n`),
    });
  } catch (error) {
    return unsettled(`afp replay: ${error instanceof Error ? error.message : String(error)}`);
  }
  const unsent = unsentMounts(checked.mounts, urls, flags.target, notServe);
  if (unsent !== null) return invalidInput(unsent);
  return { urls, api: urls.api as string };
}

/** The lines said before the first exchange: the clock decided, the pacing over the record's span, the budget. */
function announceClock(io: ReplayIo, clock: ClockSyncState, spanMs: number, flags: ReplayFlags): void {
  io.out(`clock: ${clock.synced ? 'synced' : 'not synced'} — ${clock.note}\n`);
  io.out(`${pacingLine(spanMs, flags.speed)}\n`);
  io.out(`${budgetLine(flags.budgetSeconds)}\n`);
}

type ReplayPath =
  /** `notServe`: why the URL is no afp serve (it answered, but not /_afp/mounts), or null. */
  | { readonly kind: 'verbatim'; readonly notServe: string | null }
  | { readonly kind: 'dialect'; readonly target: Target }
  | { readonly kind: 'failed'; readonly exit: Ending };

/**
 * Which replay: a target file, or an afp serve URL announcing a dialect other than the documents'
 * (`afp serve --dialect deployed`), goes through the target's dialect (operation-replay.ts); any
 * other URL gets the recorded requests as they are, diffed answer by answer (as before target files).
 */
async function replayPath(flags: ReplayFlags): Promise<ReplayPath> {
  const url = URL_PATTERN.test(flags.target);
  const resolved = await resolveTarget(flags.target, { timeoutMs: flags.timeoutMs });
  if (!resolved.ok)
    return url
      ? { kind: 'verbatim', notServe: resolved.kind === 'invalid' ? resolved.message : null }
      : {
          kind: 'failed',
          exit: unresolvedTarget(resolved.kind, `afp replay: ${resolved.message}`),
        };
  const documents = Object.values(resolved.value.services).every((service) => service.dialect !== 'deployed');
  return url && documents ? { kind: 'verbatim', notServe: null } : { kind: 'dialect', target: resolved.value };
}

/** The replay through a target's dialect: clock sync where the target is an afp serve, then operation-replay. */
async function replayThroughTarget(
  replay: ReplayRun & { readonly target: Target },
  io: ReplayIo,
  record: RecordFields,
): Promise<Ending> {
  const { flags, checked, target, stop } = replay;
  const firstAtMs = checked.firstAtMs ?? checked.header.start_ms;
  const clock = await dialectClock(target, flags, { firstAtMs, startMs: checked.header.start_ms });
  if ('failure' in clock) return clock.failure;
  announceClock(io, clock.state, checked.header.end_ms - firstAtMs, flags);
  const paced = pacedBeforeSend({
    flags,
    api: target.adminUrl ?? '',
    clock: clock.state,
    clockMode: clock.mode,
    stop,
  });
  // A manual serve's clock follows the record: calls keep the record's own pace (unspaced), and
  // a 429's window, which closes only when that clock moves, is waited out on it
  // (remote-serve-clock.ts), which learns where each sync moved it.
  const serveClock =
    clock.state.synced && clock.mode === 'manual' && target.adminUrl !== null
      ? await RemoteServeClock.ofManualServe(target.adminUrl)
      : null;
  const beforeSend = async (exchange: RecordedExchange): Promise<void> => {
    await paced(exchange);
    if (clock.state.synced) serveClock?.movedTo(exchange.at_ms);
  };
  // The dialect replay's code is loaded here: a replay of the recorded requests as they are pays nothing for it.
  const { runDialectReplay } = await import('./replay-dialect.ts');
  const code = await runDialectReplay({
    target,
    header: checked.header,
    exchanges: replay.exchanges,
    beforeSend,
    waitClock: serveClock ?? SYSTEM_LIVE_CLOCK,
    recordedTime: serveClock !== null,
    out: flags.out,
    failOn: flags.failOn,
    timeoutMs: flags.timeoutMs,
    reproduce: reproduceReplayCommand(flags),
    adminDoors: { filter: replay.doors, withAdmin: flags.withAdmin },
    io,
    record,
  });
  replay.progress.finish();
  return code;
}

/** Before anything is sent: the mounts the record sends to that the target does not announce, said; null when it announces them all. */
function unsentMounts(
  mounts: readonly string[],
  urls: MountUrls,
  target: string,
  notServe: string | null,
): string | null {
  const unsent = mounts.filter((mount) => urls[mount as keyof MountUrls] === undefined);
  if (unsent.length === 0) return null;
  const why = notServe === null ? '' : `\nafp replay: ${notServe}`;
  return `afp replay: the record sends to ${unsent.length === 1 ? 'mount' : 'mounts'} ${unsent.join(', ')}, which ${target} does not announce${why}`;
}

function replayDeps(options: {
  flags: ReplayFlags;
  api: string;
  transport: Transport;
  clock: ClockSyncState;
  clockMode: string | null;
  stop: AbortSignal;
}): ReplayDeps {
  const { flags, api, transport } = options;
  return {
    beforeSend: pacedBeforeSend(options),
    send: (request) => sendWithRetries(transport, request),
    applyTier: (call) => applyTier(api, call, flags.timeoutMs),
    applyDeposit: (call) => sendDeposit(api, call, flags.timeoutMs),
    applyMint: (call) => applyMint(api, call, flags.timeoutMs),
  };
}
