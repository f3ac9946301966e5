/**
 * GET /_afp/digest → { digest, now_ms, now }: the SHA-256 of the whole platform state
 * (src/platform/state-digest.ts) at the served instant, due timers run first (as before any
 * request). Why served: it is how a test (or an operator) proves from outside that two platforms —
 * a live one and its recovery after a crash, a full replay and a checkpoint plus the log's tail —
 * hold the same state. Costs one pass over the state (tens of ms per 100k records); admin only.
 */
import type { JsonObject } from '../core/errors.ts';
import type { EdgeRequest } from '../http/server.ts';
import { platformDigest } from '../platform/state-digest.ts';
import type { AdminOptions } from './admin.ts';

export function digestRow(_request: EdgeRequest, options: AdminOptions): JsonObject {
  const nowMs = options.clock.nowMs();
  options.platform.advanceTo(nowMs);
  return { digest: platformDigest(options.platform), now_ms: nowMs, now: new Date(nowMs).toISOString() };
}
