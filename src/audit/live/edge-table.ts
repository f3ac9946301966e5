/**
 * The live house-edge audit's result as a text table, CSV and JSON: one row per variant with where
 * its edge comes from (`edge_source`: published, observed or empirical, edge-tier.ts), the edge
 * stated in that tier with its range (exact: one point; observed: bounded by the unobserved
 * outcomes; empirical: the 99% interval), the bets placed and verified, how many followed the
 * published rule and its draw mapping, the advertised edge, the empirical edge with its 99%
 * interval, the verdict and how many bets it rests on; the JSON adds the observed payout table.
 * The texts a reader sees (the edge, its interval, the word, the verdict) are the cells of
 * edge-cells.ts, one function for the terminal, the CSV's `shown_*` columns, the JSON's `shown` and
 * findings.html's edge table: the four cannot disagree.
 * Pure and byte-stable: fixed number formats, rows in plan order; the CSV has one figure per
 * column in one format (snake_case header, fractions with 8 decimals), then the shown texts.
 */
import { stringify } from 'csv-stringify/sync';
import type { EdgeAuditResult } from './edge-audit.ts';
import type { JsonValue } from '../../core/errors.ts';
import { ratioText } from '../../core/ratio.ts';
import { ratioDecimal } from './edge-tier.ts';
import { statedInterval } from './edge-verdict.ts';
import { EDGE_CELL_KEYS, edgeCells, liveVerdictText } from './edge-cells.ts';
import type { ObservedTable } from './observed-table.ts';
import type { ReportTable } from '../../report/findings/findings-report.ts';
import { jsonDocument } from '../../report/kit/summary.ts';

/** The terminal's width the table keeps within: the word as written, the full verdict and the SPRT are in the files. */
export const TABLE_COLUMNS_MAX = 120;

const TABLE_LEGEND =
  'bets: placed/verified/followed the rule; interval: 99% (exact: one point); in full: edges.csv, edges.json, findings.html';
/** The cells the terminal shows (edge-cells.ts), each its own column; the last is cut to fit. */
const TABLE_KEYS = EDGE_CELL_KEYS.filter((key) => key !== 'word' && key !== 'detail');

/**
 * One row per variant, within TABLE_COLUMNS_MAX columns where its cells allow: the same cells as
 * the files, none cut; a verdict too long for the room left is wrapped onto indented lines.
 */
export function renderEdgeAuditTable(result: EdgeAuditResult): string {
  const cells = result.variants.map((outcome) => {
    const row = edgeCells(outcome);
    return TABLE_KEYS.map((key) => row[key]);
  });
  const widths = TABLE_KEYS.map((header, column) =>
    Math.max(header.length, ...cells.map((line) => (line[column] ?? '').length)),
  );
  const fixed = widths.slice(0, -1).reduce((total, width) => total + width + 2, 0);
  const room = Math.max(VERDICT_ROOM_MIN, TABLE_COLUMNS_MAX - fixed);
  const line = (values: readonly string[]): string[] => {
    const [first = '', ...rest] = wrapWords(values.at(-1) ?? '', room);
    const head = values.slice(0, -1).map((value, column) => value.padEnd(widths[column] ?? 0));
    return [[...head, first].join('  ').trimEnd(), ...rest.map((more) => `${' '.repeat(fixed)}${more}`)];
  };
  return [...line(TABLE_KEYS), ...cells.flatMap(line), TABLE_LEGEND].join('\n') + '\n';
}

/** The fewest columns the verdict keeps on a line, however wide the other cells are. */
const VERDICT_ROOM_MIN = 20;

/** A text in lines of at most `room` characters, broken at spaces (a longer word keeps a line of its own, whole). */
function wrapWords(text: string, room: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > room) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  return [...lines, current];
}

const REPORT_HEADERS: Readonly<Record<(typeof EDGE_CELL_KEYS)[number], string>> = {
  game: 'game',
  variant: 'variant',
  source: 'source',
  edge: 'edge',
  interval: 'interval',
  bets: 'bets',
  advertised: 'advertised',
  word: "the target's word",
  verdict: 'verdict',
  detail: 'in full',
};

/**
 * The per-variant edge table of findings.html: every cell of edge-cells.ts, the terminal's and
 * more (the word as written and where it was read, the verdict in full).
 */
export function edgeReportTable(result: EdgeAuditResult): ReportTable {
  return {
    id: 'edges',
    heading: 'Edges, per variant',
    caption:
      "bets: placed/verified/followed the rule; interval: exact where one point, else its range (observed bounds, the empirical 99% interval); advertised: the word it is held to, (own) from the target's answers, (list) from its game list",
    headers: EDGE_CELL_KEYS.map((key) => REPORT_HEADERS[key]),
    rows: result.variants.map((outcome) => {
      const row = edgeCells(outcome);
      return EDGE_CELL_KEYS.map((key) => row[key]);
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
 * integers, "" where a figure does not exist; low and high: the interval the edge is stated with,
 * edges.json's interval_99), then the texts the terminal and findings.html show (`shown_<cell>`).
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
  ...EDGE_CELL_KEYS.map((key) => `shown_${key}`),
];

export function renderEdgeAuditCsv(result: EdgeAuditResult): string {
  const rows = result.variants.map((outcome) => {
    const { verdict, sprt } = outcome;
    const interval = statedInterval(verdict.interval, verdict.returnBound);
    const shown = edgeCells(outcome);
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
      fractionCell(interval?.[0]),
      fractionCell(interval?.[1]),
      fractionCell(verdict.observed?.unobservedProbability),
      liveVerdictText(outcome),
      verdict.restsOnBets,
      sprt?.decision ?? '',
      sprt?.direction ?? '',
      sprt === null ? '' : sprt.bets,
      ...EDGE_CELL_KEYS.map((key) => shown[key]),
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
    verdict: liveVerdictText(outcome),
    shown: { ...edgeCells(outcome) },
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
