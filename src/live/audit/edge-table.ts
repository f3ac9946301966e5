/**
 * The live house-edge audit's result as a text table, CSV and JSON: one row per variant with the
 * bets placed and verified, whether the outcomes followed the target's rule, the exact edge of that
 * rule, the advertised edge, the empirical edge with its 99% interval, the verdict and how many
 * bets it rests on. Pure and byte-stable: fixed number formats, rows in plan order.
 */
import { stringify } from 'csv-stringify/sync';
import { isDocumentsOwn, type EdgeAuditResult, type VariantOutcome } from './edge-audit.ts';

const percent = (value: number | null): string => (value === null ? '—' : `${(value * 100).toFixed(3)}%`);

function interval(outcome: VariantOutcome): string {
  const found = outcome.verdict.interval;
  return found === null ? '—' : `${percent(found.edge)} [${percent(found.low)}, ${percent(found.high)}]`;
}

export function verdictText(outcome: VariantOutcome): string {
  const { verdict } = outcome;
  if (outcome.verified === 0) return 'not verified';
  if (outcome.followedRule < outcome.verified) return `${outcome.verified - outcome.followedRule} bets break the rule`;
  const rule = verdict.rule === 'matches' ? 'matches advertised' : verdict.rule === 'differs' ? (isDocumentsOwn(outcome) ? "documents' own table; advertised differs" : `differs from advertised (${verdict.ruleSeverity ?? 'minor'})`) : verdict.advertised === null ? 'no advertised edge' : 'undecided';
  return verdict.empirical === 'differs' ? `${rule}; returns differ from the law` : rule;
}

interface Row {
  readonly game: string;
  readonly variant: string;
  readonly placed: number;
  readonly verified: number;
  readonly followed: number;
  readonly exact: string;
  readonly advertised: string;
  readonly empirical: string;
  readonly verdict: string;
  readonly restsOn: number;
  readonly sprt: string;
}

function rowsOf(result: EdgeAuditResult): Row[] {
  return result.variants.map((outcome) => ({
    game: outcome.variant.game,
    variant: outcome.variant.variant,
    placed: outcome.placed,
    verified: outcome.verified,
    followed: outcome.followedRule,
    exact: percent(outcome.verdict.exactEdge),
    advertised: outcome.verdict.advertised === null ? '—' : `${outcome.verdict.advertised.text}`,
    empirical: interval(outcome),
    verdict: verdictText(outcome),
    restsOn: outcome.verdict.restsOnBets,
    sprt: outcome.sprt === null ? '—' : `${outcome.sprt.decision}${outcome.sprt.direction === null ? '' : ` (${outcome.sprt.direction})`} @${outcome.sprt.bets}`,
  }));
}

const HEADERS = ['game', 'variant', 'bets', 'verified', 'followed rule', 'exact edge', 'advertised', 'empirical edge [99%]', 'verdict', 'rests on bets', 'sprt vs rule'];

export function renderEdgeAuditTable(result: EdgeAuditResult): string {
  const cells = rowsOf(result).map((row) => [row.game, row.variant, String(row.placed), String(row.verified), String(row.followed), row.exact, row.advertised, row.empirical, row.verdict, String(row.restsOn), row.sprt]);
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...cells.map((line) => (line[column] ?? '').length)));
  const line = (values: readonly string[]): string => values.map((value, column) => value.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return [line(HEADERS), ...cells.map(line)].join('\n') + '\n';
}

export function renderEdgeAuditCsv(result: EdgeAuditResult): string {
  const rows = rowsOf(result).map((row) => [row.game, row.variant, row.placed, row.verified, row.followed, row.exact, row.advertised, row.empirical, row.verdict, row.restsOn, row.sprt]);
  return stringify([HEADERS, ...rows]);
}

export function renderEdgeAuditJson(result: EdgeAuditResult, header: Readonly<Record<string, string>>): string {
  const variants = result.variants.map((outcome) => ({
    game: outcome.variant.game,
    variant: outcome.variant.variant,
    params: outcome.variant.params,
    placed: outcome.placed,
    verified: outcome.verified,
    followed_rule: outcome.followedRule,
    refused: outcome.refused,
    exact_edge: outcome.verdict.exactEdge,
    advertised_edge: outcome.verdict.advertised?.edge ?? null,
    advertised_text: outcome.verdict.advertised?.text ?? null,
    empirical_edge: outcome.verdict.interval?.edge ?? null,
    interval_99: outcome.verdict.interval === null ? null : [outcome.verdict.interval.low, outcome.verdict.interval.high],
    rule: outcome.verdict.rule,
    rule_severity: outcome.verdict.ruleSeverity,
    empirical: outcome.verdict.empirical,
    rests_on_bets: outcome.verdict.restsOnBets,
    sprt: outcome.sprt === null ? null : { decision: outcome.sprt.decision, direction: outcome.sprt.direction, bets: outcome.sprt.bets },
    verdict: verdictText(outcome),
  }));
  return `${JSON.stringify({ ...header, placed: result.placed, verified: result.verified, refused: result.refused, stopped_by: result.stoppedBy, variants }, null, 2)}\n`;
}
