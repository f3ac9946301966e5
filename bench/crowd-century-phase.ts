/**
 * The crowded century of the bench's travel part (issue 71 part 4: "a 100-year move with 1,000
 * open positions, 1,000 limit orders, 1,000 escrows and 1,000 domains takes under 2 s of CPU, with
 * /health never waiting more than 100 ms"): an in-process `afp serve` on 127.0.0.1 (manual clock)
 * gets CROWD agents through its dispatcher, each funded from the faucet pool with one perpetual
 * position (both sides, 1x to 3x, over the MARKETS most-traded perpetuals), one resting limit
 * order (1% to 30% away from the mid, either side, over the same markets), one escrow (expiring
 * in 1 hour to 90 days) and one domain (1 to 10 years); then one POST /_afp/clock moves it 100
 * years while a probe sends GET /health every PROBE_MS on its own connection. Reported: the move's
 * CPU time (process.cpuUsage around the move: the server's and the probe's, loop-block.ts), its
 * wall time, the longest /health wait, the slices, and what the century did (positions and orders
 * still open at the end). The verdict is on the CPU time and the /health wait.
 */
import { FAUCET_POOL, agentAccount } from '../src/core/ledger.ts';
import { usdc } from '../src/core/money.ts';
import type { Platform } from '../src/platform/platform.ts';
import { startBlock } from '../src/server/loop-block.ts';
import type { ServeHandle } from '../src/server/listeners.ts';
import { MARKETS } from '../src/services/trading/market-catalogue.ts';
import { DAY_MS } from './century-world.ts';
import { probed } from './travel-probe.ts';

/** Issue 71's goals for the crowded century. */
export const TARGET_CROWD_CPU_MS = 2_000;
export const TARGET_CROWD_HEALTH_MS = 100;
const CROWD = 1_000;
/** Perpetual markets the crowd trades (catalogue order: the majors first). */
const CROWD_MARKETS = 20;
const PROBE_MS = 10;
const CENTURY_MS = 36_525 * DAY_MS;

export interface CrowdResult {
  readonly agents: number;
  readonly markets: number;
  readonly positions: number;
  readonly orders: number;
  readonly escrows: number;
  readonly domains: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly healthWaitMsMax: number;
  readonly probes: number;
  readonly slices: number;
  readonly longestSliceMs: number;
  /** Positions and orders still open after the century. */
  readonly openPositionsAfter: number;
  readonly openOrdersAfter: number;
}

/** Moves `handle`'s crowded platform a century; `register(n)` registers n agents `crowd-<i>` through its dispatcher. */
export async function crowdCentury(handle: ServeHandle, register: (count: number) => void): Promise<CrowdResult> {
  const api = handle.urls.api as string;
  const nowMs = handle.clock.nowMs();
  handle.platform.advanceTo(nowMs);
  register(CROWD);
  const built = buildCrowd(handle.platform, nowMs);
  const block = startBlock();
  const measured = await probed(
    api,
    async () => {
      const response = await fetch(`${api}/_afp/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: CENTURY_MS }),
      });
      const body = (await response.json()) as Record<string, unknown>;
      if (response.status !== 200 || body['now_ms'] !== nowMs + CENTURY_MS)
        throw new Error(`crowded century: the move answered ${response.status}: ${JSON.stringify(body)}`);
    },
    PROBE_MS,
  );
  const took = block();
  const state = (await (await fetch(`${api}/_afp/state`)).json()) as { clock_moves: Record<string, number> };
  return {
    ...built,
    agents: CROWD,
    markets: CROWD_MARKETS,
    cpuMs: took.cpuMs,
    wallMs: took.wallMs,
    healthWaitMsMax: measured.healthWaitMsMax,
    probes: measured.probes,
    slices: Number(state.clock_moves['slices']),
    longestSliceMs: Number(state.clock_moves['longest_slice_ms']),
    openPositionsAfter: handle.platform.trading.book.openPositionCount,
    openOrdersAfter: handle.platform.trading.book.openOrderCount,
  };
}

/** One position, one limit order, one escrow and one domain per agent, at `nowMs`; what is open. */
function buildCrowd(
  platform: Platform,
  nowMs: number,
): { positions: number; orders: number; escrows: number; domains: number } {
  const perps = MARKETS.filter((market) => market.kind === 'perp').slice(0, CROWD_MARKETS);
  for (let index = 0; index < CROWD; index++) {
    const agentId = `crowd-${index}`;
    const fund = { from: FAUCET_POOL, to: agentAccount(agentId), amountMicro: usdc(5_000) };
    platform.ledger.transfer({ ...fund, reason: 'bench.fund', reference: agentId });
    const market = perps[index % perps.length] as (typeof perps)[number];
    const side = index % 2 === 0 ? 'buy' : 'sell';
    const order = { agentId, symbol: market.symbol, amountMicro: usdc(200), leverage: 1 + (index % 3) };
    expectOk(platform.trading.place({ ...order, side, type: 'market', limitPrice: null }, nowMs), 'position');
    const mid = platform.trading.prices.mid(market, nowMs);
    const awayBps = BigInt(100 + ((index * 37) % 2_900));
    const limitSide = index % 4 < 2 ? 'buy' : 'sell';
    const limitPrice =
      limitSide === 'buy' ? (mid * (10_000n - awayBps)) / 10_000n : (mid * (10_000n + awayBps)) / 10_000n;
    expectOk(platform.trading.place({ ...order, side: limitSide, type: 'limit', limitPrice }, nowMs), 'limit');
    const escrow = {
      senderId: agentId,
      receiver: `crowd-${(index + 1) % CROWD}`,
      amountMicro: usdc(5),
      description: null,
      expiresInSeconds: 3_600 + ((index * 7_919) % (90 * 86_400 - 3_600)),
      referrer: null,
      conditions: null,
    };
    expectOk(platform.escrow.create(escrow, nowMs), 'escrow');
    const domain = { callerId: agentId, domain: `crowd-${index}.dev`, years: 1 + (index % 10), resolver: null };
    expectOk(platform.domains.register(domain, nowMs), 'domain');
  }
  const book = platform.trading.book;
  return {
    positions: book.openPositionCount,
    orders: book.openOrderCount,
    escrows: CROWD,
    domains: CROWD,
  };
}

function expectOk(outcome: { ok: boolean; message?: string }, step: string): void {
  if (!outcome.ok) throw new Error(`crowded century: ${step}: ${outcome.message ?? 'refused'}`);
}

export function crowdVerdict(result: CrowdResult): 'PASS' | 'MISS' {
  return result.cpuMs <= TARGET_CROWD_CPU_MS && result.healthWaitMsMax <= TARGET_CROWD_HEALTH_MS ? 'PASS' : 'MISS';
}

export function crowdLine(result: CrowdResult): string {
  return (
    `  crowd    100-year move with ${result.positions} positions and ${result.orders} resting orders (${result.markets} markets), ${result.escrows} escrows, ${result.domains} domains: ` +
    `cpu ${result.cpuMs.toFixed(0)} ms (wall ${result.wallMs.toFixed(0)} ms, ${result.slices} slices, the longest ${result.longestSliceMs.toFixed(1)} ms; ` +
    `longest /health wait ${result.healthWaitMsMax.toFixed(1)} ms, ${result.probes} probes every ${PROBE_MS} ms; open after: ${result.openPositionsAfter} positions, ${result.openOrdersAfter} orders)  ` +
    `target cpu <= ${TARGET_CROWD_CPU_MS} ms, /health <= ${TARGET_CROWD_HEALTH_MS} ms  ${crowdVerdict(result)}`
  );
}
