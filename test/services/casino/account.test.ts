// CasinoAccount: supported chains, deposit addresses, simulated deposits credited at exactly the
// chain's delay, the transaction history (journal) of every transfer touching an agent, and
// withdrawals (fee, minimum, Base only, review at exactly its end, the skip-balance-check defect),
// with exact balances and ledger conservation (sum 0) after every step.
// The harness drives the platform's timer queue itself: account timers go to the account under
// test (the platform's own timer switch may not route them to this instance); any other due timer
// (the daily referral sweep) is dropped — these tests make none that matter.
import { describe, expect, test } from 'vitest';
import { addAgent } from '../../fixtures/agents.ts';
import { isFailure, type Failure, type Outcome } from '../../../src/core/errors.ts';
import { EXTERNAL, FEE_INCOME, agentAccount } from '../../../src/core/ledger.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { CasinoAccount } from '../../../src/services/casino/account/casino-account.ts';
import { withdrawalAccount, type WithdrawCommand } from '../../../src/services/casino/account/account-records.ts';
import { SUPPORTED_CHAINS } from '../../../src/services/casino/account/supported-chains.ts';
import { CasinoState } from '../../../src/services/casino/casino-state.ts';
import type { DefectName } from '../../../src/services/shared/context.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const BASE_ADDRESS = `0x${'ab'.repeat(20)}`;

interface World {
  platform: Platform;
  account: CasinoAccount;
  events: DomainEvent[];
  /** Runs account timers due at or before `ms` (each at its own instant), then moves to `ms`. */
  at(ms: number): number;
  now(): number;
  balance(account: string): Micro;
}

function world(options: { seed?: string; defects?: DefectName[]; journalEntriesPerAgentMax?: number } = {}): World {
  const platform = new Platform({ seed: options.seed ?? 'x', startMs: 0, defects: options.defects });
  let clockMs = 0;
  const state = new CasinoState(platform.context, platform.config.casino);
  const account = new CasinoAccount(state, {
    clock: { nowMs: () => clockMs },
    journalEntriesPerAgentMax: options.journalEntriesPerAgentMax,
  });
  const events: DomainEvent[] = [];
  platform.onEvent((event) => events.push(event));
  addAgent(platform, 'alice', { createdAtMs: 0, fundMicro: usdc(10) });
  addAgent(platform, 'bob', { createdAtMs: 0 });
  const at = (ms: number): number => {
    for (let next = platform.timers.peek(); next !== undefined && next.atMs <= ms; next = platform.timers.peek()) {
      platform.timers.pop();
      clockMs = next.atMs;
      const timer = next.payload;
      if (timer.kind === 'casino.deposit-confirm' || timer.kind === 'casino.withdrawal-review')
        account.onTimer(timer, next.atMs);
      conserved(platform);
    }
    platform.advanceTo(ms);
    clockMs = ms;
    return ms;
  };
  return { platform, account, events, at, now: () => clockMs, balance: (name) => platform.ledger.balance(name) };
}

/** Conservation: the ledger sums to zero, incrementally and recomputed. */
function conserved(platform: Platform): void {
  expect(platform.ledger.sumMicro).toBe(0n);
  expect(platform.ledger.auditSum()).toBe(0n);
}

function ok<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

function failed<T>(outcome: Outcome<T>): Failure {
  if (outcome.ok) throw new Error('expected a failure, got success');
  return outcome;
}

function withdrawal(overrides: Partial<WithdrawCommand> = {}): WithdrawCommand {
  return { agentId: 'alice', amountMicro: usdc(1), address: BASE_ADDRESS, ...overrides };
}

describe('supported chains', () => {
  test('a table of chains with exact confirmation delays; withdrawal on Base only', () => {
    const w = world();
    const chains = w.account.supportedChains();
    expect(chains.map((chain) => [chain.id, chain.confirmationMs, chain.withdraw])).toEqual([
      ['base', 2 * MINUTE, true],
      ['arbitrum', 2 * MINUTE, false],
      ['ethereum', 15 * MINUTE, false],
      ['optimism', 2 * MINUTE, false],
      ['polygon', 5 * MINUTE, false],
      ['solana', 1 * MINUTE, false],
    ]);
    for (const chain of chains) expect(chain.confirmationMs).toBe(chain.blockTimeMs * chain.confirmationsRequired);
  });
});

describe('deposit address', () => {
  test('deterministic per (agent, chain), distinct across agents and chains, formatted per chain', () => {
    const w = world();
    const base = ok(w.account.depositAddress('alice', 'base'));
    expect(base).toEqual({
      agentId: 'alice',
      chain: 'base',
      address: base.address,
      token: 'USDC',
      confirmationsRequired: 60,
      confirmationMs: 2 * MINUTE,
    });
    expect(base.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(ok(w.account.depositAddress('alice', ' BASE ')).address).toBe(base.address);
    const addresses = new Set<string>();
    for (const agentId of ['alice', 'bob']) {
      for (const chain of SUPPORTED_CHAINS) addresses.add(ok(w.account.depositAddress(agentId, chain.id)).address);
    }
    expect(addresses.size).toBe(2 * SUPPORTED_CHAINS.length);
    expect(ok(w.account.depositAddress('alice', 'solana')).address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{40,44}$/);
    // Same seed, same addresses; another seed, others.
    expect(ok(world().account.depositAddress('alice', 'base')).address).toBe(base.address);
    expect(ok(world({ seed: 'y' }).account.depositAddress('alice', 'base')).address).not.toBe(base.address);
  });

  test('unknown chain is 400 naming the supported ones; unknown agent is 404', () => {
    const w = world();
    const unknown = failed(w.account.depositAddress('alice', 'dogecoin'));
    expect(unknown).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(unknown.message).toContain('base, arbitrum, ethereum, optimism, polygon, solana');
    expect(failed(w.account.depositAddress('nobody', 'base'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('simulated deposits', () => {
  test('pending with growing confirmations, credited at exactly the chain delay, once', () => {
    const w = world();
    const deposit = ok(
      w.account.simulateDeposit({ agentId: 'alice', chain: 'base', amountMicro: usdc(25) }, w.at(1_000)),
    );
    conserved(w.platform);
    expect(deposit).toMatchObject({
      agentId: 'alice',
      chain: 'base',
      address: ok(w.account.depositAddress('alice', 'base')).address,
      amountMicro: usdc(25),
      status: 'pending',
      confirmations: 0,
      confirmationsRequired: 60,
      createdAtMs: 1_000,
      confirmAtMs: 1_000 + 2 * MINUTE,
      confirmedAtMs: null,
    });
    expect(deposit.id).toMatch(/^dep_[0-9a-f]{16}$/);
    expect(deposit.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.balance(agentAccount('alice'))).toBe(usdc(10));
    expect(ok(w.account.balanceWithActivity('alice', 5)).pendingDepositsMicro).toBe(usdc(25));

    w.at(1_000 + MINUTE);
    expect(ok(w.account.depositsOf('alice', 10, w.now()))[0]).toMatchObject({ status: 'pending', confirmations: 30 });
    w.at(1_000 + 2 * MINUTE - 1);
    expect(ok(w.account.depositsOf('alice', 10, w.now()))[0]).toMatchObject({ status: 'pending', confirmations: 59 });
    expect(w.balance(agentAccount('alice'))).toBe(usdc(10));

    w.at(1_000 + 2 * MINUTE);
    expect(w.balance(agentAccount('alice'))).toBe(usdc(35));
    expect(ok(w.account.depositsOf('alice', 10, w.now()))[0]).toMatchObject({
      status: 'confirmed',
      confirmations: 60,
      confirmedAtMs: 1_000 + 2 * MINUTE,
    });
    expect(ok(w.account.balanceWithActivity('alice', 5)).pendingDepositsMicro).toBe(0n);
    expect(ok(w.account.ledgerOf('alice', 1))[0]).toMatchObject({
      atMs: 1_000 + 2 * MINUTE,
      reason: 'casino.deposit',
      reference: deposit.id,
      counterparty: EXTERNAL,
      amountMicro: usdc(25),
      balanceAfterMicro: usdc(35),
    });
    expect(w.events).toEqual([
      {
        type: 'casino.deposit',
        atMs: 1_000,
        depositId: deposit.id,
        agentId: 'alice',
        amountMicro: usdc(25),
        status: 'pending',
      },
      {
        type: 'casino.deposit',
        atMs: 1_000 + 2 * MINUTE,
        depositId: deposit.id,
        agentId: 'alice',
        amountMicro: usdc(25),
        status: 'confirmed',
      },
    ]);
    w.at(10 * HOUR);
    expect(w.balance(agentAccount('alice'))).toBe(usdc(35));
    conserved(w.platform);
  });

  test.each(SUPPORTED_CHAINS.map((chain) => [chain.id, chain.confirmationMs] as const))(
    '%s credits at exactly %i ms',
    (chain, delayMs) => {
      const w = world();
      ok(w.account.simulateDeposit({ agentId: 'bob', chain, amountMicro: usdc(3) }, w.at(0)));
      w.at(delayMs - 1);
      expect(w.balance(agentAccount('bob'))).toBe(0n);
      w.at(delayMs);
      expect(w.balance(agentAccount('bob'))).toBe(usdc(3));
      conserved(w.platform);
    },
  );

  test('amount bounds 0.01 .. 1,000,000; tx hash format per chain; 400 before 404; nothing moves', () => {
    const w = world();
    const before = new Map(w.platform.ledger.accounts());
    const command = { agentId: 'alice', chain: 'base', amountMicro: usdc(1) };
    for (const amountMicro of [9_999n, 0n, -1n, usdc(1_000_000) + 1n]) {
      expect(failed(w.account.simulateDeposit({ ...command, amountMicro }, 0))).toMatchObject({
        status: 400,
        code: 'BAD_REQUEST',
      });
    }
    expect(failed(w.account.simulateDeposit({ ...command, chain: 'bitcoin' }, 0)).code).toBe('BAD_REQUEST');
    expect(failed(w.account.simulateDeposit({ ...command, txHash: '0x1234' }, 0)).code).toBe('BAD_REQUEST');
    expect(
      failed(w.account.simulateDeposit({ ...command, chain: 'solana', txHash: `0x${'a'.repeat(64)}` }, 0)).code,
    ).toBe('BAD_REQUEST');
    expect(failed(w.account.simulateDeposit({ ...command, agentId: 'nobody', amountMicro: 0n }, 0)).code).toBe(
      'BAD_REQUEST',
    );
    expect(failed(w.account.simulateDeposit({ ...command, agentId: 'nobody' }, 0)).code).toBe('NOT_FOUND');
    expect(new Map(w.platform.ledger.accounts())).toEqual(before);
    expect(w.platform.timers.size).toBe(1); // the referral sweep only
    ok(w.account.simulateDeposit({ ...command, amountMicro: 10_000n }, 0));
    ok(w.account.simulateDeposit({ ...command, amountMicro: usdc(1_000_000) }, 0));
    const solana = ok(w.account.simulateDeposit({ ...command, chain: 'solana' }, 0));
    expect(solana.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,88}$/);
    w.at(2 * MINUTE);
    expect(w.balance(agentAccount('alice'))).toBe(usdc(10) + 10_000n + usdc(1_000_000) + usdc(1));
    conserved(w.platform);
  });

  test('a transaction hash is credited once per chain (EVM hashes compare without case)', () => {
    const w = world();
    const hash = `0x${'c'.repeat(64)}`;
    ok(w.account.simulateDeposit({ agentId: 'alice', chain: 'base', amountMicro: usdc(1), txHash: hash }, 0));
    expect(
      failed(
        w.account.simulateDeposit(
          { agentId: 'bob', chain: 'base', amountMicro: usdc(1), txHash: hash.toUpperCase().replace('0X', '0x') },
          0,
        ),
      ),
    ).toMatchObject({ status: 409, code: 'CONFLICT' });
    ok(w.account.simulateDeposit({ agentId: 'bob', chain: 'ethereum', amountMicro: usdc(1), txHash: hash }, 0));
  });

  test('at most 100 pending deposits per agent; room again once one confirms', () => {
    const w = world();
    for (let index = 0; index < 100; index++)
      ok(w.account.simulateDeposit({ agentId: 'alice', chain: 'ethereum', amountMicro: usdc(1) }, w.at(index)));
    expect(
      failed(w.account.simulateDeposit({ agentId: 'alice', chain: 'base', amountMicro: usdc(1) }, w.at(100))),
    ).toMatchObject({ status: 409, code: 'CONFLICT' });
    ok(w.account.simulateDeposit({ agentId: 'bob', chain: 'base', amountMicro: usdc(1) }, 100));
    expect(ok(w.account.balanceWithActivity('alice', 1)).pendingDepositsMicro).toBe(usdc(100));
    w.at(15 * MINUTE); // the first (at 0) confirms
    expect(w.balance(agentAccount('alice'))).toBe(usdc(11));
    ok(w.account.simulateDeposit({ agentId: 'alice', chain: 'base', amountMicro: usdc(1) }, w.now()));
    conserved(w.platform);
  });

  test('deposits list newest first, limit 1..100', () => {
    const w = world();
    const ids = [1, 2, 3].map(
      (whole) =>
        ok(
          w.account.simulateDeposit(
            { agentId: 'alice', chain: 'polygon', amountMicro: usdc(whole) },
            w.at(whole * 1_000),
          ),
        ).id,
    );
    expect(ok(w.account.depositsOf('alice', 2, w.now())).map((deposit) => deposit.id)).toEqual([ids[2], ids[1]]);
    expect(ok(w.account.depositsOf('bob', 20, w.now()))).toEqual([]);
    for (const limit of [0, 101, 1.5])
      expect(failed(w.account.depositsOf('alice', limit, w.now())).code).toBe('BAD_REQUEST');
    expect(failed(w.account.depositsOf('nobody', 10, w.now())).code).toBe('NOT_FOUND');
  });
});

describe('withdraw', () => {
  test('debits amount + 0.50 fee: amount to external, fee to fee-income, completed at once', () => {
    const w = world();
    const externalBefore = w.balance(EXTERNAL);
    const record = ok(w.account.withdraw(withdrawal(), w.at(5_000)));
    expect(record).toEqual({
      id: record.id,
      agentId: 'alice',
      chain: 'base',
      address: BASE_ADDRESS,
      amountMicro: usdc(1),
      feeMicro: 500_000n,
      debitMicro: 1_500_000n,
      status: 'completed',
      createdAtMs: 5_000,
      reviewEndsAtMs: null,
      completedAtMs: 5_000,
      txHash: record.txHash,
    });
    expect(record.id).toMatch(/^wd_[0-9a-f]{16}$/);
    expect(record.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.balance(agentAccount('alice'))).toBe(8_500_000n);
    expect(w.balance(FEE_INCOME)).toBe(500_000n);
    expect(w.balance(EXTERNAL) - externalBefore).toBe(usdc(1));
    expect(w.events).toEqual([
      {
        type: 'casino.withdrawal',
        atMs: 5_000,
        withdrawalId: record.id,
        agentId: 'alice',
        amountMicro: usdc(1),
        feeMicro: 500_000n,
        status: 'completed',
      },
    ]);
    conserved(w.platform);
  });

  test('the whole balance can leave: exactly amount + fee', () => {
    const w = world();
    ok(w.account.withdraw(withdrawal({ amountMicro: 9_500_000n }), 0));
    expect(w.balance(agentAccount('alice'))).toBe(0n);
    conserved(w.platform);
  });

  test('400: chain other than base (naming base), bad address, below 1.00; 404; 422 below amount + fee; nothing moves', () => {
    const w = world();
    const before = new Map(w.platform.ledger.accounts());
    const ethereum = failed(w.account.withdraw(withdrawal({ chain: 'ethereum' }), 0));
    expect(ethereum).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(ethereum.message).toContain('base only');
    expect(failed(w.account.withdraw(withdrawal({ chain: 'tron' }), 0)).code).toBe('BAD_REQUEST');
    for (const address of ['', '0x1234', `${BASE_ADDRESS}00`, `0x${'g'.repeat(40)}`, `ab${'ab'.repeat(20)}`]) {
      expect(failed(w.account.withdraw(withdrawal({ address }), 0)).code).toBe('BAD_REQUEST');
    }
    for (const amountMicro of [999_999n, 0n, -usdc(1)])
      expect(failed(w.account.withdraw(withdrawal({ amountMicro }), 0)).code).toBe('BAD_REQUEST');
    expect(failed(w.account.withdraw(withdrawal({ agentId: 'nobody' }), 0)).code).toBe('NOT_FOUND');
    const short = failed(w.account.withdraw(withdrawal({ amountMicro: 9_500_001n }), 0));
    expect(short).toMatchObject({ status: 422, code: 'INSUFFICIENT_BALANCE' });
    expect(short.message).toContain('10.00');
    expect(failed(w.account.withdraw(withdrawal({ agentId: 'bob' }), 0)).code).toBe('INSUFFICIENT_BALANCE');
    expect(new Map(w.platform.ledger.accounts())).toEqual(before);
    expect(w.events).toEqual([]);
    ok(w.account.withdraw(withdrawal({ chain: 'Base' }), 0));
  });

  test('above 1,000 waits in pending_review, completes at exactly the review end', () => {
    const w = world();
    addAgent(w.platform, 'whale', { createdAtMs: 0, fundMicro: usdc(5_000) });
    const atLimit = ok(w.account.withdraw(withdrawal({ agentId: 'whale', amountMicro: usdc(1_000) }), w.at(1_000)));
    expect(atLimit.status).toBe('completed');
    const big = ok(w.account.withdraw(withdrawal({ agentId: 'whale', amountMicro: usdc(1_000) + 1n }), w.at(2_000)));
    const reviewEndsAtMs = 2_000 + 24 * HOUR;
    expect(big).toMatchObject({
      status: 'pending_review',
      reviewEndsAtMs,
      completedAtMs: null,
      txHash: null,
      debitMicro: usdc(1_000) + 500_001n,
    });
    const whale = agentAccount('whale');
    expect(w.balance(whale)).toBe(usdc(5_000) - usdc(1_000) - 500_000n - usdc(1_000) - 1n - 500_000n);
    expect(w.balance(withdrawalAccount(big.id))).toBe(usdc(1_000) + 1n);
    expect(w.balance(FEE_INCOME)).toBe(usdc(1));
    expect(ok(w.account.balanceWithActivity('whale', 1)).pendingWithdrawalsMicro).toBe(usdc(1_000) + 1n);
    conserved(w.platform);

    const externalBefore = w.balance(EXTERNAL);
    w.at(reviewEndsAtMs - 1);
    expect(w.account.withdrawals.find(big.id)?.status).toBe('pending_review');
    w.at(reviewEndsAtMs);
    const done = w.account.withdrawals.find(big.id);
    expect(done).toMatchObject({ status: 'completed', completedAtMs: reviewEndsAtMs });
    expect(done?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.balance(withdrawalAccount(big.id))).toBe(0n);
    expect(w.balance(EXTERNAL) - externalBefore).toBe(usdc(1_000) + 1n);
    expect(ok(w.account.balanceWithActivity('whale', 1)).pendingWithdrawalsMicro).toBe(0n);
    expect(
      w.events.filter((event) => event.type === 'casino.withdrawal').map((event) => [event.atMs, event.status]),
    ).toEqual([
      [1_000, 'completed'],
      [2_000, 'pending_review'],
      [reviewEndsAtMs, 'completed'],
    ]);
    conserved(w.platform);
  });

  test('withdrawals list newest first, limit 1..100', () => {
    const w = world();
    const first = ok(w.account.withdraw(withdrawal(), w.at(1)));
    const second = ok(w.account.withdraw(withdrawal({ amountMicro: usdc(2) }), w.at(2)));
    expect(ok(w.account.withdrawalsOf('alice', 10))).toEqual([second, first]);
    expect(ok(w.account.withdrawalsOf('alice', 1))).toEqual([second]);
    expect(failed(w.account.withdrawalsOf('alice', 101)).code).toBe('BAD_REQUEST');
  });

  test('defect casino-skip-balance-check: the overdraft goes through, the balance goes negative, conservation holds', () => {
    const w = world({ defects: ['casino-skip-balance-check'] });
    const record = ok(w.account.withdraw(withdrawal({ agentId: 'bob', amountMicro: usdc(5) }), 0));
    expect(record.status).toBe('completed');
    expect(w.balance(agentAccount('bob'))).toBe(-5_500_000n);
    expect(w.platform.ledger.negativeAccounts()).toEqual([agentAccount('bob')]);
    expect(ok(w.account.ledgerOf('bob', 2)).map((entry) => entry.balanceAfterMicro)).toEqual([
      -5_500_000n,
      -5_000_000n,
    ]);
    conserved(w.platform);
    // Covered withdrawals still take the ordinary path.
    ok(w.account.withdraw(withdrawal(), 0));
    expect(w.balance(agentAccount('alice'))).toBe(8_500_000n);
  });
});

describe('transaction history (ledger) and balance', () => {
  test('every transfer touching the agent, from any service, signed, with balance after and time', () => {
    const w = world();
    const escrow = ok(
      w.platform.escrow.create(
        {
          senderId: 'alice',
          receiver: 'bob',
          amountMicro: usdc(2),
          description: null,
          expiresInSeconds: null,
          referrer: null,
          conditions: null,
        },
        w.at(1_000),
      ),
    );
    const deposit = ok(
      w.account.simulateDeposit({ agentId: 'alice', chain: 'solana', amountMicro: usdc(4) }, w.at(2_000)),
    );
    w.at(2_000 + MINUTE);
    const out = ok(w.account.withdraw(withdrawal({ amountMicro: usdc(3) }), w.at(3 * MINUTE)));
    const entries = ok(w.account.ledgerOf('alice', 100));
    expect(
      entries.map(({ atMs, reason, reference, counterparty, amountMicro, balanceAfterMicro }) => [
        atMs,
        reason,
        reference,
        counterparty,
        amountMicro,
        balanceAfterMicro,
      ]),
    ).toEqual([
      [3 * MINUTE, 'casino.withdraw.fee', out.id, FEE_INCOME, -500_000n, 8_500_000n],
      [3 * MINUTE, 'casino.withdraw', out.id, EXTERNAL, -usdc(3), usdc(9)],
      [2_000 + MINUTE, 'casino.deposit', deposit.id, EXTERNAL, usdc(4), usdc(12)],
      [1_000, 'escrow.lock', escrow.id, `escrow:${escrow.id}`, -usdc(2), usdc(8)],
      [0, 'test.fund', 'alice', 'faucet-pool', usdc(10), usdc(10)],
    ]);
    const sequences = entries.map((entry) => entry.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => b - a));
    // Paging: older than the third entry.
    expect(ok(w.account.ledgerOf('alice', 100, entries[2]?.sequence ?? -1))).toEqual(entries.slice(3));
    expect(ok(w.account.ledgerOf('alice', 1, entries[2]?.sequence ?? -1))).toEqual(entries.slice(3, 4));
    expect(ok(w.account.ledgerOf('alice', 100, 0))).toEqual([]);
    for (const before of [-1, 1.5]) expect(failed(w.account.ledgerOf('alice', 10, before)).code).toBe('BAD_REQUEST');
    expect(failed(w.account.ledgerOf('alice', 0)).code).toBe('BAD_REQUEST');
    // bob's side of nothing yet: the escrow holds his money until release.
    expect(ok(w.account.ledgerOf('bob', 10))).toEqual([]);

    const balance = ok(w.account.balanceWithActivity('alice', 2));
    expect(balance).toEqual({
      agentId: 'alice',
      balanceMicro: 8_500_000n,
      pendingDepositsMicro: 0n,
      pendingWithdrawalsMicro: 0n,
      recent: entries.slice(0, 2),
    });
    expect(failed(w.account.balanceWithActivity('nobody', 2)).code).toBe('NOT_FOUND');
    expect(failed(w.account.balanceWithActivity('alice', 101)).code).toBe('BAD_REQUEST');
    conserved(w.platform);
  });

  test('retains the last entriesPerAgentMax entries per agent', () => {
    const w = world({ journalEntriesPerAgentMax: 4 });
    const deposits: string[] = [];
    for (let index = 1; index <= 10; index++) {
      deposits.push(
        ok(
          w.account.simulateDeposit(
            { agentId: 'bob', chain: 'solana', amountMicro: BigInt(index) * 10_000n },
            w.at(index * 1_000),
          ),
        ).id,
      );
    }
    w.at(HOUR);
    const entries = ok(w.account.ledgerOf('bob', 100));
    expect(entries.map((entry) => entry.reference)).toEqual(deposits.slice(6).reverse());
    expect(w.account.journal.count('bob')).toBe(4);
    expect(ok(w.account.ledgerOf('bob', 100, entries[3]?.sequence ?? -1))).toEqual([]);
    expect(entries[0]?.balanceAfterMicro).toBe(550_000n);
    expect(isFailure(w.account.ledgerOf('bob', 100))).toBe(false);
  });
});
