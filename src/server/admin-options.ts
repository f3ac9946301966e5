/**
 * What the admin rows (admin.ts, time-travel-routes.ts, digest-route.ts) are given by afp serve:
 * the platform, its clock, the mounts' addresses and the optional parts (command log, time travel,
 * sliced clock moves and jobs, the dialect's base paths). Its own file so that the rows in other
 * files take it without importing admin.ts, which imports them.
 */
import type { JsonObject } from '../core/errors.ts';
import type { Mount, Route } from '../http/route.ts';
import type { Platform } from '../platform/platform.ts';
import type { AdminCommand } from './admin-command.ts';
import type { PublicUrls } from './announced-urls.ts';
import type { ClockMover } from './clock-move.ts';
import type { LoopDelay } from './loop-delay.ts';
import type { PlatformLock } from './platform-lock.ts';
import type { ServeClock } from './serve-clock.ts';
import type { TimeTravel } from './time-travel.ts';

export interface AdminOptions {
  readonly platform: Platform;
  readonly clock: ServeClock;
  /** The URL of every mount, known once all listeners are up. */
  readonly mounts: () => Readonly<Partial<Record<Mount, string>>>;
  /** Called after the clock moved and due timers ran (serve re-arms its timer). */
  readonly onClockMoved: () => void;
  /** The route table served (GET /openapi.json documents the request's mount from it). */
  readonly routes: readonly Route[];
  /** afp serve --data: appends a state-changing admin command before it is applied (throws = not applied). */
  readonly record?: (command: AdminCommand) => void;
  /** Snapshots, reverts and resets (afp serve); absent: those rows answer 404. */
  readonly timeTravel?: TimeTravel;
  /** The mount whose address serves `/_afp/*` (default `api`; the deployed dialect's casino). */
  readonly adminMount?: Mount;
  /**
   * Set by a dialect other than the documents': `/_afp/mounts` then also says the dialect and each
   * service's base URL (its address + base path, e.g. the deployed casino's `/api/v1`).
   */
  readonly dialect?: {
    readonly name: string;
    readonly basePaths: Readonly<Partial<Record<Mount, string>>>;
    readonly fairness?: string;
    /** The rate limits the serve keeps (`deployed` or `lifted`), so live commands pace by them. */
    readonly limits?: string;
  };
  /** The overload guard's bounds and counts, shown by GET /_afp/state under `load` (absent = none). */
  readonly load?: () => JsonObject;
  /** afp serve --data: the checkpoints, shown by GET /_afp/state under `checkpoints` (absent = no --data). */
  readonly checkpoints?: () => JsonObject;
  /** The event loop's own delay (loop-delay.ts), shown by GET /_afp/state under `event_loop`; absent: not measured. */
  readonly loopDelay?: LoopDelay;
  /** Runs clock moves in slices (clock-move.ts); absent: a move runs whole before the answer. */
  readonly clockMover?: ClockMover;
  /** Snapshots and reverts run as sliced jobs under it (platform-lock.ts); absent: whole, before the answer. */
  readonly lock?: PlatformLock;
  /** afp serve --admin-token: callers beyond loopback that send it may use the doors (admin-access.ts); absent: loopback only. */
  readonly adminToken?: string;
  /** afp serve --public-url: what `/_afp/mounts` announces (announced-urls.ts); absent: the caller's Host. */
  readonly publicUrls?: PublicUrls;
}
