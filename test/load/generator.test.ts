// The load generator against a real node:http server on loopback whose latency the test controls:
// the open model drops what it cannot start under max_in_flight (and never exceeds it), measures
// latency from the intended start so a stalled server shows its stall, the closed model runs its
// VUs back to back, and a stop lets iterations finish within graceful_stop, then cuts the rest.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { ArrivalPlan, VuPlan } from '../../src/load/executors.ts';
import { LoadStop, runGenerator, type IterationEnd, type IterationSource } from '../../src/load/generator.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import {
  LoadRecorder,
  percentilesOf,
  decodeHistogram,
  type LoadSample,
  type LoadSnapshot,
} from '../../src/load/load-recorder.ts';
import { loadSender, type LoadSender } from '../../src/load/load-run-transport.ts';
import { recordingTransport } from '../../src/load/recording-transport.ts';

const clock = systemLoadClock();
const servers: Server[] = [];
const senders: LoadSender[] = [];
afterEach(async () => {
  for (const sender of senders.splice(0)) sender.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

interface Loopback {
  url: string;
  /** The most requests the server held at once. */
  maxConcurrent: number;
  received: number;
}

/** A JSON server whose answer to each request waits `delayMs(receivedAtMs)` ms (null: never answers). */
async function loopback(delayMs: (atMs: number) => number | null): Promise<Loopback> {
  const state: Loopback = { url: '', maxConcurrent: 0, received: 0 };
  let concurrent = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    state.received += 1;
    concurrent += 1;
    state.maxConcurrent = Math.max(state.maxConcurrent, concurrent);
    request.resume();
    const answer = (): void => {
      concurrent -= 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    };
    const waitMs = delayMs(clock.nowMs());
    if (waitMs === null) response.on('close', () => (concurrent -= 1));
    else setTimeout(answer, waitMs);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** One request per iteration, through the same recording transport the agents use. */
function oneRequestSource(url: string, recorder: () => LoadRecorder): { source: IterationSource; sender: LoadSender } {
  const sender = loadSender({ urls: { api: url }, maxSockets: 100, timeoutMs: 10_000 });
  senders.push(sender);
  let intended: number | null = null;
  const transport = recordingTransport({
    sender,
    clock,
    onSample: (sample) => recorder().record(sample),
    takeIntendedStartMs: () => {
      const value = intended;
      intended = null;
      return value;
    },
  });
  const source: IterationSource = {
    start(intendedStartMs, ended) {
      intended = intendedStartMs;
      transport({ mount: 'api', method: 'GET', path: '/work' }).then(
        () => ended(null),
        (error: unknown) => ended({ error }),
      );
      return true;
    },
  };
  return { source, sender };
}

const arrivals = (
  overrides: Partial<{ rate: number; durationMs: number; maxInFlight: number; gracefulStopMs: number }>,
): ArrivalPlan => ({
  kind: 'arrivals',
  executor: 'constant-arrival-rate',
  timeUnitMs: 1000,
  rate: 20,
  durationMs: 1000,
  maxInFlight: 100,
  gracefulStopMs: 2000,
  ...overrides,
});

async function run(
  plan: ArrivalPlan | VuPlan,
  server: Loopback,
  stop = new LoadStop(),
): Promise<{ snapshot: LoadSnapshot; interrupted: number; endedBy: string; tookMs: number }> {
  const recorder = new LoadRecorder(clock.nowMs());
  const { source, sender } = oneRequestSource(server.url, () => recorder);
  const outcome = await runGenerator({ plan, clock, recorder, source, stop, interrupt: () => sender.interrupt() });
  return {
    snapshot: recorder.snapshot(),
    interrupted: outcome.interrupted,
    endedBy: outcome.endedBy,
    tookMs: outcome.endMs - recorder.startMs,
  };
}

const requests = (snapshot: LoadSnapshot): number =>
  snapshot.endpoints.reduce((total, endpoint) => total + endpoint.requests, 0);

describe('open model', () => {
  test('a small max_in_flight: every arrival is started or dropped, never more in flight than the cap', async () => {
    const server = await loopback(() => 300);
    const { snapshot } = await run(arrivals({ rate: 20, durationMs: 1000, maxInFlight: 2 }), server);
    const { started, completed, dropped } = snapshot.iterations;
    expect(started + dropped).toBe(20);
    expect(server.maxConcurrent).toBeLessThanOrEqual(2);
    // Two slots, each busy 300 ms, over one second: about 8 starts on an idle machine (fewer when
    // a busy one answers late); the rest dropped. At least 3: a slot that freed up was used again.
    expect(started).toBeGreaterThanOrEqual(3);
    expect(started).toBeLessThanOrEqual(10);
    expect(dropped).toBeGreaterThanOrEqual(10);
    expect(completed).toBe(started);
    expect(requests(snapshot)).toBe(started);
    expect(snapshot.endpoints.map((endpoint) => endpoint.endpoint)).toEqual(['api GET /work']);
  });

  test('latency runs from the intended start: a server that stalls 600 ms shows the stall in p99', async () => {
    // Answers fast, except that everything arriving in [200, 800) ms waits for the stall's end.
    const startMs = clock.nowMs();
    const server = await loopback((atMs) => {
      const sinceMs = atMs - startMs;
      return sinceMs >= 200 && sinceMs < 800 ? 800 - sinceMs : 1;
    });
    const { snapshot } = await run(arrivals({ rate: 50, durationMs: 1500, maxInFlight: 100 }), server);
    expect(snapshot.iterations.dropped).toBe(0);
    expect(requests(snapshot)).toBe(75);
    const latency = percentilesOf(decodeHistogram(snapshot.endpoints[0]!.latency));
    expect(latency.maxMs).toBeGreaterThanOrEqual(550);
    expect(latency.p99Ms).toBeGreaterThanOrEqual(500);
    expect(latency.p50Ms).toBeLessThan(400);
  });

  test('saturated (a million arrivals a second, 2 slots): waits for a free slot, drops what came due meanwhile, counted exactly', async () => {
    const server = await loopback(() => 20);
    const { snapshot, tookMs } = await run(arrivals({ rate: 1_000_000, durationMs: 1000, maxInFlight: 2 }), server);
    const { started, completed, dropped } = snapshot.iterations;
    expect(started + dropped).toBe(1_000_000);
    expect(server.maxConcurrent).toBeLessThanOrEqual(2);
    // Two slots, each busy about 20 ms, over one second: about 100 starts, never more than 2 per 20 ms.
    expect(started).toBeGreaterThanOrEqual(10);
    expect(started).toBeLessThanOrEqual(102);
    expect(completed).toBe(started);
    // Waiting, not stepping through a million arrivals: the run ends about on time (slack for a busy machine).
    expect(tookMs).toBeLessThan(3000);
  });

  test('saturated: an iteration that ends starts the next due arrival in its own turn, with no promise in between', async () => {
    const recorder = new LoadRecorder(clock.nowMs());
    const running: ((end: IterationEnd) => void)[] = [];
    let starts = 0;
    const source: IterationSource = {
      start(_intendedStartMs, ended) {
        starts += 1;
        running.push(ended);
        return true;
      },
    };
    const stop = new LoadStop();
    const outcome = runGenerator({
      plan: arrivals({ rate: 1_000_000, durationMs: 5_000, maxInFlight: 1, gracefulStopMs: 1_000 }),
      clock,
      recorder,
      source,
      stop,
      interrupt: () => undefined,
    });
    const startedByEnd: number[] = [];
    for (let round = 0; round < 5; round++) {
      await clock.sleep(5);
      const before = starts;
      running.shift()?.(null);
      startedByEnd.push(starts - before);
    }
    expect(startedByEnd).toEqual([1, 1, 1, 1, 1]);
    stop.stop('test');
    running.shift()?.(null);
    const ended = await outcome;
    expect(ended.endedBy).toBe('stopped');
    const { started, completed, dropped } = recorder.snapshot().iterations;
    expect([started, completed]).toEqual([6, 6]);
    // The arrivals due while the one slot was busy (5 ms and more each time, at a million a second) were dropped, counted.
    expect(dropped).toBeGreaterThan(5 * 4_000);
  });

  test('saturated on a slow target: the run still ends at the schedule and the drops cover it', async () => {
    const server = await loopback(() => 700);
    const { snapshot, tookMs } = await run(
      arrivals({ rate: 10_000, durationMs: 500, maxInFlight: 1, gracefulStopMs: 2000 }),
      server,
    );
    expect(snapshot.iterations.started).toBe(1);
    expect(snapshot.iterations.dropped).toBe(4_999);
    expect(snapshot.iterations.completed).toBe(1);
    expect(tookMs).toBeGreaterThanOrEqual(690);
    expect(tookMs).toBeLessThan(3000);
  });

  test('stopped mid-run: no new arrival; in-flight iterations cut after graceful_stop, not samples', async () => {
    const server = await loopback(() => null);
    const stop = new LoadStop();
    const stopping = clock.sleep(300).then(() => stop.stop('test'));
    const result = await run(arrivals({ rate: 10, durationMs: 5000, gracefulStopMs: 300 }), server, stop);
    await stopping;
    expect(result.endedBy).toBe('stopped');
    expect(result.snapshot.iterations.started).toBeGreaterThanOrEqual(3);
    expect(result.snapshot.iterations.started).toBeLessThanOrEqual(4);
    expect(result.interrupted).toBe(result.snapshot.iterations.started);
    expect(result.snapshot.iterations.completed).toBe(0);
    expect(requests(result.snapshot)).toBe(0);
    expect(result.tookMs).toBeLessThan(2000);
  });
});

describe('closed model', () => {
  test('constant-vus: each VU runs its iterations back to back, never more VUs in flight', async () => {
    const server = await loopback(() => 100);
    const plan: VuPlan = { kind: 'vus', executor: 'constant-vus', vus: 2, durationMs: 1000, gracefulStopMs: 1000 };
    const { snapshot } = await run(plan, server);
    expect(server.maxConcurrent).toBe(2);
    // Two VUs, 100 ms an iteration, one second: about 20 iterations, none dropped.
    expect(snapshot.iterations.started).toBeGreaterThanOrEqual(14);
    expect(snapshot.iterations.started).toBeLessThanOrEqual(22);
    expect(snapshot.iterations.dropped).toBe(0);
    expect(snapshot.iterations.completed).toBe(snapshot.iterations.started);
  });
});

describe('recording transport', () => {
  test("a request waits for what `before` hands over (an agent's set-up calls) and goes out at once when it hands null", async () => {
    const server = await loopback(() => 0);
    const sender = loadSender({ urls: { api: server.url }, maxSockets: 4, timeoutMs: 10_000 });
    senders.push(sender);
    const samples: LoadSample[] = [];
    let release = (): void => undefined;
    let pending: Promise<void> | null = new Promise<void>((resolve) => (release = resolve));
    let intended: number | null = 1;
    const transport = recordingTransport({
      sender,
      clock,
      onSample: (sample) => samples.push(sample),
      takeIntendedStartMs: () => intended,
      before: () => pending,
    });
    const first = transport({ mount: 'api', method: 'GET', path: '/first' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.received).toBe(0);
    pending = null;
    release();
    expect((await first).status).toBe(200);
    intended = null;
    const second = transport({ mount: 'api', method: 'GET', path: '/second' });
    expect((await second).status).toBe(200);
    expect(server.received).toBe(2);
    expect(samples.map((sample) => sample.intendedStartMs < sample.endMs)).toEqual([true, true]);
    // The first request's latency runs from its iteration's intended start, the set-up wait included.
    expect(samples[0]?.intendedStartMs).toBe(1);
  });
});
