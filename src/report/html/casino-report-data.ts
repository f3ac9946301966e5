/**
 * The input of report.html (the casino's HTML report), and the limits the renderer keeps.
 *
 * Callers (`afp run`, `afp audit house-edge`) turn their results into this plain data; the
 * renderer (html-report.ts) is a pure function of it. Edges are fractions of the amount wagered
 * (0.027 = 2.7 % to the house), balances are USDC as numbers: this is display data, never state,
 * so floats are fine here (STYLE rule 3 is about what changes state).
 * Invariants of the limits: a report's size is bounded whatever the input — at most maxGames
 * edge charts and maxBankrollSeries bankroll lines, each of at most maxPointsPerSeries points
 * (downsampled by index, first and last always kept), a summary of at most maxSummaryRows
 * variants, checkpoint tables of at most maxTableRows rows, texts
 * of at most maxTextChars characters. Series over a cap are dropped in input order and the
 * report says how many were left out. Worst case ≈ 860 kB with the inlined library (≈ 210 kB);
 * a typical report (3 games, 3 archetypes) ≈ 240 kB.
 */
import type { EdgePoint } from '../../audit/maths.ts';

export interface GameEdgeSeries {
  readonly game: string;
  readonly variant: string;
  /** The edge the casino advertises for this game (null: it advertises none). */
  readonly advertisedEdge: number | null;
  /** The exact edge of the payout table. */
  readonly theoreticalEdge: number;
  /** The audit's verdict, shown as text (e.g. "matches advertised", "advertised edge not given"). */
  readonly verdict: string;
  /** In ascending order of bets (the renderer sorts a copy if not). */
  readonly points: readonly EdgePoint[];
}

/** Balance in USDC at a virtual instant. */
export interface BankrollChartPoint {
  readonly atMs: number;
  readonly balance: number;
}

/** E.g. the mean balance of an archetype's agents over virtual time. */
export interface BankrollSeries {
  readonly archetype: string;
  readonly agents: number;
  readonly points: readonly BankrollChartPoint[];
}

/**
 * One row of the summary table that opens the report: every variant of the run or audit, whether
 * or not it has a chart below (a chart needs a law and two bets, and a report draws at most
 * maxGames). Null figures do not exist for the variant (no law, too few bets, none advertised).
 */
export interface VariantSummary {
  readonly game: string;
  readonly variant: string;
  readonly bets: number;
  readonly advertisedEdge: number | null;
  readonly theoreticalEdge: number | null;
  readonly empiricalEdge: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly verdict: string;
}

export interface CasinoReportInput {
  readonly title: string;
  /** Seed, command, scenario: caller-provided text shown under the title. */
  readonly subtitle: string;
  readonly games: readonly GameEdgeSeries[];
  readonly bankrolls: readonly BankrollSeries[];
  /** Every variant, charted or not (default: one row per entry of `games`). */
  readonly variants?: readonly VariantSummary[];
  /** Why some variants have no chart, shown under the summary when some do not. */
  readonly unchartedNote?: string;
}

/** The caps of one report (see the header); exported so callers and tests can rely on them. */
export const CASINO_REPORT_LIMITS = {
  maxGames: 40,
  maxBankrollSeries: 16,
  maxPointsPerSeries: 200,
  maxTableRows: 12,
  /** Rows of the summary table (the 17 games have 55 variants). */
  maxSummaryRows: 500,
  maxTextChars: 300,
} as const;
