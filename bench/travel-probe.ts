/**
 * The probe of the bench's travel part: runs an admin call while GET /health is sent every
 * PROBE_EVERY_MS on its own connection, sharing the server's event loop as every client's request
 * does (a blocked loop delays its answer as it delays theirs), and watches the collector: the
 * longest garbage-collection pause during the call (a PerformanceObserver of 'gc' entries), so a
 * /health wait longer than any slice of the call's own work can be told from a pause of the
 * runtime's (the state a revert or a reset drops is collected later, by whatever runs then).
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';

export const PROBE_EVERY_MS = 5;

export interface Probed {
  /** The call's answer time (ms). */
  readonly wallMs: number;
  /** The longest GET /health wait while the call was in flight (ms). */
  readonly healthWaitMsMax: number;
  /** /health answers received while it was in flight. */
  readonly probes: number;
  /** The longest garbage-collection pause while it was in flight (ms), and its kind. */
  readonly gcPauseMsMax: number;
  readonly gcPauseKind: GcKind | null;
}

/** V8's collections: minor (scavenge of the young generation), major (mark-compact), incremental marking, weak callbacks. */
export type GcKind = 'minor' | 'major' | 'incremental' | 'weakcb';

const GC_KINDS: ReadonlyMap<number, GcKind> = new Map([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weakcb'],
]);

/** Runs `call` while GET /health is sent every `everyMs` (default PROBE_EVERY_MS). */
export async function probed(api: string, call: () => Promise<void>, everyMs = PROBE_EVERY_MS): Promise<Probed> {
  let running = true;
  let healthWaitMsMax = 0;
  let probes = 0;
  let gcPauseMsMax = 0;
  let gcPauseKind: GcKind | null = null;
  let probeErrors = 0;
  const note = (entries: readonly PerformanceEntry[]): void => {
    for (const entry of entries) {
      if (entry.duration <= gcPauseMsMax) continue;
      gcPauseMsMax = entry.duration;
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number } | null }).detail;
      gcPauseKind = GC_KINDS.get(detail?.kind ?? -1) ?? null;
    }
  };
  const observer = new PerformanceObserver((list) => note(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const probe = (async () => {
    while (running) {
      const sentMs = performance.now();
      try {
        await (await fetch(`${api}/health`)).arrayBuffer();
      } catch (error) {
        // A pooled connection the server closed after its keep-alive (a loop blocked longer than
        // that by a one-shot measurement on a loaded machine) fails once; the next probe opens a
        // new one. Anything else, or a second failure in a row, ends the part.
        if (probeErrors++ > 0 || !isConnectionReset(error)) throw error;
        continue;
      }
      probeErrors = 0;
      healthWaitMsMax = Math.max(healthWaitMsMax, performance.now() - sentMs);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  const startedMs = performance.now();
  try {
    await call();
  } finally {
    running = false;
  }
  const wallMs = performance.now() - startedMs;
  await probe;
  note(observer.takeRecords());
  observer.disconnect();
  return { wallMs, healthWaitMsMax, probes, gcPauseMsMax, gcPauseKind };
}

function isConnectionReset(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET';
}
