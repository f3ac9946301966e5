/**
 * What the live audits share: the target (its mounts, whether it is an `afp serve`), the time
 * limit, and calls that wait out rate limits.
 *
 * Time and waiting come in through a LiveClock (the CLI passes the real one: src/audit is not a
 * door for wall time). `callPatiently` resends a call answered 429 after Retry-After seconds,
 * doubling the wait on consecutive 429s up to 60 s (platform.md "Client guidance"), at most
 * MAX_RATE_LIMIT_RETRIES times and never past the deadline: then it answers 'deadline'.
 * Mounts: an `afp serve` announces them (GET /_afp/mounts); any other target is addressed through
 * its one URL for every mount, style A's casino rows included.
 * Non-goals: retrying anything but 429 (a 5xx is an answer the audit reports).
 */
import type { ApiResult } from '../client/client.ts';
import { httpTransport } from '../client/http-transport.ts';
import { discoverTarget } from '../client/target.ts';
import type { MountUrls, Transport } from '../client/transport.ts';

export interface LiveClock {
  nowMs(): number;
  sleep(ms: number): Promise<void>;
}

export const MAX_RATE_LIMIT_RETRIES = 100;
const RETRY_WAIT_MAX_MS = 60_000;
export const MAX_SECONDS_LIMIT = 86_400;

export class Deadline {
  readonly atMs: number;
  private readonly clock: LiveClock;

  constructor(clock: LiveClock, maxSeconds: number) {
    this.clock = clock;
    this.atMs = clock.nowMs() + maxSeconds * 1000;
  }

  remainingMs(): number {
    return Math.max(0, this.atMs - this.clock.nowMs());
  }

  passed(): boolean {
    return this.remainingMs() === 0;
  }
}

export interface LiveTarget {
  readonly url: string;
  readonly urls: MountUrls;
  /** The target announced its mounts: an afp serve, whose admin endpoints the audits may use. */
  readonly afpServe: boolean;
  readonly transport: Transport;
}

export async function connectTarget(url: string): Promise<LiveTarget> {
  const discovered = await discoverTarget(url);
  const api = discovered.api as string;
  const afpServe = Object.keys(discovered).some((mount) => mount !== 'api');
  const urls: MountUrls = { ...discovered, casino: discovered.casino ?? api };
  return { url: api, urls, afpServe, transport: httpTransport({ urls }) };
}

/** Sends `send()` until it is not answered 429, waiting as told; 'deadline' when the wait would pass it. */
export async function callPatiently<T>(send: () => Promise<ApiResult<T>>, clock: LiveClock, deadline: Deadline): Promise<ApiResult<T> | 'deadline'> {
  let waitFactor = 1;
  for (let attempt = 0; attempt <= MAX_RATE_LIMIT_RETRIES; attempt++) {
    const result = await send();
    if (result.status !== 429) return result;
    const told = Number(result.headers['retry-after'] ?? '1');
    const waitMs = Math.min(RETRY_WAIT_MAX_MS, Math.max(1, Number.isFinite(told) ? told : 1) * 1000 * waitFactor);
    if (waitMs > deadline.remainingMs()) return 'deadline';
    await clock.sleep(waitMs);
    waitFactor = Math.min(waitFactor * 2, 64);
  }
  return 'deadline';
}

/** A bounded pool: runs `work(index)` for 0..count−1 with at most `concurrency` in flight, until `stop()` says so. */
export async function runBounded(count: number, concurrency: number, work: (index: number) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !stop()) {
      const index = next;
      next += 1;
      await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
}
