/**
 * AccountJournal: each agent's transaction history (GET /auth/ledger, the recent activity of GET
 * /auth/balance), kept by listening to every ledger transfer, so faucet grants, escrow holds and
 * payouts, bets, referral payouts, deposits and withdrawals all appear without those services
 * knowing about it.
 *
 * One entry per (transfer, agent account it touches): signed amount (negative when the agent
 * pays), the counterparty account, reason and reference as the transfer gave them, the balance
 * right after, and the instant from the injected `nowMs` source (the platform's clock; a transfer
 * carries no time of its own). `sequence` increases by one per entry across the whole journal: it
 * orders entries totally and is the `before` cursor of paging.
 * Limits: the last `entriesPerAgentMax` entries per agent are visible; older ones are dropped
 * (trimmed in batches of a quarter of the bound, so appending stays O(1) amortised).
 * Non-goals: persistence, other account kinds (escrow holds, house): the ledger is the truth.
 */
import { assert } from '../../../core/assert.ts';
import { agentAccount, type AccountName, type Ledger, type Transfer } from '../../../core/ledger.ts';
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

const AGENT_PREFIX = agentAccount('');

export class AccountJournal {
  private readonly ledger: Ledger;
  private readonly nowMs: () => number;
  private readonly entriesPerAgentMax: number;
  private readonly byAgent = new Map<string, JournalEntry[]>();
  private nextSequence = 0;

  constructor(options: { ledger: Ledger; nowMs: () => number; entriesPerAgentMax: number }) {
    assert(Number.isSafeInteger(options.entriesPerAgentMax) && options.entriesPerAgentMax >= 1, 'the journal keeps at least one entry per agent');
    this.ledger = options.ledger;
    this.nowMs = options.nowMs;
    this.entriesPerAgentMax = options.entriesPerAgentMax;
    options.ledger.onTransfer((transfer) => this.record(transfer));
  }

  /** The agent's entries, newest first, at most `limit`, only those with sequence < `beforeSequence`. */
  list(agentId: string, limit: number, beforeSequence: number | null = null): JournalEntry[] {
    assert(Number.isSafeInteger(limit) && limit >= 1, 'journal list limit is a positive integer');
    const entries = this.byAgent.get(agentId) ?? [];
    const oldestVisible = Math.max(0, entries.length - this.entriesPerAgentMax);
    let end = entries.length; // exclusive
    if (beforeSequence !== null) end = firstAtOrAfter(entries, beforeSequence, oldestVisible);
    const found: JournalEntry[] = [];
    for (let index = end - 1; index >= oldestVisible && found.length < limit; index--) found.push(entries[index] as JournalEntry);
    return found;
  }

  /** Entries visible for the agent (at most entriesPerAgentMax). */
  count(agentId: string): number {
    return Math.min(this.byAgent.get(agentId)?.length ?? 0, this.entriesPerAgentMax);
  }

  private record(transfer: Transfer): void {
    if (transfer.from.startsWith(AGENT_PREFIX)) this.append(transfer.from, transfer.to, -transfer.amountMicro, transfer);
    if (transfer.to.startsWith(AGENT_PREFIX)) this.append(transfer.to, transfer.from, transfer.amountMicro, transfer);
  }

  private append(account: AccountName, counterparty: AccountName, amountMicro: Micro, transfer: Transfer): void {
    const agentId = account.slice(AGENT_PREFIX.length);
    let entries = this.byAgent.get(agentId);
    if (entries === undefined) {
      entries = [];
      this.byAgent.set(agentId, entries);
    }
    entries.push({
      sequence: this.nextSequence++,
      atMs: this.nowMs(),
      reason: transfer.reason,
      reference: transfer.reference,
      counterparty,
      amountMicro,
      balanceAfterMicro: this.ledger.balance(account),
    });
    const slack = Math.max(1, this.entriesPerAgentMax >> 2);
    if (entries.length >= this.entriesPerAgentMax + slack) entries.splice(0, entries.length - this.entriesPerAgentMax);
  }
}

/** Index of the first entry at or after `from` whose sequence is >= `sequence` (entries ascend). */
function firstAtOrAfter(entries: readonly JournalEntry[], sequence: number, from: number): number {
  let low = from;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle] as JournalEntry).sequence < sequence) low = middle + 1;
    else high = middle;
  }
  return low;
}
