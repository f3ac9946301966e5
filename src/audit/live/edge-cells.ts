/**
 * One row of the live house-edge audit's per-variant edge table as text cells, built once here and
 * shown by all four outputs (the terminal's table, edges.csv's `shown_*` columns, edges.json's
 * `shown` object and findings.html's edge table), so they cannot disagree on a figure or a word.
 * Why a file of its own: the words an edge is stated with are the audit's promise to its reader,
 * and an empirical edge is never a bare point that reads as a verdict:
 *   - with a bound on the returns (edge-verdict.ts), its interval at any number of bets, and
 *     "undecided" until MIN_EMPIRICAL_BETS bets and a 99.9% interval that excludes the word
 *     ("undecided (22 of 30 bets)");
 *   - without one (no published law), the point with "no bound: decides nothing" as its verdict
 *     (the sample's interval beside it from MIN_EMPIRICAL_BETS bets on, for information).
 * The verdict cell puts the decision first; `detail` is the full verdict, edges.csv's and
 * edges.json's `verdict`.
 * Pure and byte-stable: fixed number formats (percent with 3 decimals), no clock.
 */
import { MIN_EMPIRICAL_BETS, shownInterval, type VariantVerdict } from './edge-verdict.ts';
import { edgePercentText as edgePercent } from './edge-percent.ts';
import { isDocumentsOwn, type VariantOutcome } from './variant-outcome.ts';

export interface EdgeCells {
  readonly game: string;
  /** The variant without its game's prefix ("coin_flip:heads" → "heads"; "wheel" → "—"). */
  readonly variant: string;
  /** edge_source: published, observed or empirical. */
  readonly source: string;
  /** The edge stated in the tier, a point ("—" where nothing supports one). */
  readonly edge: string;
  /** "exact" (one point), "[low, high]" (observed bounds, the empirical 99% interval), "none", or why there is none. */
  readonly interval: string;
  /** placed/verified/followed the rule. */
  readonly bets: string;
  /** The word it is held to as a figure, "(own)" from the target's answers, "(list)" from its game list, "(documents)". */
  readonly advertised: string;
  /** The word as the target (or the documents) wrote it, and where it was read. */
  readonly word: string;
  /** The verdict in a few words, the decision first. */
  readonly verdict: string;
  /** The verdict in full. */
  readonly detail: string;
}

/** Every cell, in the order the HTML shows them; the terminal shows all but `word` and `detail`. */
export const EDGE_CELL_KEYS = [
  'game',
  'variant',
  'source',
  'edge',
  'interval',
  'bets',
  'advertised',
  'word',
  'verdict',
  'detail',
] as const satisfies readonly (keyof EdgeCells)[];

/** What an empirical edge without a bound on its returns says beside its point. */
export const NO_BOUND = 'no bound: decides nothing';

const percent = (value: number | null): string => (value === null ? '—' : edgePercent(value));
const bracket = (range: readonly [number, number]): string => `[${percent(range[0])}, ${percent(range[1])}]`;

export function edgeCells(outcome: VariantOutcome): EdgeCells {
  return {
    game: outcome.variant.game,
    variant: variantPart(outcome),
    source: outcome.verdict.edgeSource,
    edge: percent(outcome.verdict.statedEdge),
    interval: intervalText(outcome.verdict),
    bets: `${outcome.placed}/${outcome.verified}/${outcome.followedRule}`,
    advertised: advertisedText(outcome),
    word: wordText(outcome),
    verdict: shortVerdictText(outcome),
    detail: liveVerdictText(outcome),
  };
}

/** The stated edge with its interval in one phrase ("2.000%", "9.091% [-81.818%, 90.909%]"), for one-line texts. */
export function statedText(outcome: VariantOutcome): string {
  const cells = edgeCells(outcome);
  return cells.interval === 'exact' || cells.edge === '—' ? cells.edge : `${cells.edge} ${cells.interval}`;
}

function variantPart(outcome: VariantOutcome): string {
  const name = outcome.variant.variant;
  if (name.startsWith(`${outcome.variant.game}:`)) return name.slice(outcome.variant.game.length + 1);
  return name === outcome.variant.game ? '—' : name;
}

/** An empirical variant's returns have no bound (no published law): its interval, if any, is the sample's and decides nothing. */
function unbounded(verdict: VariantVerdict): boolean {
  return verdict.edgeSource === 'empirical' && verdict.interval !== null && verdict.returnBound === null;
}

function intervalText(verdict: VariantVerdict): string {
  if (verdict.edgeSource === 'empirical' && verdict.interval === null) return 'none: fewer than 2 bets';
  if (unbounded(verdict)) {
    const sample = shownInterval(verdict.interval);
    return sample === null ? 'none (no bound)' : `${bracket(sample)} sample's (no bound)`;
  }
  const range = verdict.statedRange;
  if (range === null) return 'none';
  return range[0] === range[1] ? 'exact' : bracket(range);
}

/** Whose word the advertised edge is: `own` (the target's answers), `list` (its game list), or the documents'. */
function wordSource(outcome: VariantOutcome): 'own' | 'list' | 'documents' | null {
  if (outcome.verdict.advertised === null || outcome.advertisedBy === null) return null;
  if (outcome.advertisedBy === 'documents') return 'documents';
  return outcome.words !== undefined && outcome.words.answers === null ? 'list' : 'own';
}

function advertisedText(outcome: VariantOutcome): string {
  const advertised = outcome.verdict.advertised;
  if (advertised === null) return '—';
  const source = wordSource(outcome);
  return `${percent(advertised.edge)}${source === null ? '' : ` (${source})`}`;
}

/** The word as written, with where it was read: the target's text names its field and request; the documents' says so. */
function wordText(outcome: VariantOutcome): string {
  const advertised = outcome.verdict.advertised;
  if (advertised === null) return '—';
  return wordSource(outcome) === 'documents' ? `${advertised.text} (the documents')` : advertised.text;
}

/** Why an advertised edge is neither matched nor contradicted: too few bets, or an interval that holds it. */
function undecided(verdict: VariantVerdict, length: 'full' | 'short'): string {
  const bets = verdict.interval?.bets ?? verdict.restsOnBets;
  if (verdict.edgeSource === 'empirical' && bets < MIN_EMPIRICAL_BETS)
    return length === 'short'
      ? `undecided (${bets} of ${MIN_EMPIRICAL_BETS} bets)`
      : `undecided: ${bets} bets, a verdict from returns needs ${MIN_EMPIRICAL_BETS}`;
  if (length === 'short' || verdict.statedRange === null) return 'undecided';
  return `undecided: its ${verdict.edgeSource === 'empirical' ? 'interval' : 'range'} holds the advertised edge`;
}

/** The decision: the rule's part of a verdict, in full (CSV, JSON, HTML's detail) or short (every verdict cell). */
function ruleText(outcome: VariantOutcome, length: 'full' | 'short'): string {
  const { verdict } = outcome;
  const full = length === 'full';
  if (unbounded(verdict)) return NO_BOUND;
  if (verdict.rule === 'matches') return 'matches advertised';
  if (verdict.rule === 'differs') {
    if (isDocumentsOwn(outcome)) return full ? "documents' own table; advertised differs" : "documents' own table";
    return `${full ? 'differs from advertised' : 'differs'} (${verdict.ruleSeverity ?? 'minor'})`;
  }
  if (verdict.advertised !== null) return undecided(verdict, length);
  const statesNone = !full && outcome.advertisedBy === null && outcome.variant.advertised !== null;
  return statesNone ? 'states no edge' : 'no advertised edge';
}

/** The verdict in full: why the edge is in its tier, then the decision. */
export function liveVerdictText(outcome: VariantOutcome): string {
  const { verdict } = outcome;
  if (outcome.verified === 0) return 'not verified';
  const rule = ruleText(outcome, 'full');
  switch (verdict.edgeSource) {
    case 'published':
      return verdict.empirical === 'differs' ? `${rule}; returns differ from the law` : rule;
    case 'observed': {
      const why =
        outcome.restated === null || outcome.restated === undefined
          ? 'payouts differ from the published table'
          : `the answers state a rule of their own (${outcome.restated.text})`;
      return `${why}; ${rule}${verdict.empirical === 'differs' ? '; returns differ from the table' : ''}`;
    }
    case 'empirical':
      return outcome.brokeMapping > 0
        ? `${outcome.brokeMapping} bets off the published mapping; ${rule}`
        : verdict.cause === 'not-replayed'
          ? `not replayed; ${rule}`
          : `rule differs from the published scheme; ${rule}`;
  }
}

/** The verdict in a few words, the decision first (the terminal cuts the end of a long one). */
function shortVerdictText(outcome: VariantOutcome): string {
  const { verdict } = outcome;
  if (outcome.verified === 0) return 'not verified';
  const rule = ruleText(outcome, 'short');
  switch (verdict.edgeSource) {
    case 'published':
      return verdict.empirical === 'differs' ? `${rule}; returns differ` : rule;
    case 'observed':
      return `${rule}; payouts changed`;
    case 'empirical':
      return outcome.brokeMapping > 0
        ? `${rule}; ${outcome.brokeMapping} off mapping`
        : verdict.cause === 'not-replayed'
          ? `${rule}; not replayed`
          : `${rule}; payouts mixed`;
  }
}
