/**
 * RunRecord: everything a finished (or stopped) simulation run hands to the report writers.
 * Plain data only: the writers are pure functions of it (STYLE rule 9), so the same scenario
 * and seed give byte-identical reports. No wall-clock time anywhere in it.
 */
import type { Micro } from '../core/money.ts';
import type { DomainEvent } from '../services/shared/events.ts';

export interface AgentRow {
  readonly agentId: string;
  readonly archetype: string;
  /** Faker-made display name, seeded from the agent's own stream. */
  readonly displayName: string;
  readonly tier: 'free' | 'pro' | 'enterprise';
  readonly balanceMicro: Micro;
  readonly requests: number;
  /** Responses with status >= 400, 429 included. */
  readonly errors: number;
  readonly rateLimited: number;
}

export interface EndpointRow {
  /** Route id (`escrow.B.release`) or `unmatched` for requests no row answered. */
  readonly endpoint: string;
  readonly service: string;
  readonly style: string;
  readonly calls: number;
  /** Count per HTTP status, keys are status numbers as text. */
  readonly statuses: Readonly<Record<string, number>>;
}

export interface EscrowRow {
  readonly escrowId: string;
  readonly senderId: string;
  readonly receiverId: string;
  readonly amountMicro: Micro;
  readonly feeMicro: Micro;
  readonly status: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  readonly settledAtMs: number | null;
}

export interface Violation {
  readonly atMs: number;
  /** The event (domain event or request) during which the violation was seen, as JSON text. */
  readonly event: string;
  readonly message: string;
}

export interface InvariantResult {
  readonly name: string;
  readonly checks: number;
  readonly violations: number;
  readonly first: Violation | null;
}

export interface RunTotals {
  readonly requests: number;
  readonly agents: number;
  readonly escrows: number;
  readonly ledgerSumMicro: Micro;
  readonly feeIncomeMicro: Micro;
  readonly faucetPoolMicro: Micro;
  readonly agentBalancesMicro: Micro;
}

export interface RunRecord {
  readonly scenario: string;
  readonly seed: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The exact command that reproduces this run. */
  readonly reproduce: string;
  /** 'completed' or why the run stopped early (an invariant failed, a limit was hit). */
  readonly outcome: 'completed' | 'invariant-failed' | 'limit-reached';
  readonly agents: readonly AgentRow[];
  readonly endpoints: readonly EndpointRow[];
  readonly escrows: readonly EscrowRow[];
  readonly events: readonly DomainEvent[];
  readonly invariants: readonly InvariantResult[];
  readonly totals: RunTotals;
}
