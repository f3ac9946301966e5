// The k6 runtime's counterparty rule (src/export/k6/k6-agent-run.ts): an agent names an agent of
// another VU or another process only once the schedule shows its setup is over: under an
// arrival-rate executor a whole ring of arrivals after its position (listedBy), under a VU
// executor never (only its own VU's agents, once they learnt their key).
// Driven without k6: each VU is a K6AgentRun of its own (k6 gives every VU its own memory) over a
// fake K6Api whose http answers from one in-process afp platform (the dispatcher afp serve
// mounts), so the target itself says when a request names an agent that is not registered. The
// test decides which VU takes which arrival, and holds one VU's answers back: a registration
// still in flight in another VU or another process, the race a tester saw on two k6 segments
// (404 `referrer escrow-seller-1-<tag> is not a registered agent`).
// The scenario: one escrow-seller and two escrow-buyers that always register with a referrer
// found in the directory (ring: seller-1, buyer-1, buyer-2). The seller's owner is the slow one.
import { describe, expect, test } from 'vitest';
import { AGENTS } from '../../agents/index.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import type { TransportRequest } from '../../src/client/transport.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { K6AgentRun, listedBy, lookAheadOf, type K6Api, type K6SetupData } from '../../src/export/k6/k6-agent-run.ts';
import type { K6RequestParams, K6Response } from '../../src/export/k6/k6-transport.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { agentName } from '../../src/agent/run-agent.ts';

const START_MS = Date.parse('2026-01-01T00:00:00Z');
const BASE = 'http://afp.test';
const RUN_TAG = 't';
/** The seller's agent id (agentName numbers from 0). */
const SELLER = `${agentName('escrow-seller', 0)}-${RUN_TAG}`;
/** Past the buyers' escrow_every: a buyer's next step creates an escrow. */
const ESCROW_DUE_MS = 2 * 60_000;
const SCENARIO = scenarioFromTable(
  `
name: listing
seed: 1
duration: 1h
populations:
  - { agent: escrow-seller, count: 1, style: B }
  - { agent: escrow-buyer, count: 2, style: B, params: { referred: 1, escrow_every: 1m } }
`,
  { agents: AGENTS },
);
const DATA: K6SetupData = { urls: { api: BASE }, offsetMs: 0, runTag: RUN_TAG, admin: false, adminToken: null };

/** What the target answered to one request, with what the request named. */
interface Exchange {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly status: number;
  readonly error: string;
}

/** The one target of every VU: an in-process afp platform, and every exchange it had. */
function target(): {
  readonly clock: VirtualClock;
  readonly exchanges: Exchange[];
  send(method: string, url: string, body: string | null, params: K6RequestParams): Promise<K6Response>;
} {
  const clock = new VirtualClock(START_MS);
  const transport = inProcessTransport({
    dispatcher: new Dispatcher(new Platform({ seed: 'listing', startMs: START_MS }), ALL_ROUTES),
    clock,
  });
  const exchanges: Exchange[] = [];
  return {
    clock,
    exchanges,
    async send(method, url, body, params) {
      expect(url.startsWith(BASE)).toBe(true);
      const [path = '', query = ''] = url.slice(BASE.length).split('?');
      const parsed = body === null ? undefined : (JSON.parse(body) as Record<string, unknown>);
      const request: TransportRequest = {
        mount: 'api',
        // The k6 transport sends the agents' own request methods.
        method: method as TransportRequest['method'],
        path,
        headers: params.headers,
        ...(query === '' ? {} : { query: Object.fromEntries(new URLSearchParams(query)) }),
        ...(parsed === undefined ? {} : { body: parsed }),
      };
      const answer = await transport(request);
      const answerBody = (answer.body ?? {}) as { error?: unknown };
      exchanges.push({
        path,
        body: parsed ?? {},
        status: answer.status,
        error: typeof answerBody.error === 'string' ? answerBody.error : '',
      });
      return { status: answer.status, headers: answer.headers, body: JSON.stringify(answer.body ?? null) };
    },
  };
}

interface Vu {
  /** One iteration, as k6 starts it: arrival `iterationInTest` of the test, `iterationInInstance` of its process. */
  iteration(iterationInTest: number, iterationInInstance: number): Promise<void>;
  /** Holds this VU's requests unanswered until release() (a registration in flight). */
  hold(): void;
  release(): void;
  readonly checks: { readonly name: string; readonly passed: boolean }[];
}

/** VU `inInstance` of `ofInstance` in the process of `segment` (null: unsegmented), over `target`. */
function vu(
  shared: ReturnType<typeof target>,
  options: { inInstance: number; ofInstance: number; segment: string | null; openModel: boolean },
): Vu {
  let held: (() => void)[] | null = null;
  let iterations = { inTest: 0, inInstance: 0 };
  const checks: { name: string; passed: boolean }[] = [];
  const api: K6Api = {
    http: {
      asyncRequest: (method, url, body, params) => {
        const waiting = held;
        if (waiting === null) return shared.send(method, url, body, params);
        return new Promise<void>((resolve) => waiting.push(resolve)).then(() => shared.send(method, url, body, params));
      },
    },
    expected: null,
    check: (passed, name) => void checks.push({ name, passed }),
    late: () => undefined,
    nowMs: () => shared.clock.nowMs(),
    initVu: () => 0,
    vu: () => ({
      inInstance: options.inInstance,
      ofInstance: options.ofInstance,
      iterationInTest: iterations.inTest,
      iterationInInstance: iterations.inInstance,
    }),
    segment: () => options.segment,
    abort: (message) => {
      throw new Error(`aborted: ${message}`);
    },
  };
  const run = new K6AgentRun(api, {
    scenario: {
      populations: SCENARIO.populations,
      maxAgents: SCENARIO.limits.maxAgents,
      startingDepositMicro: null,
    },
    seed: '1',
    agents: AGENTS,
    timeout: '10s',
    openModel: options.openModel,
    vus: options.ofInstance,
    arrivals: null,
  });
  return {
    checks,
    iteration(inTest, inInstance) {
      iterations = { inTest, inInstance };
      return run.iteration(DATA);
    },
    hold() {
      held = [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const resolve of waiting) resolve();
    },
  };
}

/** Lets the held VU's iteration reach its first request. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
}

/** Requests the target refused because they named an agent it does not know. */
function unknownAgents(exchanges: readonly Exchange[]): string[] {
  return exchanges
    .filter((exchange) => exchange.status === 404 && /is not a registered agent/.test(exchange.error))
    .map((exchange) => `${exchange.path}: ${exchange.error}`);
}

/** Escrows created to the seller (a 201, or a 422 for a buyer's balance: the target knew the seller). */
function escrowsToSeller(exchanges: readonly Exchange[]): number {
  return exchanges.filter((exchange) => exchange.body['receiver'] === SELLER && exchange.status !== 404).length;
}

describe('listedBy: the agents of a ring whose setup the schedule shows over', () => {
  test('position g is listed from arrival g + ring size on, where afp load steps it again', () => {
    expect([0, 1, 2, 3, 4, 5].map((arrival) => listedBy(arrival, 3))).toStrictEqual([0, 0, 0, 1, 2, 3]);
    expect(listedBy(29, 30)).toBe(0);
    expect(listedBy(30, 30)).toBe(1);
    expect(listedBy(1_000_000, 1)).toBe(1_000_000);
  });
});

describe('lookAheadOf: how far past its arrival a VU steps its due agents', () => {
  test('unsegmented, its next turn (V - 1); a segment, V + 1 turns of ⌈1/share⌉ + 1 arrivals of the test', () => {
    expect(lookAheadOf(5, null)).toBe(4);
    expect(lookAheadOf(1, null)).toBe(0);
    expect(lookAheadOf(2, 1 / 2)).toBe(9);
    expect(lookAheadOf(3, 1 / 3)).toBe(16);
    expect(lookAheadOf(1, 1)).toBe(4);
  });
});

// The seller's owner (slow) and buyer-1's owner (fast): two VUs of one process, or the only VU of
// each of two processes (segment 1/2:1 owns the seller and buyer-2, 0:1/2 buyer-1). Arrival numbers
// as k6 counts them: exec.scenario.iterationInTest, and iterationInInstance in the VU's process.
const LAYOUTS = [
  {
    name: 'two VUs of one process',
    slow: { inInstance: 1, ofInstance: 2, segment: null },
    fast: { inInstance: 2, ofInstance: 2, segment: null },
    // buyer-1 (position 1) is due at arrival 1 + 3; a VU of two steps it by its next turn.
    fastAgain: { inTest: 4, inInstance: 3 },
  },
  {
    name: 'two processes (execution segments 1/2:1 and 0:1/2)',
    slow: { inInstance: 1, ofInstance: 1, segment: '1/2:1' },
    fast: { inInstance: 1, ofInstance: 1, segment: '0:1/2' },
    // buyer-1 is its process's only agent: due again at its process's arrival 1.
    fastAgain: { inTest: 4, inInstance: 1 },
  },
] as const;

describe('an arrival-rate executor: another VU or process names the seller once its setup is over', () => {
  test.each(LAYOUTS)('$name', async (layout) => {
    const shared = target();
    const slow = vu(shared, { ...layout.slow, openModel: true });
    const fast = vu(shared, { ...layout.fast, openModel: true });
    // Arrival 0: the seller's setup, its registration held (still in flight).
    slow.hold();
    const sellerSetup = slow.iteration(0, 0);
    await settle();
    // Arrival 1: buyer-1's setup looks for a referrer while the seller registers.
    await fast.iteration(1, layout.fast.ofInstance === 2 ? 1 : 0);
    slow.release();
    await sellerSetup;
    // A ring later (arrival 4 >= 0 + 3) the seller is listed, and buyer-1's first step escrows to it.
    shared.clock.advance(ESCROW_DUE_MS);
    await fast.iteration(layout.fastAgain.inTest, layout.fastAgain.inInstance);
    expect(unknownAgents(shared.exchanges)).toStrictEqual([]);
    expect([...slow.checks, ...fast.checks].filter((check) => !check.passed)).toStrictEqual([]);
    expect(escrowsToSeller(shared.exchanges)).toBe(1);
  });
});

describe('a VU executor: a VU names only its own agents', () => {
  test('buyer-1 never names the seller of another VU; buyer-2 names its own VU seller once registered', async () => {
    const shared = target();
    const slow = vu(shared, { inInstance: 1, ofInstance: 2, segment: null, openModel: false });
    const fast = vu(shared, { inInstance: 2, ofInstance: 2, segment: null, openModel: false });
    slow.hold();
    const sellerSetup = slow.iteration(0, 0);
    await settle();
    // The other VU runs on, its iterations ending at once (nothing due), far past any ring.
    for (let iteration = 1; iteration <= 40; iteration++) {
      shared.clock.advance(ESCROW_DUE_MS);
      await fast.iteration(iteration, iteration);
    }
    slow.release();
    await sellerSetup;
    // buyer-2's setup, the seller's step, then buyer-2's first step (a VU steps its agents in turn):
    // the seller is buyer-2's own VU's, listed when it learnt its key.
    await slow.iteration(41, 41);
    await slow.iteration(42, 42);
    shared.clock.advance(ESCROW_DUE_MS);
    await slow.iteration(43, 43);
    expect(unknownAgents(shared.exchanges)).toStrictEqual([]);
    expect([...slow.checks, ...fast.checks].filter((check) => !check.passed)).toStrictEqual([]);
    expect(shared.exchanges.filter((exchange) => exchange.body['referrer'] === SELLER)).toHaveLength(1);
    expect(escrowsToSeller(shared.exchanges)).toBe(1);
  });
});
