/**
 * The final edge figures of a run's casino bets, per game variant, from the run record: the
 * empirical per-bet edge and its 99% interval (edge-statistics.ts `edgeInterval`, with the
 * variant's theoretical σ as the floor), the verdict against the advertised edge (`judgeEdge`)
 * and the money figures (wagered, returned). Shared by casino.csv, summary.json and report.html
 * so the three never disagree. Pure; every number comes from the record.
 * Variants without a law of their own (crash rounds, video-poker draws) or with a single bet
 * have no interval: their rows carry the money figures only.
 */
import { edgeInterval, judgeEdge, type EdgeInterval, type EdgeJudgement } from '../audit/maths.ts';
import { ratio, ratioToNumber, sub, ONE, div } from '../core/ratio.ts';
import { countText, percentText } from './html/report-format.ts';
import type { CasinoEdgePoint, CasinoVariantRow } from './run-record.ts';

export interface VariantEdge {
  readonly row: CasinoVariantRow;
  /** 1 − returned / wagered (money-weighted), null when nothing was wagered. */
  readonly moneyEdge: number | null;
  readonly interval: EdgeInterval | null;
  readonly judgement: EdgeJudgement | null;
  /** The checkpoints and the final point. */
  readonly points: readonly CasinoEdgePoint[];
}

export function variantEdge(row: CasinoVariantRow): VariantEdge {
  const moneyEdge =
    row.wageredMicro === 0n ? null : ratioToNumber(sub(ONE, div(ratio(row.returnedMicro), ratio(row.wageredMicro))));
  if (row.theory === null || row.bets < 2)
    return { row, moneyEdge, interval: null, judgement: null, points: row.points };
  const interval = edgeInterval(row.tally, row.theory.sigma);
  const judgement = judgeEdge({ advertised: row.theory.advertised, theory: row.theory, interval });
  const last = row.points.at(-1);
  const final: CasinoEdgePoint = { bets: interval.bets, edge: interval.edge, low: interval.low, high: interval.high };
  return {
    row,
    moneyEdge,
    interval,
    judgement,
    points: last?.bets === interval.bets ? row.points : [...row.points, final],
  };
}

/** The verdict as one line of text: "inconsistent against the advertised edge 0.5%; theoretical 2.000% (model pass)". */
export function verdictText(edge: VariantEdge): string {
  const { row, judgement } = edge;
  if (row.theory === null) return 'no theoretical law for these bets (crash round or video-poker draw)';
  if (judgement === null) return 'too few bets for an interval';
  const reference =
    judgement.reference === 'advertised' && row.theory.advertised !== null
      ? `the advertised edge ${row.theory.advertisedText}`
      : 'the theoretical edge';
  const needed =
    judgement.betsNeeded === null || judgement.betsNeeded === 0
      ? ''
      : `; about ${countText(judgement.betsNeeded)} bets in all would resolve it`;
  return `${judgement.verdict} against ${reference}; theoretical ${percentText(ratioToNumber(row.theory.edge))} (model ${judgement.model})${needed}`;
}
