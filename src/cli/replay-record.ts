/**
 * The replay of `afp replay` once its flags are valid and its record file readable (replay.ts checks
 * both with light imports, then loads this): the record validated and its header printed, the
 * target found, the exchanges sent and diffed, the reports written. Why apart from replay.ts: this
 * imports the record reader, the clients and the report writers, and a typo in a flag should not
 * pay for them. Output and exit codes are replay.ts's contract.
 */
import { budgetLine } from './target-budget.ts';
import { concludeReplay, pacingLine } from './replay-conclusion.ts';
import type { MountUrls, Transport, TransportRequest, TransportResponse } from '../client/transport.ts';
import { httpTransport } from '../client/http-transport.ts';
import { headerLines, type ClockSyncState } from '../replay/diff-report.ts';
import { ERRORS_MAX, parseExchangeLine, parseRecordHeader, READ_LINE_CHARS_MAX } from '../replay/record-reader.ts';
import { recordLines } from '../replay/record-lines.ts';
import {
  recordedDepositsOf,
  recordedMintsOf,
  recordedTiersOf,
  type RecordHeader,
  type RecordedExchange,
} from '../replay/record-format.ts';
import { AdminClient } from '../client/admin-client.ts';
import { LivenessError, runReplay, type ReplayDeps } from '../replay/replay-run.ts';
import { ReferenceIndex, ReplaySession } from '../replay/replay-session.ts';
import { applyDeposit, applyMint, applyTier, checkTargetPlatform } from './replay-target-setup.ts';
import { resolveTarget } from '../live/resolve-target.ts';
import type { Target } from '../live/target.ts';
import { Progress, WALL_PROGRESS_CLOCK } from './progress.ts';
import { RemoteServeClock } from '../live/remote-serve-clock.ts';
import { SYSTEM_LIVE_CLOCK } from './audit-io.ts';
import type { Clock } from '../core/clock.ts';
import { discoverTarget } from '../live/afp-mounts.ts';
import { dueOffsetMs } from '../replay/pacing.ts';
import type { RecordFields } from './json-output.ts';
import { whileInterruptible, type InterruptIo } from './process-interrupt.ts';
import { reproduceCommand, URL_PATTERN, type ReplayFlags } from './replay-flags.ts';
import { adminDoorLines, type AdminDoorFilter } from '../replay/admin-doors.ts';
import { exchangesToSend } from './replay-exchanges.ts';
import { invalidInput, unresolvedTarget, unsettled, type Ending } from '../core/command-failure.ts';

const RETRIES = 2;
const BACKOFF_MS = 250;
/** Shed answers (503 + Retry-After before any limiter) sent again per request, and the longest wait. */
const SHED_RETRIES = 20;
const SHED_WAIT_MAX_MS = 5_000;
const CLOCK_TIMEOUT_MS = 5_000;

export interface ReplayIo extends InterruptIo {
  out(text: string): void;
  err(text: string): void;
  readonly errIsTty?: boolean;
  readonly clock?: Clock;
}

/** Replays the record of `flags` (whose file replay.ts found readable); returns its ending (replay.ts's contract). */
export async function replayRecord(flags: ReplayFlags, io: ReplayIo, record: RecordFields): Promise<Ending> {
  const checked = await validateRecord(flags.file, io);
  if (checked === null) return invalidInput();
  record({
    seed: checked.header.seed,
    scenario: checked.header.scenario,
    exchanges: checked.header.exchanges,
    target: flags.target,
    reproduce: reproduceCommand(flags),
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

/** The replay once the record is read: the target found, then the exchanges sent and the reports written. */
async function replayTo(
  replay: {
    readonly flags: ReplayFlags;
    readonly checked: CheckedRecord;
    readonly progress: Progress;
    readonly exchanges: AsyncIterable<RecordedExchange>;
    readonly doors: AdminDoorFilter;
    readonly stop: AbortSignal;
  },
  io: ReplayIo,
  record: RecordFields,
): Promise<Ending> {
  const { flags, checked, progress, exchanges, doors, stop } = replay;
  const path = await replayPath(flags);
  if (path.kind === 'failed') {
    io.err(`afp replay: ${path.message}\n`);
    return path.exit;
  }
  if (path.kind === 'dialect')
    return replayThroughTarget({ flags, checked, target: path.target, exchanges, doors, progress, stop }, io, record);
  let urls: MountUrls;
  try {
    urls = await discoverTarget(flags.target, {
      timeoutMs: flags.timeoutMs,
      onNote: (note) => io.err(`afp replay: note: ${note}\n`),
    });
  } catch (error) {
    return unsettled(`afp replay: ${error instanceof Error ? error.message : String(error)}`);
  }
  const unsent = unsentMounts(checked.mounts, urls, flags.target, path.notServe);
  if (unsent !== null) {
    io.err(unsent);
    return invalidInput();
  }
  const api = urls.api as string;
  const clock = await decideClock(api, flags, {
    firstAtMs: checked.firstAtMs ?? checked.header.start_ms,
    startMs: checked.header.start_ms,
  });
  if ('error' in clock) {
    io.err(`afp replay: ${clock.error}\n`);
    return clock.exit;
  }
  io.out(`clock: ${clock.state.synced ? 'synced' : 'not synced'} — ${clock.state.note}\n`);
  io.out(`${pacingLine(checked.header.end_ms - (checked.firstAtMs ?? checked.header.end_ms), flags.speed)}\n`);
  io.out(`${budgetLine(flags.budgetSeconds)}\n`);
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
      reproduce: reproduceCommand(flags),
      adminDoors: { skipped: doors.skippedDoors(), lines: adminDoorLines(doors, flags.withAdmin) },
    },
    flags.out,
    io,
    record,
  );
}

type ReplayPath =
  /** `notServe`: why the URL is no afp serve (it answered, but not /_afp/mounts), or null. */
  | { readonly kind: 'verbatim'; readonly notServe: string | null }
  | { readonly kind: 'dialect'; readonly target: Target }
  | { readonly kind: 'failed'; readonly message: string; readonly exit: Ending };

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
          message: resolved.message,
          exit: unresolvedTarget(resolved.kind),
        };
  const documents = Object.values(resolved.value.services).every((service) => service.dialect !== 'deployed');
  return url && documents ? { kind: 'verbatim', notServe: null } : { kind: 'dialect', target: resolved.value };
}

/** The replay through a target's dialect: clock sync where the target is an afp serve, then operation-replay. */
async function replayThroughTarget(
  replay: {
    flags: ReplayFlags;
    checked: CheckedRecord;
    target: Target;
    exchanges: AsyncIterable<RecordedExchange>;
    doors: AdminDoorFilter;
    progress: Progress;
    stop: AbortSignal;
  },
  io: ReplayIo,
  record: RecordFields,
): Promise<Ending> {
  const { flags, checked, target, stop } = replay;
  const firstAtMs = checked.firstAtMs ?? checked.header.start_ms;
  const clock = await dialectClock(target, flags, { firstAtMs, startMs: checked.header.start_ms });
  if ('error' in clock) {
    io.err(`afp replay: ${clock.error}\n`);
    return clock.exit;
  }
  io.out(`clock: ${clock.state.synced ? 'synced' : 'not synced'} — ${clock.state.note}\n`);
  io.out(`${pacingLine(checked.header.end_ms - firstAtMs, flags.speed)}\n`);
  io.out(`${budgetLine(flags.budgetSeconds)}\n`);
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
    reproduce: reproduceCommand(flags),
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
  return `afp replay: the record sends to ${unsent.length === 1 ? 'mount' : 'mounts'} ${unsent.join(', ')}, which ${target} does not announce${why}\n`;
}

/** The clock a replay through a dialect keeps: the target's own when it is an afp serve and --sync-clock allows, else none (said why). */
async function dialectClock(
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

interface CheckedRecord {
  readonly header: RecordHeader;
  readonly references: ReferenceIndex;
  readonly firstAtMs: number | null;
  /** The mounts the recorded requests were sent to, sorted. */
  readonly mounts: readonly string[];
}

/** First pass (the file is known readable): every line validated, provenance references collected. Prints the header first. */
async function validateRecord(file: string, io: ReplayIo): Promise<CheckedRecord | null> {
  const errors: string[] = [];
  let header: RecordHeader | null = null;
  const references = new ReferenceIndex();
  let lineNumber = 0;
  let previousAtMs = 0;
  let firstAtMs: number | null = null;
  let count = 0;
  const mounts = new Set<string>();
  /** A line too long ends the reading: the rest of the file is not counted. */
  let readWhole = true;
  for await (const read of recordLines(file, READ_LINE_CHARS_MAX)) {
    lineNumber++;
    if ('tooLong' in read) {
      readWhole = false;
      errors.push(
        `line ${read.tooLong}: longer than ${READ_LINE_CHARS_MAX} characters, so not read (a record holds one JSON object per line)`,
      );
      break;
    }
    const line = read.text;
    if (lineNumber === 1) {
      const parsed = parseRecordHeader(line);
      if (!parsed.ok) {
        io.err(
          `afp replay: ${file} is not a valid record:\n${parsed.errors.map((error) => `  ${error}`).join('\n')}\n`,
        );
        return null;
      }
      header = parsed.value;
      previousAtMs = header.start_ms;
      io.out(`${headerLines(file, header).join('\n')}\n`);
      continue;
    }
    if (line === '') continue;
    count++;
    const parsed = parseExchangeLine(line, { lineNumber, expectedSeq: count, previousAtMs });
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      continue;
    }
    previousAtMs = parsed.value.at_ms;
    firstAtMs ??= parsed.value.at_ms;
    mounts.add(parsed.value.request.mount);
    references.add(parsed.value);
  }
  if (header === null) {
    if (readWhole) errors.push('line 1: the file is empty (no header)');
  } else if (readWhole && count !== header.exchanges)
    errors.push(
      `line ${lineNumber}: the header announces ${header.exchanges} exchanges, the file has ${count} (cut short?)`,
    );
  if (errors.length > 0 || header === null) {
    const shown = errors.slice(0, ERRORS_MAX).map((error) => `  ${error}`);
    if (errors.length > ERRORS_MAX) shown.push(`  … and ${errors.length - ERRORS_MAX} more`);
    io.err(`afp replay: ${file} is not a valid record:\n${shown.join('\n')}\n`);
    return null;
  }
  return { header, references, firstAtMs, mounts: [...mounts].sort() };
}

type ClockDecision =
  | { readonly state: ClockSyncState; readonly mode: string | null }
  | { readonly error: string; readonly exit: Ending };

/** Whether and how the target's clock follows the record (see the file header). */
async function decideClock(
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
        error: `--sync-clock on, but ${api} has no clock to move (GET /_afp/clock); use afp serve --clock manual`,
        exit: invalidInput(),
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
    if (flags.sync === 'on') return { error: why, exit: invalidInput() };
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
    applyDeposit: (call) => applyDeposit(api, call, flags.timeoutMs),
    applyMint: (call) => applyMint(api, call, flags.timeoutMs),
  };
}

/**
 * Waits for each exchange's turn (`--speed`), then moves a synced target clock to its instant. Once
 * `stop` is aborted (Ctrl-C) the wait ends and the exchange is not sent: LivenessError, the stop.
 */
function pacedBeforeSend(options: {
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
    if (offsetMs !== null) await sleep(firstWallMs + offsetMs - Date.now(), stop);
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

/**
 * Sends one request: a transport failure is tried again (RETRIES, backing off), and so is a shed
 * answer — 503 with Retry-After and no rate-limit headers, refused before any limiter or service
 * saw it (afp serve's load shedder on a busy machine, or a proxy in front of a deployment) — after
 * its Retry-After (at most SHED_WAIT_MAX_MS, SHED_RETRIES times): it was not taken, so comparing it
 * with the record would report the machine's load, not the target.
 */
export async function sendWithRetries(transport: Transport, request: TransportRequest): Promise<TransportResponse> {
  let lastError = '';
  let shed = 0;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    if (attempt > 0) await sleep(BACKOFF_MS * 2 ** (attempt - 1));
    try {
      const answer = await transport(request);
      const waitMs = shedWaitMs(answer);
      if (waitMs === null || shed >= SHED_RETRIES) return answer;
      shed += 1;
      attempt -= 1;
      await sleep(waitMs);
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
  }
  throw new LivenessError(`no answer after ${RETRIES + 1} attempts: ${lastError}`);
}

/** How long to wait before sending a shed request again; null when the answer was not shed. */
function shedWaitMs(answer: TransportResponse): number | null {
  if (answer.status !== 503 || answer.headers['x-ratelimit-limit'] !== undefined) return null;
  const seconds = Number(answer.headers['retry-after'] ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(SHED_WAIT_MAX_MS, Math.max(100, seconds * 1_000)) : null;
}

/** Why a replay stopped at Ctrl-C (its stop's reason). */
const INTERRUPTED = 'interrupted (Ctrl-C): this exchange and the ones after it were not sent';

/** Waits `ms`, or less when `stop` is aborted meanwhile (a retry's short wait has none). */
function sleep(ms: number, stop?: AbortSignal): Promise<void> {
  if (ms <= 0 || stop?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop?.addEventListener('abort', done, { once: true });
  });
}
