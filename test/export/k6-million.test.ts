// A k6 VU builds only its own slice of the agents (src/export/k6/k6-agent-run.ts over
// src/agent/ring-index.ts): million.yaml, as shipped, on the real k6 with 4 VUs stays far under what
// one ring a VU cost. Measured on 2 cores: 315 MB peak for 4 VUs (899 MB for 30), where each VU
// laying out the 1,000,000 slots and their ids passed 4.4 GB in 17 s before its first request.
// The k6 process's resident memory is sampled from /proc (Linux) and the run cut past the bound,
// so a regression fails here without taking the machine's memory.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { exportScript, K6, K6_SKIP, k6Counts, k6Dropped, k6Kit, ROOT, sum } from './k6-agents-kit.ts';

const kit = k6Kit();
/** Resident memory the 4-VU run may reach (5 goja runtimes, the script evaluated in each, ~2x the measured 315 MB). */
const RSS_MB_MAX = 700;
const PROC = existsSync('/proc/self/status');

/** k6 run of `script`, its peak resident MB sampled every 200 ms; killed past RSS_MB_MAX. */
function runSampled(script: string, api: string, out: string): Promise<{ code: number | null; peakMb: number }> {
  return new Promise((resolve) => {
    const child = spawn(K6, ['run', '--quiet', '--address', '', '--no-teardown', '--out', `json=${out}`, script], {
      env: {
        ...process.env,
        K6_NO_USAGE_REPORT: 'true',
        K6_AUTO_EXTENSION_RESOLUTION: 'false',
        AFP_TARGET: api,
        AFP_RUN_ID: 'million',
      },
      stdio: 'ignore',
    });
    let peakMb = 0;
    const sampler = setInterval(() => {
      const status = child.pid === undefined ? '' : readStatus(child.pid);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peakMb = Math.max(peakMb, Math.round(kb / 1024));
      if (peakMb > RSS_MB_MAX) child.kill('SIGKILL');
    }, 200);
    const bound = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('exit', (code) => {
      clearInterval(sampler);
      clearTimeout(bound);
      resolve({ code, peakMb });
    });
  });
}

function readStatus(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}

describe.skipIf(K6_SKIP !== undefined || !PROC)('million.yaml on the real k6', () => {
  test(`4 VUs build their own agents only: under ${RSS_MB_MAX} MB, every arrival sent or counted dropped`, async () => {
    const script = await exportScript(
      join(ROOT, 'scenarios', 'million.yaml'),
      ['--rate', '4/s', '--max-vus', '4', '-i', '20'],
      join(kit.dir, 'million.k6.js'),
    );
    const out = join(kit.dir, 'million.k6.json');
    const ran = await kit.withServe((api) => runSampled(script, api, out));
    expect(ran.peakMb, `peak ${ran.peakMb} MB`).toBeLessThan(RSS_MB_MAX);
    // 20 arrivals over 5 s: each one k6 starts registers a new agent (at least one request); one it
    // could not start in time (a machine busy with other tests) is counted dropped, never lost. The
    // export as shipped guards drops and late steps at 0 (issue 70 part 2): then k6 exits 99, loudly.
    const requests = sum(k6Counts(out));
    const dropped = k6Dropped(out);
    expect(ran.code === 0 || (ran.code === 99 && dropped > 0), `exit ${ran.code}, ${dropped} dropped or late`).toBe(
      true,
    );
    expect(requests).toBeGreaterThan(0);
    expect(requests + dropped).toBeGreaterThanOrEqual(20);
  }, 300_000);
});
