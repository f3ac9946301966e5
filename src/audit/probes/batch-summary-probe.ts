/**
 * The batch-summary probe of `afp audit money`: a batch of minimum coin flips with one invalid bet
 * last, whose summary (total, errors, total wagered, total won, net, balance after) must agree with
 * its own results, each shown figure within its own rounding (the target's display places,
 * measured per figure). A target that states a batch maximum or a minimum bet gets the batch once
 * more within them. Split out of money-probes.ts: sending the batch, then judging its summary.
 */
import { formatDecimal, type Micro } from '../../core/money.ts';
import {
  betCredit,
  isRefusal,
  type BetInput,
  type LiveBet,
  type OperationResult,
  type SentRequest,
  statedBatchMaximum,
  statedMinimumMicro,
} from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import { abs, bet, PROBE_BETS, PROBE_MIN_BET_MICRO, type Probe } from './money-probe.ts';
import { answerPlaces, shownRoundingMicro, type ProbeContext } from './probe-context.ts';

type Raise = (finding: FindingInput) => void;
type BatchResult = OperationResult<'casino.batch'>;

export const batchSummaryProbe: Probe = {
  name: 'batch-summary',
  async run(context, raise) {
    if (context.session.offers('casino.batch') !== null)
      return { status: 'skipped', note: context.session.offers('casino.batch') ?? '' };
    const sent = await sendBatch(context);
    if ('status' in sent) return sent;
    return judgeSummary(sent.answer, context.curlOf(sent.request), raise);
  },
};

/** The batch sent, within the target's stated maximum and minimum, or why the probe is skipped. */
async function sendBatch(
  context: ProbeContext,
): Promise<{ readonly answer: BatchResult; readonly request: SentRequest } | { status: 'skipped'; note: string }> {
  let bets: BetInput[] = [
    ...Array.from({ length: PROBE_BETS }, (_, index) => bet(index)),
    bet(PROBE_BETS, { side: 'heads' }, 'coin_flip', 0n),
  ];
  let outcome = await context.session.call('casino.batch', { bets }, context.apiKey);
  // Refused above the target's own batch maximum, which it states: once more within it (the invalid bet kept last).
  const maximum = outcome.kind === 'refused' ? statedBatchMaximum(outcome.refusal, bets.length) : null;
  if (maximum !== null) {
    bets = [...bets.slice(0, Math.max(1, maximum - 1)), ...(maximum >= 2 ? bets.slice(-1) : [])];
    outcome = await context.session.call('casino.batch', { bets }, context.apiKey);
  }
  if (outcome.kind !== 'ok')
    return {
      status: 'skipped',
      note: `the batch was not answered: ${outcome.kind === 'refused' ? `refused ${outcome.refusal.status} ${outcome.refusal.name} (${outcome.refusal.message})` : outcome.kind}`,
    };
  // Every bet refused for the target's own minimum: the same batch once more at that minimum.
  const minimum = outcome.value.results.every(isRefusal)
    ? outcome.value.results
        .map((result) => (isRefusal(result) ? statedMinimumMicro(result, PROBE_MIN_BET_MICRO) : null))
        .find((stated) => stated !== null)
    : undefined;
  if (minimum !== undefined && minimum !== null) {
    const raised = bets.map((one) => (one.amountMicro === 0n ? one : { ...one, amountMicro: minimum }));
    outcome = await context.session.call('casino.batch', { bets: raised }, context.apiKey);
    if (outcome.kind !== 'ok')
      return { status: 'skipped', note: `the batch at the stated minimum was not answered: ${outcome.kind}` };
  }
  return { answer: outcome.value, request: outcome.request };
}

/** The summary against the batch's own results, each shown figure within its rounding. */
function judgeSummary(
  answer: BatchResult,
  reproduce: string,
  raise: Raise,
): { status: 'ran' | 'skipped'; note: string } {
  const { results, summary } = answer;
  const placed = results.filter((result): result is LiveBet => !isRefusal(result));
  const wagered = placed.reduce((total, one) => total + one.amountMicro, 0n);
  // What the bets credited: stake × multiplier where amount_won is a display figure (bet-credit.ts),
  // never the rounded figures (0 each on a target rounding to 0 places); `unsure` what no answer pins.
  const credits = placed.map((one) => betCredit(one));
  const won = credits.reduce(
    (total, credit, index) => total + (credit.ok ? credit.micro : (placed[index]?.paidMicro ?? 0n)),
    0n,
  );
  const compare = (field: string, seen: bigint | number | null, expected: bigint | number, tolerance: bigint): void => {
    if (seen === null) return;
    const differs =
      typeof seen === 'bigint' && typeof expected === 'bigint' ? abs(seen - expected) > tolerance : seen !== expected;
    if (!differs) return;
    const text = (value: bigint | number): string => (typeof value === 'bigint' ? formatDecimal(value) : String(value));
    raise({
      id: `money:batch:summary:${field}`,
      severity: 'major',
      kind: 'money',
      title: `the batch summary's ${field} (${text(seen)}) disagrees with its results (${text(expected)})`,
      endpoint: 'casino.batch',
      field: `summary.${field}`,
      expected: text(expected),
      seen: text(seen),
      evidence: `${results.length} elements, ${placed.length} placed`,
      reproduce,
    });
  };
  if (summary === null) return { status: 'ran', note: 'the batch answer has no summary' };
  compare('total', summary.total, results.length, 0n);
  compare('errors', summary.errors, results.length - placed.length, 0n);
  // Each shown figure within its own rounding: the target's display places, measured per figure
  // (a shown 0 at the most places the answer's figures show: a zeroed total_wagered is still seen).
  const last = placed.at(-1)?.balanceAfterMicro ?? null;
  const said = answer.balanceAfterMicro;
  const places = answerPlaces([
    ...placed.flatMap((one) => [one.paidMicro, one.balanceAfterMicro]),
    summary.totalWageredMicro,
    summary.totalWonMicro,
    summary.netPnlMicro,
    said,
  ]);
  const rounding = (...figures: (Micro | null)[]): Micro =>
    shownRoundingMicro(
      figures.map((figure) => figure ?? 0n),
      places,
    );
  const shownWon = credits.reduce(
    (total, credit, index) =>
      total + (credit.ok ? (credit.exact ? 0n : 1n) : rounding(placed[index]?.paidMicro ?? null)),
    0n,
  );
  compare('total_wagered', summary.totalWageredMicro, wagered, rounding(summary.totalWageredMicro));
  compare('total_won', summary.totalWonMicro, won, shownWon + rounding(summary.totalWonMicro));
  compare('net_pnl', summary.netPnlMicro, won - wagered, shownWon + rounding(summary.netPnlMicro));
  if (last !== null) compare('balance_after', said, last, rounding(last, said));
  return { status: 'ran', note: `${results.length} elements, ${placed.length} placed, summary compared` };
}
