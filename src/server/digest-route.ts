/**
 * GET /_afp/digest → { digest, now_ms, now }: the SHA-256 of the whole platform state
 * (src/platform/state-digest.ts) at the served instant, due timers run first (as before any
 * request). Why served: it is how a test (or an operator) proves from outside that two platforms —
 * a live one and its recovery after a crash, a full replay and a checkpoint plus the log's tail —
 * hold the same state. Costs one pass over the state (tens of ms per 100k records on a quiet
 * machine, seconds on a loaded one at 67k agents); admin only. Under afp serve's platform lock
 * (platform-lock.ts) the pass runs as a sliced job: GET /health answers between slices, and
 * nothing changes the platform until the digest is taken.
 */
import type { JsonObject } from '../core/errors.ts';
import type { EdgeRequest } from '../http/server.ts';
import { platformDigest, platformDigestSliced } from '../platform/state-digest.ts';
import type { AdminOptions } from './admin-options.ts';
import type { SlicedJob } from './platform-lock.ts';

export function digestRow(_request: EdgeRequest, options: AdminOptions): JsonObject | Promise<JsonObject> {
  const answer = (digest: string, nowMs: number): JsonObject => ({
    digest,
    now_ms: nowMs,
    now: new Date(nowMs).toISOString(),
  });
  const take = (): SlicedJob<JsonObject> => {
    const nowMs = options.clock.nowMs();
    options.platform.advanceTo(nowMs);
    const digest = platformDigestSliced(options.platform);
    return { step: (units) => digest.step(units), finish: () => answer(digest.result(), nowMs) };
  };
  if (options.lock !== undefined) return options.lock.job(take);
  const nowMs = options.clock.nowMs();
  options.platform.advanceTo(nowMs);
  return answer(platformDigest(options.platform), nowMs);
}
