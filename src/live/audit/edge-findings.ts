/**
 * The live house-edge verdicts as findings:
 *   - `edge:<variant>`: the target's own rule does not give the advertised edge (severity from
 *     edge-verdict.ts: critical for a negative edge or 10 points over, major from 1 point; info
 *     when the rule is the documents' own payout table, whose edge the documents misstate);
 *   - `fairness:<variant>:returns`: the returns paid do not follow the rule's exact law beyond
 *     chance (99.9%), though every bet verified one by one — a sign of selection, not of a bad hash;
 *   - `fairness:<variant>:returns-sprt`: the SPRT finds the returns a point of edge off the rule's
 *     law (fine differences the interval cannot decide within the bets);
 *   - `rule:<variant>:documents`: the target's rule and the documents' payout table give different
 *     exact edges (info: a documented difference between dialects, never a defect by itself).
 * Each says how many bets it rests on.
 */
import { lawEdge } from './edge-verdict.ts';
import { isDocumentsOwn, type EdgeAuditResult } from './edge-audit.ts';
import type { FindingsCollector } from '../finding.ts';
import type { FairnessScheme } from '../fairness/scheme.ts';
import { documentsEdgeOf } from './edge-plan.ts';
import type { JsonObject } from '../../core/errors.ts';

const percent = (value: number): string => `${(value * 100).toFixed(3)}%`;
const NEGLIGIBLE = 1e-9;

export function recordEdgeFindings(findings: FindingsCollector, result: EdgeAuditResult, scheme: FairnessScheme): void {
  for (const outcome of result.variants) {
    const { variant, verdict } = outcome;
    const name = variant.variant;
    const documents = variant.documentsEdge;
    if (verdict.rule === 'differs' && verdict.advertised !== null) {
      const seen = verdict.exactEdge ?? verdict.interval?.edge ?? null;
      const how = verdict.exactEdge !== null ? `the exact edge of the target's rule (${scheme.name} scheme), which ${verdict.restsOnBets} verified bets followed` : `the empirical edge over ${verdict.restsOnBets} bets, outside its 99.9% interval`;
      // The target plays the documents' own payout table, whose edge is not the one they advertise:
      // a contradiction inside the documents (docs/decisions/live-and-audit.md), not a defect of the target.
      const documentsOwn = isDocumentsOwn(outcome);
      findings.add({
        id: `edge:${name}`, severity: documentsOwn ? 'info' : (verdict.ruleSeverity ?? 'minor'), kind: 'edge',
        title: `${name}: edge ${seen === null ? '?' : percent(seen)} where ${verdict.advertised.text} is advertised${documentsOwn ? " (the documents' own payout table gives it)" : ''}`,
        expected: verdict.advertised.text, seen: seen === null ? null : percent(seen),
        evidence: `${how}; rests on ${verdict.restsOnBets} bets`,
      });
    }
    if (verdict.exactEdge !== null && verdict.empirical === 'differs' && verdict.interval !== null) {
      findings.add({
        id: `fairness:${name}:returns`, severity: 'major', kind: 'fairness',
        title: `${name}: the returns paid do not follow the rule's law (empirical ${percent(verdict.interval.edge)}, exact ${percent(verdict.exactEdge)})`,
        expected: percent(verdict.exactEdge), seen: `${percent(verdict.interval.edge)} [${percent(verdict.interval.low)}, ${percent(verdict.interval.high)}]`,
        evidence: `${verdict.interval.bets} bets, each verified alone; beyond a 99.9% interval`,
      });
    }
    if (outcome.sprt !== null && outcome.sprt.decision === 'accept-h1' && verdict.exactEdge !== null) {
      findings.add({
        id: `fairness:${name}:returns-sprt`, severity: 'major', kind: 'fairness',
        title: `${name}: the returns paid put the edge a point ${outcome.sprt.direction === 'lower' ? 'below' : 'above'} the rule's exact ${percent(verdict.exactEdge)} (SPRT)`,
        expected: percent(verdict.exactEdge), seen: `${outcome.sprt.direction === 'lower' ? '≤' : '≥'} ${percent(verdict.exactEdge + (outcome.sprt.direction === 'lower' ? -0.01 : 0.01))}`,
        evidence: `Wald's SPRT (two-sided, δ = 1 point, α = β = 1%) decided after ${outcome.sprt.bets} verified bets`,
      });
    }
    recordDocumentsDifference(findings, scheme, { game: variant.game, params: variant.params, variant: name, documentsEdge: documents });
  }
}

export interface PlayedVariant {
  readonly game: string;
  readonly params: JsonObject;
  readonly variant: string;
  /** The documents' exact edge when already known (edge-plan.ts); computed when absent. */
  readonly documentsEdge?: number | null;
}

/**
 * `rule:<variant>:documents` (info) when the scheme's rule and the documents' payout table give
 * different exact edges for the variant; nothing when either has no law. Returns whether it did.
 */
export function recordDocumentsDifference(findings: FindingsCollector, scheme: FairnessScheme, played: PlayedVariant): boolean {
  const documents = played.documentsEdge === undefined ? documentsEdgeOf(played.game, played.params, played.variant) : played.documentsEdge;
  const law = documents === null ? null : scheme.law(played.game, played.params);
  if (law === null || documents === null || Math.abs(lawEdge(law) - documents) <= NEGLIGIBLE) return false;
  findings.add({
    id: `rule:${played.variant}:documents`, severity: 'info', kind: 'rule',
    title: `${played.variant}: the target's rule gives an edge of ${percent(lawEdge(law))}; the documents' payout table ${percent(documents)}`,
    expected: percent(documents), seen: percent(lawEdge(law)),
    evidence: `exact laws: the ${scheme.name} scheme's rule against the documents' (casino.md) table`,
  });
  return true;
}
