/**
 * The live house-edge audit's result as a text table, CSV and JSON: one row per variant with where
 * its edge comes from (`edge_source`: published, observed or empirical, edge-tier.ts), the edge
 * stated in that tier with its range (exact: one point; observed: bounded by the unobserved
 * outcomes; empirical: the 99% interval), the bets placed and verified, how many followed the
 * published rule and its draw mapping, the advertised edge, the empirical edge with its 99%
 * interval, the verdict and how many bets it rests on; the JSON adds the observed payout table.
 * Pure and byte-stable: fixed number formats, rows in plan order; the CSV has one figure per
 * column in one format (snake_case header, fractions with 8 decimals).
 */
import { stringify } from 'csv-stringify/sync';
import type { EdgeAuditResult } from './edge-audit.ts';
import { isDocumentsOwn, type VariantOutcome } from './variant-outcome.ts';
import type { JsonValue } from '../../core/errors.ts';
import { ratioText } from '../../core/ratio.ts';
import { ratioDecimal } from './edge-tier.ts';
import { shownInterval, statedInterval } from './edge-verdict.ts';
import { percent as edgePercent } from './edge-findings.ts';
import type { ObservedTable } from './observed-table.ts';
import type { ReportTable } from '../report/findings-report.ts';
import { jsonDocument } from '../../report/kit/summary.ts';

const percent = (value: number | null): string => (value === null ? '—' : edgePercent(value));

/** The rule's part of a verdict, in full (CSV, JSON) or short (the terminal's table, which also tells a target that states no edge). */
function ruleText(outcome: VariantOutcome, length: 'full' | 'short'): string {
  const { verdict } = outcome;
  const full = length === 'full';
  if (verdict.rule === 'matches') return 'matches advertised';
  if (verdict.rule === 'differs') {
    if (isDocumentsOwn(outcome)) return full ? "documents' own table; advertised differs" : "documents' own table";
    return `${full ? 'differs from advertised' : 'differs'} (${verdict.ruleSeverity ?? 'minor'})`;
  }
  if (verdict.advertised !== null) return 'undecided';
  const statesNone = !full && outcome.advertisedBy === null && outcome.variant.advertised !== null;
  return statesNone ? 'states no edge' : 'no advertised edge';
}

export function verdictText(outcome: VariantOutcome): string {
  const { verdict } = outcome;
  if (outcome.verified === 0) return 'not verified';
  const rule = ruleText(outcome, 'full');
  switch (verdict.edgeSource) {
    case 'published':
      return verdict.empirical === 'differs' ? `${rule}; returns differ from the law` : rule;
    case 'observed':
      return `payouts differ from the published table; ${rule}${verdict.empirical === 'differs' ? '; returns differ from the table' : ''}`;
    case 'empirical':
      return outcome.brokeMapping > 0
        ? `${outcome.brokeMapping} bets off the published mapping; ${rule}`
        : verdict.cause === 'not-replayed'
          ? `not replayed; ${rule}`
          : `rule differs from the published scheme; ${rule}`;
  }
}

/** The stated edge and its range, readable: "2.000%", "2.000% [1.9%, 2.1%]". */
export function statedText(outcome: VariantOutcome): string {
  const { statedEdge, statedRange, edgeSource } = outcome.verdict;
  if (statedEdge === null) return '—';
  // An empirical point with no interval (nothing bounds its returns, too few bets for the sample's) is no verdict.
  if (statedRange === null && edgeSource === 'empirical') return `${percent(statedEdge)} (no interval)`;
  return statedRange === null || statedRange[0] === statedRange[1]
    ? percent(statedEdge)
    : `${percent(statedEdge)} [${percent(statedRange[0])}, ${percent(statedRange[1])}]`;
}

/** The terminal's width the table keeps within: the detail (intervals, SPRT, texts) is in edges.csv and edges.json. */
export const TABLE_COLUMNS_MAX = 120;

/** The verdict in a few words, for the terminal (verdictText is the full one, in the CSV and JSON). */
export function shortVerdictText(outcome: VariantOutcome): string {
  const { verdict } = outcome;
  if (outcome.verified === 0) return 'not verified';
  const rule = ruleText(outcome, 'short');
  switch (verdict.edgeSource) {
    case 'published':
      return verdict.empirical === 'differs' ? `${rule}; returns differ` : rule;
    case 'observed':
      return `payouts changed; ${rule}`;
    case 'empirical':
      return outcome.brokeMapping > 0
        ? `${outcome.brokeMapping} off mapping; ${rule}`
        : verdict.cause === 'not-replayed'
          ? `not replayed; ${rule}`
          : `payouts mixed; ${rule}`;
  }
}

const TABLE_LEGEND =
  'bets: placed/verified/followed the rule; intervals, SPRT and full verdicts: edges.csv, edges.json';
const HEADERS = ['game', 'variant', 'source', 'edge', 'bets', 'advertised', 'verdict'];

/** The variant without its game's prefix ("coin_flip:heads" → "heads"; "wheel" → "—"). */
const variantPart = (outcome: VariantOutcome): string => {
  const name = outcome.variant.variant;
  return name.startsWith(`${outcome.variant.game}:`)
    ? name.slice(outcome.variant.game.length + 1)
    : name === outcome.variant.game
      ? '—'
      : name;
};

/** Whose word the advertised edge is: `own` (the target's answers), `list` (its game list), or the documents'. */
function wordSource(outcome: VariantOutcome): 'own' | 'list' | 'documents' | null {
  if (outcome.verdict.advertised === null || outcome.advertisedBy === null) return null;
  if (outcome.advertisedBy === 'documents') return 'documents';
  return outcome.words !== undefined && outcome.words.answers === null ? 'list' : 'own';
}

/** The advertised edge as a figure, "(own)" where the target's answers state it, "(list)" where its game list does. */
const advertisedCell = (outcome: VariantOutcome): string => {
  const source = wordSource(outcome);
  if (outcome.verdict.advertised === null) return '—';
  return `${percent(outcome.verdict.advertised.edge)}${source === 'own' || source === 'list' ? ` (${source})` : ''}`;
};

const betsCell = (outcome: VariantOutcome): string => `${outcome.placed}/${outcome.verified}/${outcome.followedRule}`;

/** One row per variant, within TABLE_COLUMNS_MAX columns: bets as placed/verified/followed the rule. */
export function renderEdgeAuditTable(result: EdgeAuditResult): string {
  const cells = result.variants.map((outcome) => [
    outcome.variant.game,
    variantPart(outcome),
    outcome.verdict.edgeSource,
    statedText(outcome),
    betsCell(outcome),
    advertisedCell(outcome),
    shortVerdictText(outcome),
  ]);
  const widths = HEADERS.map((header, column) =>
    Math.max(header.length, ...cells.map((line) => (line[column] ?? '').length)),
  );
  const fixed = widths.slice(0, -1).reduce((total, width) => total + width + 2, 0);
  const room = Math.max(HEADERS.at(-1)?.length ?? 0, TABLE_COLUMNS_MAX - fixed);
  const fit = (value: string): string => (value.length > room ? `${value.slice(0, room - 1)}…` : value);
  const line = (values: readonly string[]): string =>
    values
      .map((value, column) => (column === values.length - 1 ? fit(value) : value.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), ...cells.map(line), TABLE_LEGEND].join('\n') + '\n';
}

/**
 * The per-variant edge table of findings.html (the same cells as the terminal's, in full): source,
 * edge, interval, bets, the target's own word with where it was read, and the verdict.
 */
export function edgeReportTable(result: EdgeAuditResult): ReportTable {
  return {
    id: 'edges',
    heading: 'Edges, per variant',
    caption:
      'bets: placed/verified/followed the rule; the interval: exact where one point, else its range (observed bounds, the empirical 99% interval)',
    headers: ['game', 'variant', 'source', 'edge', 'interval', 'bets', "the target's word", 'verdict'],
    rows: result.variants.map((outcome) => {
      const range = outcome.verdict.statedRange;
      const word = outcome.verdict.advertised;
      return [
        outcome.variant.game,
        variantPart(outcome),
        outcome.restated === null || outcome.restated === undefined
          ? outcome.verdict.edgeSource
          : `observed (${outcome.restated.text})`,
        outcome.verdict.statedEdge === null ? '—' : percent(outcome.verdict.statedEdge),
        range === null ? 'none' : range[0] === range[1] ? 'exact' : `[${percent(range[0])}, ${percent(range[1])}]`,
        betsCell(outcome),
        word === null ? '—' : `${word.text}${wordSource(outcome) === 'documents' ? " (the documents')" : ''}`,
        verdictText(outcome),
      ];
    }),
  };
}

/** A fraction with 8 decimals, "" when absent; never "-0.00000000" (casino.csv's format). */
function fractionCell(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const text = value.toFixed(8);
  return /^-0\.0*$/.test(text) ? text.slice(1) : text;
}

/**
 * The CSV's columns: one figure each, in one format (edges as fractions with 8 decimals, counts as
 * integers, "" where a figure does not exist), unlike the text table, which packs the interval and
 * the SPRT into one readable cell.
 */
const CSV_COLUMNS = [
  'game',
  'variant',
  'edge_source',
  'edge',
  'edge_low',
  'edge_high',
  'bets',
  'verified',
  'followed_rule',
  'followed_mapping',
  'exact_edge',
  'advertised_text',
  'advertised_edge',
  'empirical_edge',
  'low',
  'high',
  'unobserved_probability',
  'verdict',
  'rests_on_bets',
  'sprt_decision',
  'sprt_direction',
  'sprt_bets',
] as const;

export function renderEdgeAuditCsv(result: EdgeAuditResult): string {
  const rows = result.variants.map((outcome) => {
    const { verdict, sprt } = outcome;
    return [
      outcome.variant.game,
      outcome.variant.variant,
      verdict.edgeSource,
      fractionCell(verdict.statedEdge),
      fractionCell(verdict.statedRange?.[0]),
      fractionCell(verdict.statedRange?.[1]),
      outcome.placed,
      outcome.verified,
      outcome.followedRule,
      outcome.followedMapping,
      fractionCell(verdict.exactEdge),
      verdict.advertised?.text ?? '',
      fractionCell(verdict.advertised?.edge),
      fractionCell(verdict.interval?.edge),
      fractionCell(shownInterval(verdict.interval)?.[0]),
      fractionCell(shownInterval(verdict.interval)?.[1]),
      fractionCell(verdict.observed?.unobservedProbability),
      verdictText(outcome),
      verdict.restsOnBets,
      sprt?.decision ?? '',
      sprt?.direction ?? '',
      sprt === null ? '' : sprt.bets,
    ];
  });
  return stringify(rows, { header: true, columns: [...CSV_COLUMNS], record_delimiter: '\n' });
}

/** The observed payout table as data: multipliers and probabilities as exact decimal or fraction text, bets per outcome. */
function observedJson(table: ObservedTable | null): JsonValue {
  if (table === null) return null;
  return {
    bets: table.bets,
    edge: table.edge,
    edge_max: table.edgeMax,
    unobserved_probability: table.unobservedProbability,
    outcomes: table.rows.map((row) => ({
      published: ratioDecimal(row.published),
      probability: ratioText(row.probability),
      paid: row.paid === null ? null : ratioDecimal(row.paid),
      bets: row.bets,
    })),
  };
}

export function renderEdgeAuditJson(result: EdgeAuditResult, header: Readonly<Record<string, string>>): string {
  const variants = result.variants.map((outcome) => ({
    game: outcome.variant.game,
    variant: outcome.variant.variant,
    params: outcome.variant.params,
    edge_source: outcome.verdict.edgeSource,
    edge_source_cause: outcome.verdict.cause,
    edge: outcome.verdict.statedEdge,
    edge_range: outcome.verdict.statedRange === null ? null : [...outcome.verdict.statedRange],
    observed_table: observedJson(outcome.verdict.observed),
    placed: outcome.placed,
    verified: outcome.verified,
    followed_rule: outcome.followedRule,
    followed_mapping: outcome.followedMapping,
    broke_mapping: outcome.brokeMapping,
    refused: outcome.refused,
    exact_edge: outcome.verdict.exactEdge,
    advertised_edge: outcome.verdict.advertised?.edge ?? null,
    advertised_text: outcome.verdict.advertised?.text ?? null,
    empirical_edge: outcome.verdict.interval?.edge ?? null,
    interval_99: statedInterval(outcome.verdict.interval, outcome.verdict.returnBound),
    rule: outcome.verdict.rule,
    rule_severity: outcome.verdict.ruleSeverity,
    empirical: outcome.verdict.empirical,
    rests_on_bets: outcome.verdict.restsOnBets,
    sprt:
      outcome.sprt === null
        ? null
        : { decision: outcome.sprt.decision, direction: outcome.sprt.direction, bets: outcome.sprt.bets },
    verdict: verdictText(outcome),
    restated_rule: outcome.restated?.text ?? null,
    draw: outcome.draw?.summary ?? null,
  }));
  return jsonDocument({
    ...header,
    placed: result.placed,
    verified: result.verified,
    refused: result.refused,
    stopped_by: result.stoppedBy,
    variants,
  });
}
