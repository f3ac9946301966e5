/**
 * RunRecord: everything a finished (or stopped) simulation run hands to the report writers.
 * Plain data only: the writers are pure functions of it (STYLE rule 9), so the same scenario
 * and seed give byte-identical reports. No wall-clock time anywhere in it.
 */
import type { DomainRow } from './domains-csv.ts';
import type { ReferralRow } from './referrals-csv.ts';
import type { WalletChainRow } from './wallet-csv.ts';
import type { EdgeTheory, TallyData } from '../audit/maths.ts';
import type { Micro } from '../core/money.ts';
import type { Ratio } from '../core/ratio.ts';
import type { RunEvents } from './run-events.ts';

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
  /**
   * The other accounts holding money, grouped (src/sim/money-holders.ts: escrow held, casino
   * house, trading house, insurance, margin, order reserves…; zero groups left out). With
   * agent balances, fee income and the faucet pool they sum to `totalHeldMicro`. Absent in
   * records built before they existed (the table then shows only the rows above).
   */
  readonly holders?: readonly MoneyHolder[];
  /** Everything the ledger holds (minus the external account): what the money rows add up to. */
  readonly totalHeldMicro?: Micro;
}

/** One row of the money table: a group of system accounts and what it holds. */
export interface MoneyHolder {
  readonly name: string;
  readonly amountMicro: Micro;
}

/** The exact law of a variant (edge-statistics.ts `edgeTheory`) and the edge the documents state. */
export interface VariantTheory extends EdgeTheory {
  /** The documents' edge for this variant, or null where they state none. */
  readonly advertised: Ratio | null;
  readonly advertisedText: string;
}

/** Empirical edge and its 99% interval after `bets` bets of a variant (a checkpoint). */
export interface CasinoEdgePoint {
  readonly bets: number;
  readonly edge: number;
  readonly low: number;
  readonly high: number;
}

/** The run's bets on one game variant: totals, the exact tally of multipliers, checkpoints. */
export interface CasinoVariantRow {
  readonly game: string;
  readonly variant: string;
  readonly bets: number;
  readonly wageredMicro: Micro;
  readonly returnedMicro: Micro;
  /** Bets per distinct multiplier (a unit stake each): the per-bet edge, exact. */
  readonly tally: TallyData;
  /** Edge and interval at 100, 200, 500, 1000, … bets (the last one is computed from `tally`). */
  readonly points: readonly CasinoEdgePoint[];
  /** Null for bets whose law is not the variant's (crash rounds, video-poker draws). */
  readonly theory: VariantTheory | null;
}

/** Mean balance of an archetype's agents at a virtual instant. */
export interface CasinoBankrollPoint {
  readonly atMs: number;
  readonly meanBalanceMicro: Micro;
}

export interface CasinoBankrollRow {
  readonly archetype: string;
  readonly agents: number;
  readonly points: readonly CasinoBankrollPoint[];
}

/** The casino part of a run: present when the run placed at least one casino bet. */
export interface CasinoRunData {
  readonly bets: number;
  readonly wageredMicro: Micro;
  readonly returnedMicro: Micro;
  /** In the game table's order, then by variant name. */
  readonly variants: readonly CasinoVariantRow[];
  /** Bets beyond the tracked-variant bound (counted in `bets`, in no row). */
  readonly untrackedBets: number;
  /** Archetypes whose agents placed casino bets, in population order. */
  readonly bankrolls: readonly CasinoBankrollRow[];
  readonly closures: readonly { readonly game: string; readonly fromMs: number; readonly untilMs: number }[];
}

/** One coverage probe's hits in a run (src/sim/probes.ts names the probes and counts them). */
export interface ProbeHits {
  readonly name: string;
  readonly hits: number;
}

/** One request of the run's trace (src/sim/request-trace.ts). */
export interface TracedRequest {
  readonly atMs: number;
  readonly agentId: string;
  /** Route id, or `unmatched`. */
  readonly endpoint: string;
  readonly status: number;
}

/** The run's last requests (at most TRACE_REQUESTS_MAX) and how many came before them. */
export interface RequestTraceData {
  readonly requests: readonly TracedRequest[];
  readonly dropped: number;
}

/** A scenario fault window, in virtual instants: the service answers `answer` in [fromMs, untilMs). */
interface FaultWindow {
  readonly service: string;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly answer: number;
}

/** One trading order as orders.csv shows it (src/services/trading/trading-record.ts). */
export interface TradingOrderRow {
  readonly orderId: string;
  readonly agentId: string;
  readonly symbol: string;
  readonly kind: string;
  readonly side: string;
  readonly type: string;
  readonly amountMicro: Micro;
  readonly leverage: number;
  readonly limitPrice: bigint | null;
  readonly status: string;
  readonly fillPrice: bigint | null;
  readonly fillQty: bigint | null;
  readonly feeMicro: Micro;
  readonly liquidity: string | null;
  readonly realizedPnlMicro: Micro;
  readonly createdAtMs: number;
  readonly filledAtMs: number | null;
  readonly cancelledAtMs: number | null;
}

/** One perpetual position as positions.csv shows it; `qty` as at its end (0 once closed by orders, its size when liquidated). */
export interface TradingPositionRow {
  readonly positionId: string;
  readonly agentId: string;
  readonly symbol: string;
  readonly side: string;
  readonly status: string;
  readonly entryPrice: bigint;
  readonly qty: bigint;
  readonly marginMicro: Micro;
  readonly leverage: number;
  readonly fundingPaidMicro: Micro;
  readonly realizedPnlMicro: Micro;
  readonly liquidationMark: bigint | null;
  readonly openedAtMs: number;
  readonly closedAtMs: number | null;
}

/** The trading part of a run: present when the run placed at least one trading order. */
export interface TradingRunData {
  readonly orders: readonly TradingOrderRow[];
  readonly positions: readonly TradingPositionRow[];
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
  /** Kept in memory or streamed to disk as the run went (run-events.ts). */
  readonly events: RunEvents;
  readonly invariants: readonly InvariantResult[];
  readonly totals: RunTotals;
  /** Absent when the run placed no casino bet (the report files then stay as they were). */
  readonly casino?: CasinoRunData;
  /** Absent when the run registered no domain (domains-csv.ts). */
  readonly domains?: readonly DomainRow[];
  /** Absent when nobody earned a referral share (referrals-csv.ts). */
  readonly referrals?: readonly ReferralRow[];
  /** Absent when nothing was sent or swapped on a chain (wallet-csv.ts). */
  readonly wallet?: readonly WalletChainRow[];
  /** The last requests, for timeline.html; absent in records made without a simulation. */
  readonly trace?: RequestTraceData;
  /** The scenario's fault windows, for timeline.html. */
  readonly faults?: readonly FaultWindow[];
  /** Hits per coverage probe (src/sim/probes.ts), in the table's order; absent without a simulation. */
  readonly probes?: readonly ProbeHits[];
  /** Absent when the run placed no trading order (the report files then stay as they were). */
  readonly trading?: TradingRunData;
}
