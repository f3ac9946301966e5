/**
 * The house-edge audit's three renderings: a fixed-width text table, CSV and a JSON object.
 * Pure and byte-stable: every number goes through toFixed/toPrecision (exactly specified by
 * ECMAScript) or is an exact fraction's text, rows keep the simulation's order (games in the
 * table's order, variants in the module's order), no time, no locale.
 *
 * Columns: advertised (the documents' edge; "-" where they state none), theoretical (exact, from
 * afp's payout rules), empirical (1 − mean return over the bets) with its 99% interval, bets,
 * bets needed (total bets on the variant to tell advertised from theoretical; 0 once told; "-"
 * when they are equal; always whole digits, three significant ones beyond 10^12), verdict (against the advertised edge, else the theoretical), model (does
 * the interval hold the theoretical edge), jackpot (bets paid the top multiplier / expected).
 */
import { stringify } from 'csv-stringify/sync';
import { ratioText, ratioToNumber, type Ratio } from '../../core/ratio.ts';
import { countText, percentText } from '../../report/html/report-format.ts';
import { textTable } from '../../report/summary-table.ts';
import { CONFIDENCE_LEVEL } from '../edge/edge-statistics.ts';
import type { EdgeRow, EdgeSimulation } from '../edge/edge-simulation.ts';
import { jsonDocument } from '../../report/kit/summary.ts';

const fraction = (value: number): string => {
  const text = value.toFixed(8);
  return /^-0\.0*$/.test(text) ? text.slice(1) : text;
};
const significant = (value: number): string => value.toPrecision(8);
const exactEdge = (edge: Ratio | null): string => (edge === null ? '' : ratioText(edge));
/** Bets needed: exact below 1e12, three significant digits above (they are estimates anyway). */
const HUGE_COUNT = 1e12;

/**
 * A non-negative count as plain integer digits, never in exponent form: exact below HUGE_COUNT,
 * else its three significant digits followed by zeros (2.66e14 → "266000000000000"), so the
 * column holds one format whatever the size.
 */
export function integerDigits(count: number): string {
  if (count < HUGE_COUNT) return String(Math.round(count));
  const [mantissa = '0', exponent = '0'] = count.toExponential(2).split('e');
  const digits = mantissa.replace('.', '');
  return digits + '0'.repeat(Math.max(0, Number(exponent) - (digits.length - 1)));
}

const grouped = (digits: string): string => digits.replace(/\B(?=(\d{3})+$)/g, ',');
const neededText = (needed: number | null, group: boolean): string =>
  needed === null ? (group ? '-' : '') : group ? grouped(integerDigits(needed)) : integerDigits(needed);
const neededNumber = (needed: number | null): number | null =>
  needed === null || needed < HUGE_COUNT ? needed : Number(needed.toPrecision(3));
const jackpotText = (row: EdgeRow): string => `${row.jackpotHits}/${row.jackpotExpectedHits.toFixed(2)}`;

const TABLE_HEADER = [
  'variant',
  'advertised',
  'theoretical',
  'empirical',
  '99% interval',
  'bets',
  'bets needed',
  'verdict',
  'model',
  'jackpot',
];
const TABLE_ALIGN = ['left', 'right', 'right', 'right', 'left', 'right', 'right', 'left', 'left', 'right'] as const;

export function renderEdgeTable(simulation: EdgeSimulation): string {
  const rows = simulation.rows.map((row) => [
    row.variant,
    row.advertised === null ? '-' : percentText(ratioToNumber(row.advertised)),
    percentText(ratioToNumber(row.theory.edge)),
    percentText(row.interval.edge),
    `[${percentText(row.interval.low)}, ${percentText(row.interval.high)}]`,
    countText(row.interval.bets),
    neededText(row.judgement.betsNeeded, true),
    row.judgement.verdict,
    row.judgement.model,
    jackpotText(row),
  ]);
  const title = `house edge: seed ${simulation.seed}, ${countText(simulation.betsPerGame)} bets per game, ${CONFIDENCE_LEVEL * 100}% intervals`;
  return [title, ...textTable(TABLE_HEADER, rows, TABLE_ALIGN)].join('\n') + '\n';
}

const CSV_COLUMNS = [
  'game',
  'variant',
  'advertised_text',
  'advertised_edge',
  'advertised_edge_exact',
  'theoretical_edge',
  'theoretical_edge_exact',
  'theoretical_sigma',
  'bets',
  'empirical_edge',
  'low',
  'high',
  'sigma',
  'reference',
  'verdict',
  'model',
  'bets_needed',
  'jackpot_multiplier',
  'jackpot_probability',
  'jackpot_expected_hits',
  'jackpot_hits',
];

export function renderEdgeCsv(simulation: EdgeSimulation): string {
  const rows = simulation.rows.map((row) => [
    row.game,
    row.variant,
    row.advertisedText,
    row.advertised === null ? '' : fraction(ratioToNumber(row.advertised)),
    exactEdge(row.advertised),
    fraction(ratioToNumber(row.theory.edge)),
    exactEdge(row.theory.edge),
    significant(row.theory.sigma),
    String(row.interval.bets),
    fraction(row.interval.edge),
    fraction(row.interval.low),
    fraction(row.interval.high),
    significant(row.interval.sigma),
    row.judgement.reference,
    row.judgement.verdict,
    row.judgement.model,
    neededText(row.judgement.betsNeeded, false),
    ratioText(row.theory.topMultiplier),
    ratioText(row.theory.topProbability),
    row.jackpotExpectedHits.toFixed(6),
    String(row.jackpotHits),
  ]);
  return stringify(rows, { header: true, columns: CSV_COLUMNS, record_delimiter: '\n' });
}

/** A number for JSON: rounded with toFixed/toPrecision so its text is the same everywhere. */
const rounded = (value: number): number => {
  const result = Number(value.toFixed(10));
  return result === 0 ? 0 : result;
};

function rowJson(row: EdgeRow): object {
  return {
    game: row.game,
    variant: row.variant,
    advertised_text: row.advertisedText,
    advertised_edge: row.advertised === null ? null : rounded(ratioToNumber(row.advertised)),
    advertised_edge_exact: row.advertised === null ? null : ratioText(row.advertised),
    theoretical_edge: rounded(ratioToNumber(row.theory.edge)),
    theoretical_edge_exact: ratioText(row.theory.edge),
    theoretical_sigma: Number(significant(row.theory.sigma)),
    bets: row.interval.bets,
    empirical_edge: rounded(row.interval.edge),
    interval: [rounded(row.interval.low), rounded(row.interval.high)],
    sigma: Number(significant(row.interval.sigma)),
    reference: row.judgement.reference,
    verdict: row.judgement.verdict,
    model: row.judgement.model,
    bets_needed: neededNumber(row.judgement.betsNeeded),
    jackpot: {
      multiplier: ratioText(row.theory.topMultiplier),
      probability: ratioText(row.theory.topProbability),
      expected_hits: rounded(row.jackpotExpectedHits),
      hits: row.jackpotHits,
    },
    points: row.points.map((point) => ({
      bets: point.bets,
      edge: rounded(point.edge),
      low: rounded(point.low),
      high: rounded(point.high),
    })),
  };
}

/** The JSON object (`--json` prints it with 2-space indent and a final newline: renderEdgeJson). */
export function edgeJson(simulation: EdgeSimulation): object {
  return {
    seed: simulation.seed,
    bets_per_game: simulation.betsPerGame,
    confidence: CONFIDENCE_LEVEL,
    rows: simulation.rows.map(rowJson),
  };
}

export function renderEdgeJson(simulation: EdgeSimulation): string {
  return jsonDocument(edgeJson(simulation));
}
