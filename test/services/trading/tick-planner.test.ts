// The tick planner against its stepping twin: two platforms of one seed get the same trading
// (limit orders near and far, leveraged positions, triggers, spot, cancels, closes) and escrows
// that expire on tick boundaries; one arms its trading tick only where something can act, the
// other every minute (TradingService.stepEveryTick). Every answer, every event (in order) and
// the comparable digest (comparable-digest.ts) must agree; then a century in one move must be fast.
import { describe, expect, it } from 'vitest';
import { usdc } from '../../../src/core/money.ts';
import { Platform } from '../../../src/platform/platform.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';
import { PRICE_ONE } from '../../../src/services/trading/price-scale.ts';
import { marketBySymbol } from '../../../src/services/trading/market-catalogue.ts';
import { addAgent } from '../../fixtures/agents.ts';
import { comparableDigest } from './comparable-digest.ts';

const START = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const DAY = 86_400_000;
const AGENTS = ['alice', 'bob', 'carol', 'dave'];
const SYMBOLS = ['BTC-PERP', 'ETH-PERP', 'SOL-PERP', 'BTC-USDC', 'DOGE-PERP'];

interface Twin {
  platform: Platform;
  events: string[];
}

function twin(seed: string, stepping: boolean): Twin {
  const platform = new Platform({ seed, startMs: START });
  platform.trading.stepEveryTick = stepping;
  for (const id of AGENTS) addAgent(platform, id, { createdAtMs: START, fundMicro: usdc(50_000) });
  const events: string[] = [];
  platform.onEvent((event: DomainEvent) =>
    events.push(JSON.stringify(event, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))),
  );
  return { platform, events };
}

/** A small seeded generator (the test's own; the platforms get the seed string). */
function lcg(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

/** One scripted action on a platform at `nowMs`; its answer as text (both twins must answer alike). */
function act(platform: Platform, pick: (below: number) => number, nowMs: number): string {
  platform.advanceTo(nowMs);
  const agentId = AGENTS[pick(AGENTS.length)] as string;
  const symbol = SYMBOLS[pick(SYMBOLS.length)] as string;
  const market = marketBySymbol(symbol);
  if (market === undefined) throw new Error(symbol);
  const mid = platform.trading.prices.mid(market, nowMs);
  const choice = pick(10);
  const trading = platform.trading;
  const answer = (outcome: { ok: boolean }): string =>
    JSON.stringify(outcome, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
  if (choice <= 3) {
    const side = pick(2) === 0 ? 'buy' : 'sell';
    const awayBps = BigInt(20 + pick(800));
    const limitPrice = side === 'buy' ? (mid * (10_000n - awayBps)) / 10_000n : (mid * (10_000n + awayBps)) / 10_000n;
    return answer(
      trading.place(
        {
          agentId,
          symbol,
          side,
          type: 'limit',
          amountMicro: usdc(50 + pick(400)),
          leverage: market.kind === 'spot' ? 1 : 1 + pick(10),
          limitPrice,
        },
        nowMs,
      ),
    );
  }
  if (choice <= 5)
    return answer(
      trading.place(
        {
          agentId,
          symbol,
          side: pick(2) === 0 ? 'buy' : 'sell',
          type: 'market',
          amountMicro: usdc(50 + pick(400)),
          leverage: market.kind === 'spot' ? 1 : 1 + pick(10),
          limitPrice: null,
        },
        nowMs,
      ),
    );
  const open = trading.book.openPositionList();
  if (choice <= 7 && open.length > 0) {
    const position = open[pick(open.length)];
    if (position === undefined) throw new Error('position');
    const positionMarket = marketBySymbol(position.symbol);
    if (positionMarket === undefined) throw new Error('market');
    const mark = trading.prices.mid(positionMarket, nowMs);
    const kind = pick(2) === 0 ? 'stop-loss' : 'take-profit';
    const down = (kind === 'stop-loss') === (position.side === 'long');
    const awayBps = BigInt(30 + pick(600));
    const triggerPrice = down ? (mark * (10_000n - awayBps)) / 10_000n : (mark * (10_000n + awayBps)) / 10_000n;
    return answer(
      trading.setTrigger(
        {
          agentId: position.agentId,
          positionId: position.id,
          kind,
          triggerPrice: triggerPrice > 0n ? triggerPrice : PRICE_ONE,
        },
        nowMs,
      ),
    );
  }
  if (choice === 8) {
    const orders = trading.book.openOrderList();
    const order = orders[pick(Math.max(1, orders.length))];
    return order === undefined ? 'none' : answer(trading.cancel({ agentId: order.agentId, orderId: order.id }, nowMs));
  }
  const receiver = AGENTS[(AGENTS.indexOf(agentId) + 1) % AGENTS.length] as string;
  // Expires on a minute boundary: the same instant as a tick, so their order is compared too.
  return answer(
    platform.escrow.create(
      {
        senderId: agentId,
        receiver,
        amountMicro: usdc(5),
        description: null,
        expiresInSeconds: 60 * (1 + pick(600)),
        referrer: null,
        conditions: null,
      },
      nowMs,
    ),
  );
}

describe('trading tick planner', () => {
  it('fills, triggers, liquidates and funds exactly as stepping every tick does', () => {
    for (const seed of [7, 8]) {
      const planned = twin(String(seed), false);
      const stepped = twin(String(seed), true);
      const pickA = lcg(seed);
      const pickB = lcg(seed);
      let nowMs = START;
      for (let step = 0; step < 120; step++) {
        // Half the actions on a minute boundary exactly (where ticks and escrow expiries meet).
        nowMs += pickA(2) === 0 ? MINUTE * (1 + pickA(240)) : 1 + pickA(6 * 3_600_000);
        pickB(2);
        pickB(1);
        expect(act(planned.platform, pickA, nowMs)).toBe(act(stepped.platform, pickB, nowMs));
      }
      for (const until of [nowMs + DAY, nowMs + 8 * DAY]) {
        planned.platform.advanceTo(until);
        stepped.platform.advanceTo(until);
        expect(planned.events.length).toBe(stepped.events.length);
        expect(planned.events).toEqual(stepped.events);
        expect(comparableDigest(planned.platform)).toBe(comparableDigest(stepped.platform));
      }
      const kinds = new Set(planned.events.map((text) => (JSON.parse(text) as { type: string }).type));
      for (const kind of [
        'trading.filled',
        'trading.funding',
        'trading.liquidated',
        'trading.trigger-fired',
        'escrow.expired',
      ])
        expect(kinds, `seed ${seed} saw ${[...kinds].join(', ')}`).toContain(kind);
    }
  });

  it('moves a century with open orders and positions in well under the stepping time', () => {
    const platform = new Platform({ seed: 'century', startMs: START });
    for (const id of AGENTS) addAgent(platform, id, { createdAtMs: START, fundMicro: usdc(50_000) });
    const pick = lcg(99);
    let nowMs = START;
    for (let step = 0; step < 40; step++) {
      nowMs += MINUTE * (1 + pick(30));
      act(platform, pick, nowMs);
    }
    const openBefore = platform.trading.book.openOrderCount + platform.trading.book.openPositionCount;
    expect(openBefore).toBeGreaterThan(0);
    let events = 0;
    platform.onEvent(() => events++);
    const startedMs = performance.now();
    const cpuBefore = process.cpuUsage();
    platform.advanceTo(nowMs + 100 * 365 * DAY);
    const tookMs = performance.now() - startedMs;
    const cpu = process.cpuUsage(cpuBefore);
    process.stdout.write(
      `tick planner: 100 years with ${openBefore} open orders and positions: ${events} events in ${tookMs.toFixed(0)} ms (${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of CPU)\n`,
    );
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(5_000);
  });
});
