/**
 * How `afp replay` sends one recorded request: a transport failure or a shed answer (503 +
 * Retry-After before any limiter) is sent again, bounded; and the waits, which a Ctrl-C ends early.
 * Its own file: replay-record.ts decides what to send; this only gets an answer for it.
 */
import type { Transport, TransportRequest, TransportResponse } from '../client/transport.ts';
import { LivenessError } from '../replay/replay-run.ts';

const RETRIES = 2;
const BACKOFF_MS = 250;
/** Shed answers (503 + Retry-After before any limiter) sent again per request, and the longest wait. */
const SHED_RETRIES = 20;
const SHED_WAIT_MAX_MS = 5_000;

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
    if (attempt > 0) await abortableWait(BACKOFF_MS * 2 ** (attempt - 1));
    try {
      const answer = await transport(request);
      const waitMs = shedWaitMs(answer);
      if (waitMs === null || shed >= SHED_RETRIES) return answer;
      shed += 1;
      attempt -= 1;
      await abortableWait(waitMs);
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

/** Waits `ms`, or less when `stop` is aborted meanwhile (a retry's short wait has none). */
export function abortableWait(ms: number, stop?: AbortSignal): Promise<void> {
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
