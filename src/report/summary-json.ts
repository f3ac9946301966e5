/**
 * summary.json: the run at a glance, as data. Pure: the text is a function of the RunRecord and
 * of the digests of the other report files (which the writer computes first).
 *
 * Invariants: keys in a fixed order (built in that order; no key is integer-like, so JavaScript
 * keeps insertion order), 2-space indent, trailing newline; money as decimal strings
 * (formatDecimal), instants as ISO 8601 UTC; invariants in the record's order.
 * `casino` is present only when the run placed casino bets (runs without them keep their bytes):
 * totals, closures, and per variant the bets and the edge figures of casino-edges.ts.
 * `files` maps each other report file to its own SHA-256 and `digest` is the digest of those
 * files together (write-reports.ts); the digest `afp run` prints also covers this file.
 */
import { formatDecimal } from '../core/money.ts';
import { isoTime } from '../http/render.ts';
import { ratioToNumber } from '../core/ratio.ts';
import { variantEdge } from './casino-edges.ts';
import type { CasinoRunData, EndpointRow, InvariantResult, RunRecord } from './run-record.ts';
import { roundedOrNull } from './html/report-format.ts';
import { jsonDocument } from './kit/summary.ts';

export interface OtherFilesDigest {
  /** File name → SHA-256 (lowercase hex) of its bytes, in the digest's order. */
  readonly files: Readonly<Record<string, string>>;
  /** SHA-256 over those files (name + NUL + bytes, in order). */
  readonly digest: string;
}

/** The status classes of `requests_by_status`: always all of them (0 where none), so the keys never change. */
export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx', 'other'] as const;

/** Request counts by status class, every class in STATUS_CLASSES order. */
export function requestsByStatusClass(endpoints: readonly EndpointRow[]): Record<string, number> {
  const ordered: Record<string, number> = Object.fromEntries(STATUS_CLASSES.map((label) => [label, 0]));
  for (const row of endpoints) {
    for (const [status, count] of Object.entries(row.statuses)) {
      const code = Number(status);
      const label = Number.isInteger(code) && code >= 100 && code <= 599 ? `${Math.floor(code / 100)}xx` : 'other';
      ordered[label] = (ordered[label] ?? 0) + count;
    }
  }
  return ordered;
}

function invariantJson(result: InvariantResult): object {
  const first = result.first;
  return {
    name: result.name,
    checks: result.checks,
    violations: result.violations,
    first: first === null ? null : { at: isoTime(first.atMs), event: first.event, message: first.message },
  };
}

/** A fraction rounded to 8 decimals for JSON (null when absent); never -0. */
function fraction(value: number | null): number | null {
  return value === null ? null : roundedOrNull(value, 8);
}

function casinoJson(casino: CasinoRunData): object {
  return {
    bets: casino.bets,
    wagered: formatDecimal(casino.wageredMicro),
    returned: formatDecimal(casino.returnedMicro),
    house_net: formatDecimal(casino.wageredMicro - casino.returnedMicro),
    untracked_bets: casino.untrackedBets,
    closures: casino.closures.map((closure) => ({
      game: closure.game,
      from: isoTime(closure.fromMs),
      until: isoTime(closure.untilMs),
    })),
    variants: casino.variants.map((row) => {
      const edge = variantEdge(row);
      return {
        game: row.game,
        variant: row.variant,
        bets: row.bets,
        wagered: formatDecimal(row.wageredMicro),
        returned: formatDecimal(row.returnedMicro),
        empirical_edge: fraction(edge.interval?.edge ?? null),
        low: fraction(edge.interval?.low ?? null),
        high: fraction(edge.interval?.high ?? null),
        advertised_edge: fraction(
          row.theory?.advertised === undefined || row.theory.advertised === null
            ? null
            : ratioToNumber(row.theory.advertised),
        ),
        theoretical_edge: fraction(row.theory === null ? null : ratioToNumber(row.theory.edge)),
        verdict: edge.judgement?.verdict ?? null,
      };
    }),
  };
}

export function renderSummaryJson(record: RunRecord, others: OtherFilesDigest): string {
  const totals = record.totals;
  const summary = {
    scenario: record.scenario,
    seed: record.seed,
    start: isoTime(record.startMs),
    end: isoTime(record.endMs),
    outcome: record.outcome,
    reproduce: record.reproduce,
    totals: {
      agents: totals.agents,
      requests: totals.requests,
      escrows: totals.escrows,
      events: record.events.count,
      agent_balances: formatDecimal(totals.agentBalancesMicro),
      fee_income: formatDecimal(totals.feeIncomeMicro),
      faucet_pool: formatDecimal(totals.faucetPoolMicro),
      ...Object.fromEntries(
        (totals.holders ?? []).map((holder) => [holder.name.replaceAll(' ', '_'), formatDecimal(holder.amountMicro)]),
      ),
      ...(totals.totalHeldMicro === undefined ? {} : { total_held: formatDecimal(totals.totalHeldMicro) }),
      ledger_sum: formatDecimal(totals.ledgerSumMicro),
    },
    requests_by_status: requestsByStatusClass(record.endpoints),
    invariants: record.invariants.map(invariantJson),
    ...(record.probes === undefined
      ? {}
      : { probes: Object.fromEntries(record.probes.map((probe) => [probe.name, probe.hits])) }),
    ...(record.casino === undefined ? {} : { casino: casinoJson(record.casino) }),
    files: others.files,
    digest: others.digest,
  };
  return jsonDocument(summary);
}
