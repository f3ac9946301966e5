// The ledger audit of GET /_afp/state as a sliced job (src/server/ledger-audit.ts), no sockets:
// under the platform lock with one step per slice it reads 10,000 accounts in pieces of the
// lock's step (a slice each: the loop turns between them, platform-lock.test.ts), and sums to exactly what auditSum() gives (a
// deliberately broken ledger too); a transfer queued meanwhile runs after it, so it is not in the
// audit; run whole, the job is auditSum() itself.
import { describe, expect, test } from 'vitest';
import { EXTERNAL, Ledger, agentAccount } from '../../src/core/ledger.ts';
import { ledgerAuditJob } from '../../src/server/ledger-audit.ts';
import { PlatformLock, runWhole } from '../../src/server/platform-lock.ts';

const ACCOUNTS = 10_000;

function filledLedger(): Ledger {
  const ledger = new Ledger();
  for (let index = 0; index < ACCOUNTS; index++)
    ledger.transfer({
      from: EXTERNAL,
      to: agentAccount(`a${index}`),
      amountMicro: BigInt(index + 1),
      reason: 'fund',
      reference: 'test',
    });
  return ledger;
}

describe('the ledger audit in slices', () => {
  test('sums every account in pieces, a slice each; work sent meanwhile follows it', async () => {
    const ledger = filledLedger();
    ledger.faultMint(agentAccount('a7'), 5n); // a broken ledger: the audit must see it
    const expected = ledger.auditSum();
    expect(expected).toBe(5n);
    const lock = new PlatformLock({ sliceMs: 0 });
    const audit = lock.job(() => ledgerAuditJob(ledger));
    const late = lock.later(() =>
      ledger.transfer({
        from: EXTERNAL,
        to: agentAccount('late'),
        amountMicro: 1_000n,
        reason: 'late',
        reference: 'test',
      }),
    );
    expect(await audit).toBe(expected);
    await late;
    expect(ledger.auditSum()).toBe(expected); // the late transfer moved money both ways
    expect(ledger.balance(agentAccount('late'))).toBe(1_000n);
    // ACCOUNTS + 1 accounts (external too), a step of the lock's 2,048 units per slice.
    expect(lock.view()).toMatchObject({ jobs: 1, slices: Math.ceil((ACCOUNTS + 1) / 2_048) });
  });

  test('run whole, it is auditSum()', () => {
    const ledger = filledLedger();
    expect(runWhole(ledgerAuditJob(ledger))).toBe(ledger.auditSum());
    expect(runWhole(ledgerAuditJob(new Ledger()))).toBe(0n);
  });
});
