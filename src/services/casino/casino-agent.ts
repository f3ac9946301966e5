/**
 * CasinoAgent: where the bet path finds each part of one agent's casino state (server seeds,
 * retained bets, running stats, referral commission state, ledger account name), so that a bet
 * looks the agent up once instead of once per book.
 *
 * Each part still belongs to its book, which creates it at the agent's first use exactly when it
 * did before (seeds at the first nonce taken, the others as the first bet settles); this record
 * only remembers the part once created. Why: with a population betting in turns, every per-agent
 * map entry a bet touches is a cache miss, and the lookups were a measurable share of a bet.
 * Bound: one record per agent that bet (CasinoState keeps them).
 */
import { agentAccount, type AccountName } from '../../core/ledger.ts';
import type { AgentBets } from './agent-bets.ts';
import type { AgentStatsEntry } from './bet-stats.ts';
import type { CommissionState } from './referral-commission.ts';
import type { AgentSeeds } from './seed-book.ts';

export class CasinoAgent {
  readonly agentId: string;
  /** `agent:<id>`, one string per agent (the ledger's and the journal's maps hash it once). */
  readonly account: AccountName;
  seeds: AgentSeeds | null = null;
  bets: AgentBets | null = null;
  stats: AgentStatsEntry | null = null;
  commission: CommissionState | null = null;

  constructor(agentId: string) {
    this.agentId = agentId;
    this.account = agentAccount(agentId);
  }
}
