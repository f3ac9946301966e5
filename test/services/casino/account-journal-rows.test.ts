// AccountJournal keeps entries as rows in a ring per agent (journal-ring.ts) and rebuilds them on
// read; every read must equal what the plain journal (an array of entry objects per agent, the
// newest `entriesPerAgentMax` visible) answers for the same transfers: same entries, same order,
// same paging by `before`, through ring growth and wrap-around, bet-id references kept as words,
// other references as text, and amounts beyond what a number holds exactly (2^53) and beyond 64 bits.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { IdSource } from '../../../src/core/ids.ts';
import { EXTERNAL, Ledger, agentAccount, type Transfer } from '../../../src/core/ledger.ts';
import { Rng } from '../../../src/core/rng.ts';
import { AccountJournal, type JournalEntry } from '../../../src/services/casino/account/account-journal.ts';

/** The journal as it was: one entry object per (transfer, agent side), balances read from the ledger. */
class ReferenceJournal {
  readonly byAgent = new Map<string, JournalEntry[]>();
  private sequence = 0;
  private readonly ledger: Ledger;
  private readonly nowMs: () => number;
  private readonly max: number;
  constructor(ledger: Ledger, nowMs: () => number, max: number) {
    this.ledger = ledger;
    this.nowMs = nowMs;
    this.max = max;
    ledger.onTransfer({ onTransfer: (transfer) => this.record(transfer) });
  }
  private record(transfer: Transfer): void {
    for (const [account, counterparty, sign] of [
      [transfer.from, transfer.to, -1n],
      [transfer.to, transfer.from, 1n],
    ] as const) {
      if (!account.startsWith('agent:')) continue;
      const agentId = account.slice('agent:'.length);
      const entries = this.byAgent.get(agentId) ?? [];
      this.byAgent.set(agentId, entries);
      entries.push({
        sequence: this.sequence++,
        atMs: this.nowMs(),
        reason: transfer.reason,
        reference: transfer.reference,
        counterparty,
        amountMicro: sign * transfer.amountMicro,
        balanceAfterMicro: this.ledger.balance(account),
      });
    }
  }
  list(agentId: string, limit: number, before: number | null): JournalEntry[] {
    const visible = (this.byAgent.get(agentId) ?? [])
      .slice(-this.max)
      .filter((entry) => before === null || entry.sequence < before);
    return visible.reverse().slice(0, limit);
  }
}

const AGENTS = ['a', 'b', 'c', 'd'];
const OTHERS = [EXTERNAL, 'casino-house', 'escrow:esc_1', 'fee-income'];
const HUGE = 2n ** 66n;
/** Amounts at the edge of the exact numbers: the last safe integer and the first past it. */
const EDGES = [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n];

describe('AccountJournal rows', () => {
  test('answers exactly as the plain journal, through growth, wrap-around and paging', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer(),
        (max, transfers, seed) => {
          const ledger = new Ledger();
          let clockMs = 1_767_225_600_000;
          const journal = new AccountJournal({ ledger, clock: { nowMs: () => clockMs }, entriesPerAgentMax: max });
          const reference = new ReferenceJournal(ledger, () => clockMs, max);
          const rng = new Rng(String(seed));
          const ids = new IdSource(rng.fork('ids'));
          for (const agentId of AGENTS)
            ledger.transfer({
              from: EXTERNAL,
              to: agentAccount(agentId),
              amountMicro: HUGE,
              reason: 'fund',
              reference: 'genesis',
            });
          for (let index = 0; index < transfers; index++) {
            clockMs += rng.between(0, 3);
            const agent = agentAccount(rng.pick(AGENTS));
            const other = rng.chance(1, 4) ? agentAccount(rng.pick(AGENTS)) : rng.pick(OTHERS);
            if (other === agent) continue;
            const outgoing = rng.chance(1, 2);
            const amountMicro = rng.chance(1, 10)
              ? HUGE / 4n
              : rng.chance(1, 10)
                ? rng.pick(EDGES)
                : BigInt(rng.between(1, 1_000_000));
            const reference = rng.chance(2, 3)
              ? ids.next('bet_', 16)
              : rng.pick(['genesis', 'esc_1', 'bet_not_hex', '']);
            const reason = rng.pick(['casino.bet.stake', 'casino.bet.payout', 'faucet.claim', 'escrow.hold']);
            const from = outgoing ? agent : other;
            const to = outgoing ? other : agent;
            if (from !== EXTERNAL && ledger.balance(from) < amountMicro) continue;
            ledger.transfer({ from, to, amountMicro, reason, reference });
          }
          for (const agentId of [...AGENTS, 'nobody']) {
            const all = reference.list(agentId, 1_000, null);
            expect(journal.list(agentId, 1_000)).toStrictEqual(all);
            expect(journal.count(agentId)).toBe(all.length);
            for (const before of [
              all[0]?.sequence ?? 0,
              all[Math.floor(all.length / 2)]?.sequence ?? 0,
              0,
              1_000_000,
            ]) {
              for (const limit of [1, 3, 1_000])
                expect(journal.list(agentId, limit, before)).toStrictEqual(reference.list(agentId, limit, before));
            }
          }
        },
      ),
      { seed: 20_260_121, numRuns: 150 },
    );
  });
});
