/**
 * The bench's outside probe of a server's event loop: GET /health every PROBE_EVERY_MS on one
 * connection until stopped. The slowest answer is the longest a client waited while the loop was
 * busy (the server's own pauses, and this process's and the machine's too: which is why a bare
 * node:http server under the same load is probed the same way, as the floor). Bounded: one probe
 * in flight at a time; a refused probe is not a figure (the load's generator counts failures).
 */

export const PROBE_EVERY_MS = 10;

export interface ProbeResult {
  /** The slowest GET /health (ms). */
  readonly maxMs: number;
  /** The 99th percentile of the waits (ms; 0 when none answered). */
  readonly p99Ms: number;
  readonly probes: number;
}

/** Starts probing `url` (a server's `/health`); `stop` ends it and resolves with the figures. */
export function healthProbe(url: string): { stop: () => Promise<ProbeResult> } {
  let running = true;
  const waits: number[] = [];
  const loop = (async () => {
    while (running) {
      const startedMs = performance.now();
      try {
        await (await fetch(url)).arrayBuffer();
        waits.push(performance.now() - startedMs);
      } catch {
        // Counted by nobody: the writers and the generator count their own failures.
      }
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const sorted = waits.toSorted((a, b) => a - b);
      return {
        maxMs: sorted.at(-1) ?? 0,
        p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0,
        probes: sorted.length,
      };
    },
  };
}
