// The ledger: double entry, non-negativity, and the O(1) conservation sum.
import { describe, expect, it } from 'vitest';
import { EXTERNAL, FAUCET_POOL, Ledger, agentAccount } from '../../src/core/ledger.ts';

describe('Ledger', () => {
  it('moves money between accounts and keeps the sum at zero', () => {
    const ledger = new Ledger();
    const seen: string[] = [];
    ledger.onTransfer((transfer) => seen.push(transfer.reason));
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
    expect(() => ledger.transfer({ from: FAUCET_POOL, to: 'x', amountMicro: 1n, reason: 'overdraft', reference: '' })).toThrow(/non-negative/);
    expect(() => ledger.transfer({ from: EXTERNAL, to: 'x', amountMicro: 0n, reason: 'zero', reference: '' })).toThrow(/positive/);
    expect(() => ledger.transfer({ from: 'x', to: 'x', amountMicro: 1n, reason: 'self', reference: '' })).toThrow(/two accounts/);
    expect(ledger.transfers).toBe(0);
  });

  it('shows a fault mint in the conservation sum', () => {
    const ledger = new Ledger();
    ledger.faultMint(agentAccount('a'), 5n);
    expect(ledger.sumMicro).toBe(5n);
    expect(ledger.auditSum()).toBe(5n);
  });
});
