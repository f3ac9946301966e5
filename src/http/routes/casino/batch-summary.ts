/**
 * batchSummary: a bet batch's results as lines and its `summary` object (total, won, lost, errors,
 * wagered, won, net, win rate), shared by style A's POST /bets/batch (casino-games.ts) and the
 * deployed dialect's (routes/deployed/casino-batch.ts). Each caller says what counts as a win and
 * how a line reads; the sums and the summary's fields are one rule.
 * The defect 'batch-summary-zero' (tests and demos only) reproduces the deployment's summary, which
 * sums a field its results lack: total_wagered 0, net_pnl = total_won.
 */
import type { Failure, JsonObject } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import { moneyA } from '../../render.ts';
import type { RouteContext } from '../../route.ts';

export type BatchResults = ReadonlyArray<{ ok: true; value: BetRecord } | Failure>;

export interface BatchLines {
  /** Whether a placed bet counts as won. */
  won(bet: BetRecord): boolean;
  placed(bet: BetRecord, index: number): JsonObject;
  refused(failure: Failure, index: number): JsonObject;
}

export function batchSummary(
  results: BatchResults,
  context: RouteContext,
  lines: BatchLines,
): { readonly results: JsonObject[]; readonly summary: JsonObject } {
  let won = 0;
  let lost = 0;
  let wageredMicro = 0n;
  let wonMicro = 0n;
  const rendered = results.map((result, index): JsonObject => {
    if (!result.ok) return lines.refused(result, index);
    const bet = result.value;
    if (lines.won(bet)) won += 1;
    else lost += 1;
    wageredMicro += bet.amountMicro;
    wonMicro += bet.payoutMicro;
    return lines.placed(bet, index);
  });
  if (context.platform.context.defects.has('batch-summary-zero')) wageredMicro = 0n;
  const placed = won + lost;
  const summary = {
    total: results.length,
    won,
    lost,
    errors: results.length - placed,
    total_wagered: moneyA(wageredMicro),
    total_won: moneyA(wonMicro),
    net_pnl: moneyA(wonMicro - wageredMicro),
    win_rate_pct: placed === 0 ? 0 : Math.round((won / placed) * 10_000) / 100,
  };
  return { results: rendered, summary };
}
