// The load benchmark's pieces, quickly, on real loopback servers: the stall schedule by exact
// instants; the stalling server holds an answer exactly until its stall ends and answers at once
// outside stalls; a closed loop over it hides the stall in its p99 (only its max shows it).
import { describe, expect, test } from 'vitest';
import { closedLoopUnderStalls, stallRunMs } from '../../bench/load-phase.ts';
import { serveInChild } from '../../bench/load-server-child.ts';
import { stallEndMs, startLoadServer, STALL_EVERY_5S, type StallSchedule } from '../../bench/load-servers.ts';

const SHORT: StallSchedule = { periodMs: 1_000, stallMs: 400 };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the wall clock's phase in `periodMs` is `phaseMs`. */
async function waitForPhase(periodMs: number, phaseMs: number): Promise<void> {
  await sleep((phaseMs - (Date.now() % periodMs) + periodMs) % periodMs);
}

async function timedGet(url: string): Promise<{ status: number; ms: number }> {
  const startedAt = performance.now();
  const response = await fetch(url);
  await response.text();
  return { status: response.status, ms: performance.now() - startedAt };
}

describe('stallEndMs', () => {
  test('the last stallMs of every period, on the epoch clock', () => {
    expect(stallEndMs(0, STALL_EVERY_5S)).toBeNull();
    expect(stallEndMs(3_999, STALL_EVERY_5S)).toBeNull();
    expect(stallEndMs(4_000, STALL_EVERY_5S)).toBe(5_000);
    expect(stallEndMs(4_999, STALL_EVERY_5S)).toBe(5_000);
    expect(stallEndMs(5_000, STALL_EVERY_5S)).toBeNull();
    expect(stallEndMs(1_700_000_004_250, STALL_EVERY_5S)).toBe(1_700_000_005_000);
    expect(stallRunMs(STALL_EVERY_5S)).toBe(6_000);
  });
});

describe('the stalling server', () => {
  test('holds an answer until its stall ends, answers at once outside stalls', async () => {
    const server = await startLoadServer({ kind: 'stalling', schedule: SHORT });
    try {
      await timedGet(server.url); // the connection's first use
      await waitForPhase(SHORT.periodMs, 100);
      const outside = await timedGet(server.url);
      await waitForPhase(SHORT.periodMs, 700);
      const inside = await timedGet(server.url);
      expect(outside.status).toBe(200);
      expect(outside.ms).toBeLessThan(100);
      expect(inside.status).toBe(200);
      // Sent at phase ~700 of a stall from 600 to 1,000: answered at its end, ~300 ms later.
      expect(inside.ms).toBeGreaterThan(200);
      expect(inside.ms).toBeLessThan(420);
      expect(server.stalledAnswers()).toBeGreaterThanOrEqual(1);
    } finally {
      await server.close();
    }
  });

  test('the trivial server in a child process answers 200 {} and stops by its pid', async () => {
    const child = await serveInChild({ kind: 'trivial' });
    const response = await fetch(child.url);
    expect([response.status, await response.text()]).toEqual([200, '{}']);
    await child.stop();
    await expect(fetch(child.url)).rejects.toThrow();
  });
});

describe('a closed loop over the stalling server', () => {
  test('its p99 hides the stall: only its max shows it', async () => {
    const child = await serveInChild({ kind: 'stalling', schedule: SHORT });
    try {
      const run = await closedLoopUnderStalls(child.url, 4, stallRunMs(SHORT));
      expect(run.failed).toBe(0);
      expect(run.requests).toBeGreaterThan(200);
      expect(run.latency.maxMs).toBeGreaterThan(200);
      expect(run.latency.p99Ms).toBeLessThan(100);
    } finally {
      await child.stop();
    }
  });
});
