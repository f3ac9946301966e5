// orders.csv and positions.csv: the exact bytes for a hand-built record (sorted by instant then id,
// 6-decimal money, 8-decimal prices and quantities, empty cells for absent figures), a header
// only when nothing traded, and no trading files at all for a run without orders.
import { describe, expect, test } from 'vitest';
import type { RunRecord } from '../../src/report/run-record.ts';
import { renderOrdersCsv, renderPositionsCsv } from '../../src/report/trading-csv.ts';
import { renderReports } from '../../src/report/write-reports.ts';
import { KeptEvents } from '../../src/report/run-events.ts';

const T0 = Date.UTC(2026, 0, 1);

const BASE: RunRecord = {
  scenario: 's',
  seed: '1',
  startMs: T0,
  endMs: T0 + 3_600_000,
  reproduce: 'afp run s.yaml --seed 1',
  outcome: 'completed',
  agents: [],
  endpoints: [],
  escrows: [],
  events: new KeptEvents(),
  invariants: [],
  totals: {
    requests: 0,
    agents: 0,
    escrows: 0,
    ledgerSumMicro: 0n,
    feeIncomeMicro: 0n,
    faucetPoolMicro: 0n,
    agentBalancesMicro: 0n,
  },
};

const RECORD: RunRecord = {
  ...BASE,
  trading: {
    orders: [
      {
        orderId: 'ord_b',
        agentId: 'bob',
        symbol: 'ETH-USDC',
        kind: 'spot',
        side: 'buy',
        type: 'limit',
        amountMicro: 5_000_000n,
        leverage: 1,
        limitPrice: 100_050_000_000n,
        status: 'open',
        fillPrice: null,
        fillQty: null,
        feeMicro: 0n,
        liquidity: null,
        realizedPnlMicro: 0n,
        createdAtMs: T0 + 2000,
        filledAtMs: null,
        cancelledAtMs: null,
      },
      {
        orderId: 'ord_a',
        agentId: 'alice',
        symbol: 'BTC-PERP',
        kind: 'perp',
        side: 'buy',
        type: 'market',
        amountMicro: 80_000_000n,
        leverage: 10,
        limitPrice: null,
        status: 'filled',
        fillPrice: 9_603_155_847_901n,
        fillQty: 83_305n,
        feeMicro: 160_000n,
        liquidity: 'taker',
        realizedPnlMicro: -1_500_000n,
        createdAtMs: T0 + 2000,
        filledAtMs: T0 + 2000,
        cancelledAtMs: null,
      },
    ],
    positions: [
      {
        positionId: 'pos_a',
        agentId: 'alice',
        symbol: 'BTC-PERP',
        side: 'long',
        status: 'liquidated',
        entryPrice: 9_603_155_847_901n,
        qty: 83_305n,
        marginMicro: 0n,
        leverage: 10,
        fundingPaidMicro: -22_867n,
        realizedPnlMicro: -8_022_867n,
        liquidationMark: 6_318_089_414_779n,
        openedAtMs: T0 + 2000,
        closedAtMs: T0 + 60_000,
      },
    ],
  },
};

describe('trading CSVs', () => {
  test('exact bytes', () => {
    expect(renderOrdersCsv(RECORD)).toBe(
      'order_id,agent_id,symbol,market_type,side,type,amount,leverage,limit_price,status,fill_price,fill_qty,fee,liquidity,realized_pnl,created_at,filled_at,cancelled_at\n' +
        'ord_a,alice,BTC-PERP,perp,buy,market,80.000000,10,,filled,96031.55847901,0.00083305,0.160000,taker,-1.500000,2026-01-01T00:00:02.000Z,2026-01-01T00:00:02.000Z,\n' +
        'ord_b,bob,ETH-USDC,spot,buy,limit,5.000000,1,1000.50,open,,,0.000000,,0.000000,2026-01-01T00:00:02.000Z,,\n',
    );
    expect(renderPositionsCsv(RECORD)).toBe(
      'position_id,agent_id,symbol,side,status,entry_price,qty,margin,leverage,funding_paid,realized_pnl,liquidation_mark,opened_at,closed_at\n' +
        'pos_a,alice,BTC-PERP,long,liquidated,96031.55847901,0.00083305,0.000000,10,-0.022867,-8.022867,63180.89414779,2026-01-01T00:00:02.000Z,2026-01-01T00:01:00.000Z\n',
    );
  });

  test('written (and digested) only for runs that placed orders', () => {
    const which = ['agents', 'orders', 'positions'] as const;
    expect(renderReports(RECORD, which).files.map((file) => file.file)).toEqual([
      'agents.csv',
      'orders.csv',
      'positions.csv',
    ]);
    expect(renderReports(BASE, which).files.map((file) => file.file)).toEqual(['agents.csv']);
    expect(renderOrdersCsv(BASE)).toBe(
      'order_id,agent_id,symbol,market_type,side,type,amount,leverage,limit_price,status,fill_price,fill_qty,fee,liquidity,realized_pnl,created_at,filled_at,cancelled_at\n',
    );
  });
});
