/**
 * How a request at `afp serve`'s HTTP edge waits for the platform lock (platform-lock.ts): wraps a
 * listener's intercept so that, while a sliced admin job (snapshot, revert) holds the platform or
 * others already wait for it, the request — an admin row or an API request for the dispatcher —
 * waits for its turn and is then handled at the served instant of that turn; a full queue answers
 * 503 SERVICE_UNAVAILABLE with Retry-After, nothing handled (as the load shedder does).
 * Never waiting: the paths that read nothing of the platform (GET /health, GET /openapi.json,
 * GET /_afp/mounts, POST /_afp/event-loop/reset: a pause measured behind a job would be the job's)
 * and GET /_afp/state, which only reads it (a job does not change the platform until its last
 * turn) and shows the lock's own figures.
 */
import type { JsonObject } from '../core/errors.ts';
import type { Dispatcher } from '../http/dispatcher.ts';
import type { Mount } from '../http/route.ts';
import type { EdgeAnswer, EdgeRequest } from '../http/server.ts';
import { infoOf } from '../platform/info.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { ServeClock } from './serve-clock.ts';
import { isLockBusy, type PlatformLock } from './platform-lock.ts';

type Intercept = (request: EdgeRequest, nowMs: number) => EdgeAnswer | Promise<EdgeAnswer> | null;

const NEVER_WAITING = new Set([
  'GET /health',
  'GET /openapi.json',
  'GET /_afp/mounts',
  'GET /_afp/state',
  'POST /_afp/event-loop/reset',
]);

export function lockIntercept(
  intercept: Intercept,
  options: {
    readonly lock: PlatformLock;
    readonly dispatcher: Dispatcher;
    readonly clock: ServeClock;
    readonly mount: Mount;
    /** A refused request's 503 body in the served dialect (absent: the documents' `{ error, code, _info }`). */
    readonly busyBody?: (service: ServiceName | null, message: string) => JsonObject;
  },
): Intercept {
  const { lock, dispatcher, clock } = options;
  return (request, nowMs) => {
    if (lock.free || NEVER_WAITING.has(`${request.method} ${request.path}`)) return intercept(request, nowMs);
    const waited = lock.later(() => {
      const turnMs = clock.nowMs();
      return intercept(request, turnMs) ?? dispatcher.handle(request, turnMs);
    });
    if (!isLockBusy(waited)) return waited.then((answer) => answer);
    const match = dispatcher.router.match(options.mount, request.method, request.path);
    const service = match.kind === 'found' ? match.route.service : options.mount === 'api' ? null : options.mount;
    return {
      status: 503,
      headers: { 'retry-after': String(waited.retryAfterSeconds) },
      body: options.busyBody?.(service, waited.message) ?? {
        error: waited.message,
        code: 'SERVICE_UNAVAILABLE',
        _info: infoOf(service),
      },
    };
  };
}
