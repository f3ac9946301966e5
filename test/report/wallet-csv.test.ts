// wallet.csv from a fabricated event stream: agents' sends counted at broadcast and at their block
// (the aggregator's payouts and mints are not sends), orders by input chain and how they ended,
// a finished order's fee on its input chain; rows in the wallet's chain order; no file at all for
// a run without wallet sends or swaps.
import { describe, expect, test } from 'vitest';
import type { DomainEvent } from '../../src/services/shared/events.ts';
import { renderWalletCsv, walletRowsFromEvents } from '../../src/report/wallet-csv.ts';

const sent = (hash: string, chain: string, kind: string): DomainEvent => ({
  type: 'wallet.sent',
  atMs: 1,
  hash,
  kind,
  chain,
  asset: 'native',
  from: 'a',
  to: 'b',
  amount: 1n,
  fee: 0n,
  blockAtMs: 2,
});
const settled = (hash: string, chain: string, status: string): DomainEvent => ({
  type: 'wallet.settled',
  atMs: 2,
  hash,
  chain,
  status,
  failure: status === 'failed' ? 'rule' : null,
});
const swap = (orderId: string, status: string, fromChain: string): DomainEvent => ({
  type: 'wallet.swap',
  atMs: 3,
  orderId,
  status,
  fromChain,
  toChain: 'base',
  amount: 1n,
});

describe('wallet.csv', () => {
  test('counts sends, orders and fees per chain in the chain order', () => {
    const events: DomainEvent[] = [
      sent('h1', 'tron', 'send'),
      sent('h2', 'tron', 'send'),
      sent('h3', 'ethereum', 'send'),
      sent('p1', 'tron', 'swap-payout'),
      { type: 'wallet.minted', atMs: 0, chain: 'solana', asset: 'native', to: 'a', amount: 5n },
      settled('h1', 'tron', 'confirmed'),
      settled('h2', 'tron', 'failed'),
      settled('p1', 'tron', 'confirmed'),
      swap('o1', 'waiting', 'ethereum'),
      swap('o1', 'confirming', 'ethereum'),
      swap('o1', 'finished', 'ethereum'),
      { type: 'wallet.fee', atMs: 4, orderId: 'o1', agentId: 'x', feeMicro: 1_234_567n },
      swap('o2', 'waiting', 'ethereum'),
      swap('o2', 'expired', 'ethereum'),
      swap('o3', 'waiting', 'tron'),
      swap('o3', 'refunded', 'tron'),
    ];
    const rows = walletRowsFromEvents(events);
    expect(rows?.map((row) => row.chain)).toEqual(['ethereum', 'tron']);
    expect(renderWalletCsv(rows ?? [])).toBe(
      [
        'chain,sends,sends_confirmed,sends_failed,swaps,swaps_finished,swaps_failed,swaps_refunded,swaps_expired,swap_fees_usdc',
        'ethereum,1,0,0,2,1,0,0,1,1.234567',
        'tron,2,1,1,1,0,0,1,0,0.000000',
        '',
      ].join('\n'),
    );
  });

  test('no rows without sends or swaps (mints alone write no file)', () => {
    expect(
      walletRowsFromEvents([
        { type: 'wallet.minted', atMs: 0, chain: 'base', asset: 'native', to: 'a', amount: 1n },
        { type: 'wallet.created', atMs: 0, agentId: 'a' },
      ]),
    ).toBeUndefined();
  });
});
