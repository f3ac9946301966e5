/**
 * The live house-edge verdicts as findings:
 *   - `edge:<variant>`: the target's own rule does not give the advertised edge (severity from
 *     edge-verdict.ts: critical for a negative edge or 10 points over, major from 1 point);
 *   - `fairness:<variant>:returns`: the returns paid do not follow the rule's exact law beyond
 *     chance (99.9%), though every bet verified one by one — a sign of selection, not of a bad hash;
 *   - `rule:<variant>:documents`: the target's rule and the documents' payout table give different
 *     exact edges (info: a documented difference between dialects, never a defect by itself).
 * Each says how many bets it rests on.
 */
import { lawEdge } from './edge-verdict.ts';
import type { EdgeAuditResult } from './edge-audit.ts';
import type { FindingsCollector } from '../finding.ts';
import type { FairnessScheme } from '../fairness/scheme.ts';
import { findGame } from '../../services/casino/games/index.ts';

const percent = (value: number): string => `${(value * 100).toFixed(3)}%`;
const NEGLIGIBLE = 1e-9;

function documentsEdge(game: string, params: Readonly<Record<string, unknown>>): number | null {
  const module = findGame(game);
  const parsed = module?.parse(params);
  if (module === undefined || parsed === undefined || !parsed.ok) return null;
  return lawEdge(module.distribution(parsed.value));
}

export function recordEdgeFindings(findings: FindingsCollector, result: EdgeAuditResult, scheme: FairnessScheme): void {
  for (const outcome of result.variants) {
    const { variant, verdict } = outcome;
    const name = variant.variant;
    if (verdict.rule === 'differs' && verdict.advertised !== null) {
      const seen = verdict.exactEdge ?? verdict.interval?.edge ?? null;
      const how = verdict.exactEdge !== null ? `the exact edge of the target's rule (${scheme.name} scheme), which ${verdict.restsOnBets} verified bets followed` : `the empirical edge over ${verdict.restsOnBets} bets, outside its 99.9% interval`;
      findings.add({
        id: `edge:${name}`, severity: verdict.ruleSeverity ?? 'minor', kind: 'edge',
        title: `${name}: edge ${seen === null ? '?' : percent(seen)} where ${verdict.advertised.text} is advertised`,
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
    const law = scheme.law(variant.game, variant.params);
    const documents = documentsEdge(variant.game, variant.params);
    if (law !== null && documents !== null && Math.abs(lawEdge(law) - documents) > NEGLIGIBLE) {
      findings.add({
        id: `rule:${name}:documents`, severity: 'info', kind: 'rule',
        title: `${name}: the target's rule gives an edge of ${percent(lawEdge(law))}; the documents' payout table ${percent(documents)}`,
        expected: percent(documents), seen: percent(lawEdge(law)),
        evidence: `exact laws: the ${scheme.name} scheme's rule against the documents' (casino.md) table`,
      });
    }
  }
}
