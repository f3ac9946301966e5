/**
 * The report's input made bounded and orderly, once, for both the tables and the charts:
 * texts cut to maxTextChars, series beyond their caps dropped (and counted), points sorted by
 * x (a stable sort of a copy, only when not already in order) and downsampled to
 * maxPointsPerSeries. Pure; never changes the input.
 * Invariant: every x (bets, atMs) is finite — a NaN there is a caller's bug, not data to draw.
 */
import { assert } from '../../core/assert.ts';
import type {
  BankrollChartPoint,
  BankrollSeries,
  CasinoReportInput,
  GameEdgeSeries,
  VariantSummary,
} from './casino-report-data.ts';
import { CASINO_REPORT_LIMITS as LIMITS } from './casino-report-data.ts';
import { downsample } from './downsample.ts';
import { boundedText } from './html-text.ts';
import type { EdgePoint } from '../../audit/maths.ts';

export interface PreparedGame {
  readonly name: string;
  readonly variant: string;
  readonly verdict: string;
  readonly advertisedEdge: number | null;
  readonly theoreticalEdge: number;
  readonly points: readonly EdgePoint[];
  /** How many points the input had, before downsampling. */
  readonly inputPoints: number;
}

export interface PreparedBankroll {
  readonly archetype: string;
  readonly agents: number;
  readonly points: readonly BankrollChartPoint[];
  readonly inputPoints: number;
  /** Over all input points, not only the kept ones (null: no finite balance). */
  readonly lowestBalance: number | null;
  readonly highestBalance: number | null;
}

export interface PreparedReport {
  readonly title: string;
  readonly subtitle: string;
  /** The summary rows (every variant, up to maxSummaryRows), texts bounded. */
  readonly variants: readonly VariantSummary[];
  readonly omittedVariants: number;
  readonly unchartedNote: string;
  readonly games: readonly PreparedGame[];
  readonly omittedGames: number;
  readonly bankrolls: readonly PreparedBankroll[];
  readonly omittedBankrolls: number;
}

function orderedBy<T>(points: readonly T[], x: (point: T) => number, what: string): readonly T[] {
  let sorted = true;
  for (let i = 0; i < points.length; i += 1) {
    const point = points[i] as T;
    assert(Number.isFinite(x(point)), `${what}: a point has a non-finite x`);
    if (i > 0 && x(points[i - 1] as T) > x(point)) sorted = false;
  }
  return sorted ? points : points.slice().sort((a, b) => x(a) - x(b));
}

function text(value: string): string {
  return boundedText(value, LIMITS.maxTextChars);
}

function prepareGame(game: GameEdgeSeries): PreparedGame {
  const ordered = orderedBy(game.points, (point) => point.bets, `game ${game.game}`);
  return {
    name: text(game.game),
    variant: text(game.variant),
    verdict: text(game.verdict),
    advertisedEdge: game.advertisedEdge,
    theoreticalEdge: game.theoreticalEdge,
    points: downsample(ordered, LIMITS.maxPointsPerSeries),
    inputPoints: game.points.length,
  };
}

function prepareBankroll(series: BankrollSeries): PreparedBankroll {
  const ordered = orderedBy(series.points, (point) => point.atMs, `archetype ${series.archetype}`);
  let lowestBalance: number | null = null;
  let highestBalance: number | null = null;
  for (const { balance } of ordered) {
    if (!Number.isFinite(balance)) continue;
    if (lowestBalance === null || balance < lowestBalance) lowestBalance = balance;
    if (highestBalance === null || balance > highestBalance) highestBalance = balance;
  }
  return {
    archetype: text(series.archetype),
    agents: series.agents,
    points: downsample(ordered, LIMITS.maxPointsPerSeries),
    inputPoints: series.points.length,
    lowestBalance,
    highestBalance,
  };
}

/** A summary row of a charted series, for callers that pass no `variants`: its last point's figures. */
function summaryOfGame(game: GameEdgeSeries): VariantSummary {
  const last = game.points.reduce<EdgePoint | undefined>(
    (latest, point) => (latest === undefined || point.bets >= latest.bets ? point : latest),
    undefined,
  );
  return {
    game: game.game,
    variant: game.variant,
    bets: last?.bets ?? 0,
    advertisedEdge: game.advertisedEdge,
    theoreticalEdge: game.theoreticalEdge,
    empiricalEdge: last?.edge ?? null,
    low: last?.low ?? null,
    high: last?.high ?? null,
    verdict: game.verdict,
  };
}

function prepareVariant(row: VariantSummary): VariantSummary {
  return { ...row, game: text(row.game), variant: text(row.variant), verdict: text(row.verdict) };
}

export function prepareCasinoReport(input: CasinoReportInput): PreparedReport {
  const games = input.games.slice(0, LIMITS.maxGames).map(prepareGame);
  const bankrolls = input.bankrolls.slice(0, LIMITS.maxBankrollSeries).map(prepareBankroll);
  const allVariants = input.variants ?? input.games.map(summaryOfGame);
  const variants = allVariants.slice(0, LIMITS.maxSummaryRows).map(prepareVariant);
  return {
    title: text(input.title),
    subtitle: text(input.subtitle),
    variants,
    omittedVariants: allVariants.length - variants.length,
    unchartedNote: text(input.unchartedNote ?? ''),
    games,
    omittedGames: input.games.length - games.length,
    bankrolls,
    omittedBankrolls: input.bankrolls.length - bankrolls.length,
  };
}
