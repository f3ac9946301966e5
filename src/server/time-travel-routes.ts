/**
 * The admin rows of time travel (src/server/time-travel.ts), answered like the other `/_afp/*`
 * rows of admin.ts (loopback only, no auth, not rate limited):
 *   POST /_afp/snapshot  (no body or {})  → { id, at_ms, at, snapshots }
 *   POST /_afp/revert    { "id": "snap_<n>" } → { id, now_ms, now, mode, dropped: [ids] }
 *   POST /_afp/reset     (no body or {})  → { now_ms, now, mode, dropped: [ids] }
 * Order of every move: validate (400 bad body, 404 unknown id, 409 too many snapshots — nothing
 * changed), then record the command (afp serve --data; a failed append changes nothing), then
 * apply it and move the served clock, then re-arm the timer pump (`onClockMoved`).
 * The `apply*` functions are the one implementation, live and on replay (recovery.ts).
 * With a platform lock (afp serve, platform-lock.ts) a snapshot's, a revert's and a reset's copy run
 * as a sliced job under it: validated and recorded in the row's turn, copied in slices (GET /health
 * answers between them, everything else that touches the platform waits), and the answer computed
 * in the job's last turn. The job is the very work `apply*` does whole, so the result is the same.
 */
import { fail, isFailure, type Failure, type JsonObject } from '../core/errors.ts';
import type { EdgeRequest } from '../http/server.ts';
import type { AdminOptions } from './admin-options.ts';
import { mapJob, runWhole, type SlicedJob } from './platform-lock.ts';
import type { ServeClock } from './serve-clock.ts';
import type { TimeTravel } from './time-travel.ts';

/** Snapshot `id` at `atMs` (live and on replay). */
export function applySnapshot(timeTravel: TimeTravel, id: string, atMs: number): void {
  timeTravel.takeSnapshot(id, atMs);
}

/** Revert to `id` (live and on replay); the instant it returns to, or the failure (replay: a corrupt log). */
export function applyRevert(timeTravel: TimeTravel, id: string): { toMs: number; dropped: string[] } | Failure {
  const entry = timeTravel.find(id);
  if (isFailure(entry)) return entry;
  return { toMs: entry.atMs, dropped: timeTravel.revert(entry) };
}

/** Reset (live and on replay): the served start instant and the dropped ids. */
export function applyReset(timeTravel: TimeTravel): { toMs: number; dropped: string[] } {
  return { toMs: timeTravel.startMs, dropped: timeTravel.reset() };
}

export function snapshotRow(
  request: EdgeRequest,
  options: AdminOptions,
): JsonObject | Failure | Promise<JsonObject | Failure> {
  const refused = emptyBody(request, 'POST /_afp/snapshot takes no body (or {})') ?? missing(options);
  if (refused !== null) return refused;
  const timeTravel = options.timeTravel as TimeTravel;
  const id = timeTravel.nextSnapshotId();
  if (isFailure(id)) return id;
  return runJob(options, () => {
    const atMs = options.clock.nowMs();
    options.record?.({ kind: 'snapshot', id, atMs });
    return mapJob(timeTravel.snapshotJob(id, atMs), () => {
      options.onClockMoved();
      return { id, at_ms: atMs, at: new Date(atMs).toISOString(), snapshots: timeTravel.list().length };
    });
  });
}

export function revertRow(
  request: EdgeRequest,
  options: AdminOptions,
): JsonObject | Failure | Promise<JsonObject | Failure> {
  if (request.bodyFailure !== undefined) return request.bodyFailure;
  const refused = missing(options);
  if (refused !== null) return refused;
  const usage = 'send {"id": "snap_<n>"} (an id POST /_afp/snapshot answered)';
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('BAD_REQUEST', usage);
  const unknown = Object.keys(body).filter((key) => key !== 'id');
  if (unknown.length > 0)
    return fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.sort().join(', ')}; ${usage}`);
  const timeTravel = options.timeTravel as TimeTravel;
  const entry = timeTravel.find((body as Record<string, unknown>)['id']);
  if (isFailure(entry)) return entry;
  return runJob(options, () => {
    options.record?.({ kind: 'revert', id: entry.id, fromMs: options.clock.nowMs(), toMs: entry.atMs });
    return mapJob(timeTravel.revertJob(entry), (dropped) => {
      options.clock.travelTo(entry.atMs);
      options.onClockMoved();
      return { id: entry.id, ...clockFields(options.clock), dropped };
    });
  });
}

/**
 * Under the platform lock, in slices; without one (no lock served), whole, before the answer.
 * `make` records the command and starts the work when the job starts: usually in the row's own
 * turn, later only when MCP calls hold the lock shared, and then after what they applied.
 */
function runJob(options: AdminOptions, make: () => SlicedJob<JsonObject>): JsonObject | Promise<JsonObject> {
  return options.lock === undefined ? runWhole(make()) : options.lock.job(make);
}

export function resetRow(
  request: EdgeRequest,
  options: AdminOptions,
): JsonObject | Failure | Promise<JsonObject | Failure> {
  const refused = emptyBody(request, 'POST /_afp/reset takes no body (or {})') ?? missing(options);
  if (refused !== null) return refused;
  const timeTravel = options.timeTravel as TimeTravel;
  return runJob(options, () => {
    options.record?.({ kind: 'reset', fromMs: options.clock.nowMs(), toMs: timeTravel.startMs });
    return mapJob(timeTravel.resetJob(), (dropped) => {
      options.clock.travelTo(timeTravel.startMs);
      options.onClockMoved();
      return { ...clockFields(options.clock), dropped };
    });
  });
}

function clockFields(clock: ServeClock): JsonObject {
  const nowMs = clock.nowMs();
  return { now_ms: nowMs, now: new Date(nowMs).toISOString(), mode: clock.mode };
}

/** No body, or `{}`: anything else is a client mistake worth a 400. */
function emptyBody(request: EdgeRequest, usage: string): Failure | null {
  if (request.bodyFailure !== undefined) return request.bodyFailure;
  const body = request.body;
  if (
    body === undefined ||
    (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0)
  )
    return null;
  return fail('BAD_REQUEST', usage);
}

function missing(options: AdminOptions): Failure | null {
  return options.timeTravel === undefined ? fail('NOT_FOUND', 'time travel is not served here') : null;
}
