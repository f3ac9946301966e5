/**
 * The target's words held against each other and against what it paid (listed-words.ts,
 * variant-outcome.ts): where the words come from the target, a disagreement between them is a
 * finding of its own, whatever afp thinks the rule is.
 *   - `edge:<game>:words`: its answers state one edge (`house_edge_pct`) and its game list another,
 *     beyond the tolerance either text allows (minor: a client cannot tell which to believe);
 *   - `edge:<variant>:payout-words`: its list says a variant pays one multiplier ("1.96x") and every
 *     won bet was paid another (1.99). Minor where the variant is also held to an edge word (the
 *     edge finding grades what the difference costs) or where it pays more than the list says;
 *     else paying less costs the player P(win) × the difference per unit staked, graded as an edge
 *     that far above the advertised one (edge-verdict.ts ruleSeverity);
 *   - `edge:list:unread` (info): the list's words afp could not read, quoted, never guessed.
 * Why findings of their own: DEPLOYED.md §2.1 makes the list the deployment's advertisement, and a
 * coin flip listed at "1.96x" and paid 1.99 contradicts itself whatever its true edge.
 * Limits: one finding per game for the edge words; a payout is compared only where the won bets
 * were paid one multiplier (several: the list's single figure speaks for none of them).
 */
import { ratioToNumber } from '../../core/ratio.ts';
import { withEvidence, type FindingSink } from '../../live.ts';
import type { FindingsCollector } from '../../report/findings/finding.ts';
import type { FairnessScheme } from '../fairness/scheme.ts';
import { advertisedTolerance, ruleSeverity, type AdvertisedEdge } from './edge-verdict.ts';
import { edgePercentText } from './edge-percent.ts';
import { payingChance } from './stated-chance.ts';
import { listedSource, unreadWords, type ListedWords } from './listed-words.ts';
import type { VariantOutcome } from './variant-outcome.ts';

export function recordListedFindings(
  collector: FindingsCollector,
  variants: readonly VariantOutcome[],
  listed: ListedWords | null,
  scheme: FairnessScheme,
): void {
  if (listed === null) return;
  const findings = withEvidence(collector, listed.evidence);
  const games = new Set<string>();
  for (const outcome of variants) {
    if (!games.has(outcome.variant.game)) recordEdgeWords(findings, outcome);
    games.add(outcome.variant.game);
    recordPayoutWords(findings, outcome, scheme);
  }
  const unread = unreadWords(listed, games);
  if (unread.length > 0)
    findings.add({
      id: 'edge:list:unread',
      severity: 'info',
      kind: 'edge',
      title: `the game list's words for ${unread.length} field(s) are not one figure afp reads (quoted, not judged)`,
      field: 'games',
      expected: null,
      seen: unread.slice(0, 8).join('; '),
      evidence: `${unread.join('; ')}. A house_edge is read as one percentage or "Key N% | Key N%"; a payout as one multiplier or "e.g." examples naming their variants`,
    });
}

const tolerance = (word: AdvertisedEdge): number => word.tolerance ?? advertisedTolerance(word.text);

function recordEdgeWords(findings: FindingSink, outcome: VariantOutcome): void {
  const words = outcome.words;
  if (words === undefined || words.answers === null || words.list === null) return;
  const { answers, list } = words;
  if (Math.abs(answers.edge - list.edge) <= Math.max(tolerance(answers), tolerance(list))) return;
  const game = outcome.variant.game;
  findings.add({
    id: `edge:${game}:words`,
    severity: 'minor',
    kind: 'edge',
    title: `${game}: the target's own words disagree: its answers state ${edgePercentText(answers.edge)}, its game list ${list.text}`,
    field: 'house_edge',
    expected: list.text,
    seen: answers.text,
    evidence: `${outcome.variant.variant}'s answers against the game list read before the bets; neither is afp's figure`,
  });
}

/** Half a unit of the multiplier's last written digit ("1.96x": 0.005). */
function payoutTolerance(text: string): number {
  const places = /\d+\.(\d+)\s*[x×]/i.exec(text)?.[1]?.length ?? 0;
  return 0.5 * 10 ** -places;
}

function recordPayoutWords(findings: FindingSink, outcome: VariantOutcome, scheme: FairnessScheme): void {
  const words = outcome.words;
  const stated = words?.listPayout ?? null;
  if (words === undefined || stated === null || words.paid.multipliers.size !== 1) return;

  const paid = [...words.paid.multipliers.values()][0];
  if (paid === undefined) return;
  const paidValue = ratioToNumber(paid.multiplier);
  if (Math.abs(paidValue - stated.multiplier) <= payoutTolerance(stated.text) + 1e-12) return;
  const law = scheme.law(outcome.variant.game, outcome.variant.params);
  const chance = law === null ? null : payingChance(law);
  const cost = chance === null ? null : chance * (stated.multiplier - paidValue);
  // Where an edge word is held too, the edge finding grades what the payout costs: this one is the contradiction.
  const severity = cost === null || cost <= 0 || outcome.verdict.advertised !== null ? 'minor' : ruleSeverity(cost, 0);
  const name = outcome.variant.variant;
  findings.add({
    id: `edge:${name}:payout-words`,
    severity,
    kind: 'edge',
    title: `${name}: the game list says it pays ${stated.multiplier}x; its ${paid.count} won bet(s) were paid ${paidValue}x`,
    field: 'payout',
    expected: `${stated.multiplier}x (${listedSource('payout', stated.text)})`,
    seen: `${paidValue}x`,
    evidence: `every won bet of ${name} was credited ${paidValue} × its stake${cost === null ? '' : `; at the chance of a win its rule gives (${chance?.toFixed(6)}), the list's figure ${cost > 0 ? 'gives the player' : 'costs the house'} ${edgePercentText(Math.abs(cost))} of every stake ${cost > 0 ? 'more than was paid' : 'less than it pays'}`}`,
  });
}
