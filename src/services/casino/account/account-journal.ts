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
 * Limits: the last `entriesPerAgentMax` entries per agent are kept; an older one is dropped as a
 * new one arrives (a ring per agent).
 * Storage: every bet journals one or two entries, so entries are columns (journal-ring.ts) and a
 * JournalEntry object is built only when a history is read.
 * Non-goals: persistence, other account kinds (escrow holds, house): the ledger is the truth.
 */
import type { Clock } from '../../../core/clock.ts';
import { assert } from '../../../core/assert.ts';
import {
  agentAccount,
  type AccountName,
  type BalancesAfter,
  type Ledger,
  type Transfer,
} from '../../../core/ledger.ts';

import type { JournalEntry } from './journal-entry.ts';
import { JournalRing } from './journal-ring.ts';
import { ShardedMap } from '../../../core/sharded-map.ts';

export type { JournalEntry } from './journal-entry.ts';

const AGENT_PREFIX = agentAccount('');

export class AccountJournal {
  private readonly clock: Clock;
  private readonly entriesPerAgentMax: number;
  /** Rings by agent account name (what a transfer names; a read builds the name from the agent id); a sharded lookup. */
  private readonly byAccount = new ShardedMap<JournalRing>();
  private nextSequence = 0;
  /** The ring found last and its account (a bet journals two entries for the same agent in a row). */
  private lastAccount: AccountName | null = null;
  private lastRing: JournalRing | null = null;

  constructor(options: { ledger: Ledger; clock: Clock; entriesPerAgentMax: number }) {
    assert(
      Number.isSafeInteger(options.entriesPerAgentMax) && options.entriesPerAgentMax >= 1,
      'the journal keeps at least one entry per agent',
    );
    this.clock = options.clock;
    this.entriesPerAgentMax = options.entriesPerAgentMax;
    options.ledger.onTransfer(this);
  }

  /** The agent's entries, newest first, at most `limit`, only those with sequence < `beforeSequence`. */
  list(agentId: string, limit: number, beforeSequence: number | null = null): JournalEntry[] {
    assert(Number.isSafeInteger(limit) && limit >= 1, 'journal list limit is a positive integer');
    const ring = this.byAccount.get(agentAccount(agentId));
    return ring === undefined ? [] : ring.newest(limit, beforeSequence);
  }

  /** Entries kept for the agent (at most entriesPerAgentMax). */
  count(agentId: string): number {
    return this.byAccount.get(agentAccount(agentId))?.size ?? 0;
  }

  /** The ledger's observer call: journals the movement for each agent account it touches. */
  onTransfer(transfer: Transfer, after: Readonly<BalancesAfter>): void {
    if (transfer.from.startsWith(AGENT_PREFIX))
      this.ringOf(transfer.from).push(
        this.nextSequence++,
        this.clock.nowMs(),
        transfer,
        transfer.to,
        -transfer.amountMicro,
        after.fromMicro,
      );
    if (transfer.to.startsWith(AGENT_PREFIX))
      this.ringOf(transfer.to).push(
        this.nextSequence++,
        this.clock.nowMs(),
        transfer,
        transfer.from,
        transfer.amountMicro,
        after.toMicro,
      );
  }

  private ringOf(account: AccountName): JournalRing {
    if (account === this.lastAccount && this.lastRing !== null) return this.lastRing;
    let ring = this.byAccount.get(account);
    if (ring === undefined) {
      ring = new JournalRing(this.entriesPerAgentMax);
      this.byAccount.set(account, ring);
    }
    this.lastAccount = account;
    this.lastRing = ring;
    return ring;
  }
}
