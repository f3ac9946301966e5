// Reliability: an overload run of a real `afp serve` child process with small bounds
// (--max-in-flight 32, --max-event-loop-delay-ms 50): a flood of registrations 200 at a time, then
// a flood of 60 KiB bodies. Demanded: some requests shed with a well-formed 503 + Retry-After,
// /health answering throughout within 5 s, every acknowledged registration present afterwards
// and the server knowing no other, and the server's resident memory bounded (shed bodies are not
// buffered). Linux only for the memory figure (/proc/PID/status); elsewhere it is skipped, saying so.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { acknowledgedPresent, flood } from '../fixtures/overload.ts';
import { startServeChild } from '../fixtures/serve-child.ts';
import { pool, send, StatusCounts } from './reliability-kit.ts';

function residentMiB(pid: number): number | null {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return null;
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'))?.[1];
  return kib === undefined ? null : Number(kib) / 1024;
}

describe('reliability: overload', () => {
  test('afp serve sheds past its bounds, keeps /health answering and every acknowledged write, and stays small', async () => {
    const child = await startServeChild([
      '--port',
      '0',
      '--clock',
      'manual',
      '--start',
      '2026-01-01T00:00:00Z',
      '--max-in-flight',
      '32',
      '--max-receiving',
      '0',
      '--max-event-loop-delay-ms',
      '50',
    ]);
    try {
      const rssBeforeMiB = residentMiB(child.pid);
      const result = await flood({
        apiUrl: child.urls['api'] as string,
        count: 1_500,
        concurrency: 200,
        prefix: 'overload',
        timeoutMs: 20_000,
        holdSlots: 32,
      });
      // Large bodies at once: admitted ones are read (at most 64 KiB each), shed ones never.
      const big = new StatusCounts();
      const padding = 'p'.repeat(60 * 1024);
      await pool(400, 200, async (n) => {
        const answer = await send(
          child.urls['api'] as string,
          {
            method: 'POST',
            path: '/register',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.7.${n >> 8}.${n & 255}` },
            body: `{"agent_id":"big-${n}","pad":"${padding}"}`,
          },
          20_000,
        );
        big.add(answer.status);
      });
      const rssAfterMiB = residentMiB(child.pid);
      const kept = await acknowledgedPresent(child.urls, result.keys, 4);
      const memory =
        rssBeforeMiB === null || rssAfterMiB === null
          ? 'resident memory not measured (no /proc)'
          : `resident memory ${rssBeforeMiB.toFixed(0)} → ${rssAfterMiB.toFixed(0)} MiB`;
      console.log(
        `overload run: registrations ${JSON.stringify(result.statuses)} in ${Math.round(result.wallMs)} ms (${result.shed.length} shed); 60 KiB bodies ${big.text()}; /health ${result.healthAnswers} answers, ${result.healthFailures} failures, slowest ${Math.round(result.healthMaxMs)} ms; acknowledged ${result.acknowledged.length}, present ${kept.present}, server agents ${kept.agents}; ${memory}`,
      );
      expect(Object.keys(result.statuses).sort()).toEqual(['201', '503']);
      expect(result.shed.length).toBeGreaterThan(0);
      expect(result.shedWellFormed).toBe(true);
      expect(result.healthFailures).toBe(0);
      expect(result.healthMaxMs).toBeLessThan(5_000);
      expect(big.count((status) => status >= 500 && status !== 503) + big.count((status) => status === 0)).toBe(0);
      expect(kept.missing).toEqual([]);
      expect(kept.agents).toBe(result.acknowledged.length);
      if (rssAfterMiB !== null) expect(rssAfterMiB).toBeLessThan(512);
    } finally {
      await child.stop();
    }
  });
});
