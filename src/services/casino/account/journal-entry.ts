/**
 * One line of an agent's casino account journal (GET /api/v1/transactions): a transfer seen from
 * the agent's side, with its running balance. Its own file: the journal (account-journal.ts) and
 * the ring that packs its lines (journal-ring.ts) both name it without importing each other.
 */
import type { AccountName } from '../../../core/ledger.ts';
import type { Micro } from '../../../core/money.ts';

export interface JournalEntry {
  readonly sequence: number;
  readonly atMs: number;
  readonly reason: string;
  readonly reference: string;
  /** The other side of the transfer (`external`, `fee-income`, `escrow:<id>`, `casino-house`...). */
  readonly counterparty: AccountName;
  /** Positive when the agent received, negative when it paid. */
  readonly amountMicro: Micro;
  readonly balanceAfterMicro: Micro;
}
