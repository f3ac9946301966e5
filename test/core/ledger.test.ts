// The ledger: double entry, non-negativity, and the O(1) conservation sum.
import { describe, expect, it } from 'vitest';
import { EXTERNAL, FAUCET_POOL, Ledger, agentAccount } from '../../src/core/ledger.ts';

describe('Ledger', () => {
  it('moves money between accounts and keeps the sum at zero', () => {
    const ledger = new Ledger();
    const seen: string[] = [];
    ledger.onTransfer({ onTransfer: (transfer) => seen.push(transfer.reason) });
    ledger.transfer({ from: EXTERNAL, to: FAUCET_POOL, amountMicro: 1_000n, reason: 'fund', reference: 'genesis' });
    ledger.transfer({ from: FAUCET_POOL, to: agentAccount('a'), amountMicro: 400n, reason: 'claim', reference: 'a' });
    expect(ledger.balance(EXTERNAL)).toBe(-1_000n);
    expect(ledger.balance(FAUCET_POOL)).toBe(600n);
    expect(ledger.balance(agentAccount('a'))).toBe(400n);
    expect(ledger.sumMicro).toBe(0n);
    expect(ledger.auditSum()).toBe(0n);
    expect(ledger.transfers).toBe(2);
    expect(seen).toEqual(['fund', 'claim']);
  });

  it('asserts on overdrafts, zero amounts and self-transfers', () => {
    const ledger = new Ledger();
    expect(() =>
      ledger.transfer({ from: FAUCET_POOL, to: 'x', amountMicro: 1n, reason: 'overdraft', reference: '' }),
    ).toThrow(/non-negative/);
    expect(() => ledger.transfer({ from: EXTERNAL, to: 'x', amountMicro: 0n, reason: 'zero', reference: '' })).toThrow(
      /positive/,
    );
    expect(() => ledger.transfer({ from: 'x', to: 'x', amountMicro: 1n, reason: 'self', reference: '' })).toThrow(
      /two accounts/,
    );
    expect(ledger.transfers).toBe(0);
  });

  it('shows a fault mint in the conservation sum', () => {
    const ledger = new Ledger();
    ledger.faultMint(agentAccount('a'), 5n);
    expect(ledger.sumMicro).toBe(5n);
    expect(ledger.auditSum()).toBe(5n);
  });
});

describe('Ledger slots', () => {
  it('gives listeners both balances after the transfer, and reads every balance right after many interleaved accounts', () => {
    const ledger = new Ledger();
    const seen: Array<[string, bigint, bigint]> = [];
    ledger.onTransfer({
      onTransfer: (transfer, after) => seen.push([transfer.reason, after.fromMicro, after.toMicro]),
    });
    ledger.transfer({ from: EXTERNAL, to: FAUCET_POOL, amountMicro: 1_000n, reason: 'fund', reference: 'genesis' });
    ledger.transfer({ from: FAUCET_POOL, to: agentAccount('a'), amountMicro: 400n, reason: 'claim', reference: 'a' });
    expect(seen).toEqual([
      ['fund', -1_000n, 1_000n],
      ['claim', 600n, 400n],
    ]);
    // A plain map of balances, moved alongside: the ledger's recent-account shortcut must never answer stale.
    const expected = new Map<string, bigint>([
      [EXTERNAL, -1_000n],
      [FAUCET_POOL, 600n],
      [agentAccount('a'), 400n],
    ]);
    const names = ['x', 'y', 'z', agentAccount('a'), FAUCET_POOL, ''];
    for (let step = 0; step < 500; step++) {
      const from = step % 3 === 0 ? EXTERNAL : (names[step % names.length] as string);
      const to = names[(step * 7 + 1) % names.length] as string;
      const amountMicro = BigInt((step % 5) + 1);
      if (from === to || (from !== EXTERNAL && (expected.get(from) ?? 0n) < amountMicro)) continue;
      ledger.transfer({ from, to, amountMicro, reason: 'move', reference: String(step) });
      expected.set(from, (expected.get(from) ?? 0n) - amountMicro);
      expected.set(to, (expected.get(to) ?? 0n) + amountMicro);
      for (const name of [...names, EXTERNAL, 'never']) expect(ledger.balance(name)).toBe(expected.get(name) ?? 0n);
    }
    expect(ledger.accounts()).toEqual(expected);
    expect(ledger.auditSum()).toBe(0n);
  });

  it('leaves no trace of a refused transfer, and hands out a fresh map of accounts', () => {
    const ledger = new Ledger();
    expect(() =>
      ledger.transfer({ from: 'empty', to: 'x', amountMicro: 1n, reason: 'overdraft', reference: '' }),
    ).toThrow(/non-negative/);
    expect([...ledger.accounts().keys()]).toEqual([]);
    ledger.transfer({ from: EXTERNAL, to: 'x', amountMicro: 2n, reason: 'fund', reference: '' });
    const before = ledger.accounts();
    ledger.transfer({ from: 'x', to: 'y', amountMicro: 1n, reason: 'move', reference: '' });
    expect(before).toEqual(
      new Map([
        [EXTERNAL, -2n],
        ['x', 2n],
      ]),
    );
    expect(ledger.accounts()).toEqual(
      new Map([
        [EXTERNAL, -2n],
        ['x', 1n],
        ['y', 1n],
      ]),
    );
  });
});
