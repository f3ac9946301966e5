/**
 * Recovery for `afp serve --data FILE`: replays a command log (src/server/command-log.ts) into a
 * fresh Platform and the dispatcher that goes on serving, and says where the served clock resumes.
 *
 * Why a replay is exact: the platform is a deterministic state machine (same seed, settings,
 * commands and instants → same state, same keys, same rate-limiter buckets). Each request goes
 * through the dispatcher's own `dispatch` at its logged instant, authenticated by its logged
 * credential (the key's hash); admin commands go through admin.ts's own `applyClockMove`,
 * `applyTierSet` and `applyDeposit`. Timers are not logged: they fire at their own instants inside the next
 * `advanceTo`, whoever calls it (the timer pump live, the next entry on replay), so they replay too.
 *
 * `LoggedDispatcher` is the serving side of the same log. It handles a request, then appends what
 * recovery needs of it, by how far the dispatch went (Dispatcher.lastReach):
 *   - a row was called (parse, run: any outcome, success or domain refusal) → the whole request:
 *     a row may change anything, and its refusals are not declared free of effects;
 *   - refused before any row (429, fault window, 404/405, body failure, 401) → a 'charge' entry:
 *     instant, mount/method/path, IP, credential — the limiter's buckets are state (a 429 refills
 *     them: with a later tier change the level differs), but no body or query is read before the
 *     row. It replays as the same request with a body failure, which stops the dispatcher right
 *     after the limiter (asserted), whatever the route;
 *   - the limiter answered unlimited (no bucket applies, so none was created or visited) and no
 *     row ran → nothing: only due timers fired, and they fire at their own instants anyway;
 *   - `dispatch` threw (a bug, answered 500) → the whole request: it throws again on replay.
 * The credential is taken before handling (a request may rotate its own key). The answer waits
 * for the entry's batch to commit (src/server/group-commit.ts), so what was answered is on disk.
 *
 * Invariants: entries run without a gap from the checkpoint's on (a missing one is refused as
 * corrupt, never skipped); logged instants never decrease (a log where they do is refused as corrupt); the
 * served clock resumes at or after the last logged instant, so `advanceTo` stays forward-only
 * even when the wall clock went backwards between runs.
 * Time travel (snapshot, revert, reset) is logged as commands and replayed with the functions of
 * time-travel-routes.ts into the TimeTravel that goes on serving, so the snapshots held before a
 * restart can be reverted to after it. A revert's or reset's instant is the one it returns to: the
 * only entries whose instant may go back (their `from_ms` may not).
 * Checkpoints (src/server/checkpoints.ts): when the log holds a usable one, the platform and the
 * time-travel snapshots are loaded from it and only the commands after it are replayed.
 */
import { assert } from '../core/assert.ts';
import { fail } from '../core/errors.ts';
import {
  Dispatcher,
  REACH_NOTHING,
  REACH_ROW,
  type ApiRequest,
  type ApiResponse,
  type DispatchRequest,
} from '../http/dispatcher.ts';
import type { Route } from '../http/route.ts';
import { Platform, type AuthenticatedCaller, type Credential } from '../platform/platform.ts';
import { applyClockMove, applyDeposit, applyTierSet, applyWalletMint } from './admin.ts';
import type { CheckpointSource } from './checkpoint-store.ts';
import type {
  CommandLog,
  LoggedCharge,
  LoggedCommand,
  LoggedRequest,
  LogSettings,
  RequestToLog,
} from './command-log.ts';
import { ServeClock } from './serve-clock.ts';
import { TimeTravel } from './time-travel.ts';
import { loadCheckpoint } from './checkpoint-load.ts';
import { applyReset, applyRevert, applySnapshot } from './time-travel-routes.ts';
import { isFailure } from '../core/errors.ts';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The failure a charge entry replays with: it stops the dispatcher right after the limiter. */
const CHARGE_ONLY = fail('BAD_REQUEST', 'replay of a request refused before its row (command log charge entry)');

/** The dispatcher of a served platform with a command log: handle, then append what recovery needs. */
export class LoggedDispatcher extends Dispatcher {
  private readonly commandLog: Pick<CommandLog, 'appendRequest'>;
  private readonly onAppend: () => void;

  /** `onAppend` runs after each append (the group commit schedules or makes its commit). */
  constructor(
    platform: Platform,
    routes: readonly Route[],
    commandLog: Pick<CommandLog, 'appendRequest'>,
    onAppend: () => void = () => undefined,
  ) {
    super(platform, routes);
    this.commandLog = commandLog;
    this.onAppend = onAppend;
  }

  /**
   * Answers the request and appends its entry (whole, charge or none: the header) to the open
   * batch. `dispatch` is the one path under both `handle` and the in-process transport.
   */
  override dispatch(request: DispatchRequest, nowMs: number, ip: string): ApiResponse {
    const credential = request.credential ?? credentialOf(this.platform.identify(request.headers?.['authorization']));
    let response: ApiResponse;
    try {
      response = super.dispatch(request, nowMs, ip);
    } catch (error) {
      this.append(request, credential, nowMs, ip, true);
      throw error;
    }
    const reach = this.lastReach;
    if (reach !== REACH_NOTHING) this.append(request, credential, nowMs, ip, reach === REACH_ROW);
    return response;
  }

  /** Handles a whole request read back from the log (not appended again). */
  replay(request: ApiRequest, nowMs: number): ApiResponse {
    // super.dispatch: the base dispatcher's, which does not append (this class's dispatch would log it again).
    return this.replaying(() => super.dispatch(request, nowMs, request.ip));
  }

  /** Charges the limiter as a request refused before its row did (a 'charge' entry; not appended again). */
  replayCharge(charge: LoggedCharge, nowMs: number): void {
    super.dispatch(
      {
        mount: charge.mount,
        method: charge.method,
        path: charge.path,
        credential: charge.credential,
        bodyFailure: CHARGE_ONLY,
      },
      nowMs,
      charge.ip,
    );
    assert(this.lastReach !== REACH_ROW, 'a charge entry never reaches a row (the body failure stops it)');
  }

  private append(request: DispatchRequest, credential: Credential, nowMs: number, ip: string, whole: boolean): void {
    // What the row says to keep of its body (RouteSpec.logBody: a wallet send keeps no key).
    const row = this.lastRoute;
    const body =
      row === null || row.logBody === undefined || request.body === undefined
        ? request.body
        : row.logBody(request.body, this.lastValue);
    const redacted = body === request.body ? request : { ...request, body, bodyText: undefined };
    const logged: RequestToLog = {
      ...redacted,
      query: request.query ?? NO_HEADERS,
      headers: request.headers ?? NO_HEADERS,
      ip,
    };
    this.commandLog.appendRequest(logged, credential, nowMs, whole ? 'whole' : 'charge');
    this.onAppend();
  }
}

/** The credential of an identified caller: what the log keeps instead of the header. */
export function credentialOf(identified: AuthenticatedCaller | null | 'invalid'): Credential {
  if (identified === null) return 'none';
  return identified === 'invalid' ? 'invalid' : { keyHash: identified.agent.keyHash };
}

export interface RecoveryStats {
  /** Entries replayed. */
  readonly commands: number;
  /** Entries whose replay threw (bugs; they threw when served too and were answered 500). */
  readonly internalErrors: number;
  /** The instant of the last entry, if any. */
  readonly lastAtMs: number | undefined;
  /** How far the logged clock moves pushed the served clock (the wall-mode offset they added). */
  readonly clockMovedMs: number;
  /** The checkpoint loaded (the last entry it includes), if any: `commands` counts the entries after it. */
  readonly checkpointSeq?: number;
  /** Checkpoints not used, and why (the log was replayed from an older one or from the start). */
  readonly skippedCheckpoints?: readonly string[];
  /** Snapshot images found unusable (not this log's, or damaged): the next checkpoint writes them again. */
  readonly unusableImages?: readonly string[];
}

export interface Recovered {
  readonly platform: Platform;
  readonly dispatcher: LoggedDispatcher;
  readonly timeTravel: TimeTravel;
  readonly stats: RecoveryStats;
}

/**
 * What recovery reads: a command log on disk (CommandLog), or the rows of one handed to the
 * checkpoint worker (checkpoint-worker.ts), which replays but never appends.
 */
export interface ReplaySource extends Pick<CommandLog, 'file' | 'settings' | 'commands' | 'appendRequest'> {
  /** Where the checkpoints are read (CheckpointStore over the log's file, or the worker's copy). */
  checkpointSource(): CheckpointSource;
}

/** A recovered platform and where its replay stands: the replay goes on from here (the checkpoint worker feeds it more). */
export interface ReplayPosition {
  readonly platform: Platform;
  readonly dispatcher: LoggedDispatcher;
  readonly timeTravel: TimeTravel;
  lastAtMs: number;
  clockMovedMs: number;
  /** The last entry applied (the checkpoint's, before any): the next must be the one after it. */
  seq: number;
  commands: number;
  internalErrors: number;
}

/**
 * The platform of the log's settings, with every logged command applied in order: from the newest
 * usable checkpoint (unless `checkpoints` is false) and the commands after it.
 */
export function recoverPlatform(
  log: ReplaySource,
  routes: readonly Route[],
  options: { checkpoints?: boolean; onAppend?: () => void } = {},
): Recovered | { error: string } {
  const settings = log.settings;
  if (settings === null) return { error: `--data ${log.file}: no settings adopted (a bug)` };
  const platformOptions = {
    seed: settings.seed,
    startMs: settings.startMs,
    fundingSpans: true,
    config: settings.config,
    defects: settings.defects,
    faults: settings.faults,
    closures: settings.closures,
    ...(settings.trading === undefined ? {} : { trading: settings.trading }),
  };
  let platform = new Platform(platformOptions);
  let timeTravel = new TimeTravel(platform, platformOptions);
  const checkpoint =
    options.checkpoints === false
      ? { loaded: null, skipped: [], dirty: false, unusableImages: [] }
      : loadCheckpoint(log.checkpointSource(), platform, timeTravel);
  if (checkpoint.dirty) {
    platform = new Platform(platformOptions);
    timeTravel = new TimeTravel(platform, platformOptions);
  }
  const loaded = checkpoint.loaded;
  const position: ReplayPosition = {
    platform,
    dispatcher: new LoggedDispatcher(platform, routes, log, options.onAppend),
    timeTravel,
    lastAtMs: loaded?.atMs ?? settings.startMs,
    clockMovedMs: loaded?.clockMovedMs ?? 0,
    seq: loaded?.seq ?? 0,
    commands: 0,
    internalErrors: 0,
  };
  const replayed = replayCommands(position, log.commands(loaded?.seq ?? 0), { file: log.file, seed: settings.seed });
  if (replayed !== null) return replayed;
  const fromCheckpoint = loaded === null ? {} : { checkpointSeq: loaded.seq };
  const skipped = checkpoint.skipped.length === 0 ? {} : { skippedCheckpoints: checkpoint.skipped };
  const images = checkpoint.unusableImages.length === 0 ? {} : { unusableImages: checkpoint.unusableImages };
  const replayedAny = position.commands > 0 || loaded !== null;
  const stats = {
    commands: position.commands,
    internalErrors: position.internalErrors,
    lastAtMs: replayedAny ? position.lastAtMs : undefined,
    clockMovedMs: position.clockMovedMs,
    ...fromCheckpoint,
    ...skipped,
    ...images,
  };
  return { platform, dispatcher: position.dispatcher, timeTravel, stats };
}

/** Applies `commands` (in log order) at `position`, advancing it; null, or the error that stops the replay. */
export function replayCommands(
  position: ReplayPosition,
  commands: Iterable<LoggedCommand>,
  log: { file: string; seed: string },
): { error: string } | null {
  for (const command of commands) {
    const where = `--data ${log.file}: entry ${command.seq}`;
    if (command.kind === 'corrupt') return { error: `${where} is corrupt (${command.reason})` };
    const outOfOrder = takeTurn(position, command, log.file, where);
    if (outOfOrder !== null) return { error: outOfOrder };
    try {
      const error = applyLogged(position, command, where, log.seed);
      if (error !== null) return { error };
    } catch {
      position.internalErrors++;
    }
  }
  return null;
}

/** The entry's place: the next seq, at or after the instant before it; the position moved on, or why not. */
function takeTurn(
  position: ReplayPosition,
  command: Exclude<LoggedCommand, { kind: 'corrupt' }>,
  file: string,
  where: string,
): string | null {
  if (command.seq !== position.seq + 1)
    return `--data ${file}: entry ${position.seq + 1} is corrupt (missing: the log goes on at entry ${command.seq})`;
  position.seq = command.seq;
  const travels = command.kind === 'revert' || command.kind === 'reset';
  const fromMs = travels ? command.fromMs : command.atMs;
  if (fromMs < position.lastAtMs)
    return `${where} is corrupt (its instant ${fromMs} is before the previous ${position.lastAtMs})`;
  position.lastAtMs = command.atMs;
  position.commands++;
  return null;
}

/** One entry applied as it was served; why it cannot be (a corrupt log or a nondeterminism bug), or null. */
function applyLogged(
  position: ReplayPosition,
  command: Exclude<LoggedCommand, { kind: 'corrupt' }>,
  where: string,
  seed: string,
): string | null {
  const { platform, dispatcher, timeTravel } = position;
  switch (command.kind) {
    case 'request':
      dispatcher.replay(apiRequestOf(command.request), command.atMs);
      break;
    case 'charge':
      dispatcher.replayCharge(command.request, command.atMs);
      break;
    case 'clock':
      applyClockMove(platform, command.atMs);
      position.clockMovedMs += command.atMs - command.fromMs;
      break;
    case 'tier': {
      const agent = platform.agents.get(command.agentId);
      if (agent === undefined)
        return `${where} sets the tier of '${command.agentId}', unknown on replay (corrupt log or a nondeterminism bug; seed ${seed})`;
      applyTierSet(agent, command.tier);
      break;
    }
    case 'deposit':
      // The same outcome as when served: a deposit refused live is refused again.
      applyDeposit(platform, command, command.atMs);
      break;
    case 'wallet-mint':
      applyWalletMint(platform, command, command.atMs);
      break;
    case 'snapshot': {
      const id = timeTravel.nextSnapshotId();
      if (id !== command.id)
        return `${where} takes snapshot '${command.id}', the replay's next is ${isFailure(id) ? 'refused' : `'${id}'`} (corrupt log or a nondeterminism bug; seed ${seed})`;
      applySnapshot(timeTravel, id, command.atMs);
      break;
    }
    case 'revert': {
      const reverted = applyRevert(timeTravel, command.id);
      if (isFailure(reverted) || reverted.toMs !== command.atMs)
        return `${where} reverts to '${command.id}', not held at ${command.atMs} on replay (corrupt log or a nondeterminism bug; seed ${seed})`;
      position.clockMovedMs += command.atMs - command.fromMs;
      break;
    }
    case 'reset':
      if (applyReset(timeTravel).toMs !== command.atMs)
        return `${where} resets to ${command.atMs}, not the log's start (corrupt log)`;
      position.clockMovedMs += command.atMs - command.fromMs;
      break;
  }
  return null;
}

/**
 * Where the served clock resumes: manual → the last logged instant (or the start); wall → the
 * wall clock plus the offset the run had (initial offset + clock moves), but never before the
 * last logged instant (a wall clock that went backwards reads as time standing still there).
 */
export function resumeAtMs(settings: LogSettings, stats: RecoveryStats, wallNowMs: number): number {
  const floorMs = Math.max(settings.startMs, stats.lastAtMs ?? settings.startMs);
  return settings.clockMode === 'manual'
    ? floorMs
    : Math.max(floorMs, wallNowMs + settings.wallOffsetMs + stats.clockMovedMs);
}

/** Recovery as startServe uses it: the replayed platform, its dispatcher and the resumed clock. */
export function serveFromLog(
  log: CommandLog,
  routes: readonly Route[],
  wallNowMs: number,
  onAppend?: () => void,
): (Recovered & { clock: ServeClock }) | { error: string } {
  const recovered = recoverPlatform(log, routes, onAppend === undefined ? {} : { onAppend });
  if ('error' in recovered) return recovered;
  const settings = log.settings as LogSettings;
  const clock = new ServeClock({ mode: settings.clockMode, startMs: resumeAtMs(settings, recovered.stats, wallNowMs) });
  return { ...recovered, clock };
}

function apiRequestOf(logged: LoggedRequest): ApiRequest {
  const base = {
    mount: logged.mount,
    method: logged.method,
    path: logged.path,
    query: logged.query,
    headers: NO_HEADERS,
    ip: logged.ip,
    credential: logged.credential,
    ...(logged.door === undefined ? {} : { door: logged.door }),
  };
  if (logged.bodyFailure !== undefined) return { ...base, bodyFailure: logged.bodyFailure };
  return logged.bodyText === null ? base : { ...base, body: JSON.parse(logged.bodyText) as unknown };
}
