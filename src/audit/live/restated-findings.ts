/**
 * `rule:<variant>:restated` (minor) and `rule:<game>:draw` (info, or minor where the draw is not the one stated): the rule a variant's answers state where its bets left the
 * published one (FairnessScheme.restate: a payout knob read from the shown multipliers, won or
 * lost, or from a stated chance, that every kept bet follows). Why a finding: the target changed a
 * published rule and says so in its answers; the change itself is a rule difference a client must
 * know of (minor), while what it costs is graded by the edge against the target's own word
 * (edge-findings.ts). The evidence names the rule, the bets that follow it and both exact edges.
 */
import { withEvidence, type EvidenceDefaults } from '../../live.ts';
import type { FindingsCollector } from '../../report/findings/finding.ts';
import type { FairnessScheme } from '../fairness/scheme.ts';
import { edgePercentText } from './edge-percent.ts';
import { lawEdge } from './edge-verdict.ts';
import type { VariantOutcome } from './variant-outcome.ts';

export function recordRestatedRules(
  collector: FindingsCollector,
  variants: readonly VariantOutcome[],
  scheme: FairnessScheme,
): void {
  const games = new Set<string>();
  for (const outcome of variants) {
    recordRestated(collector, outcome, scheme);
    if (!games.has(outcome.variant.game)) recordDraw(collector, outcome);
    games.add(outcome.variant.game);
  }
}

/** `rule:<game>:draw`: the draw the game's answers show, info where it is the one they state, minor where not. */
function recordDraw(collector: FindingsCollector, outcome: VariantOutcome): void {
  const draw = outcome.draw ?? null;
  if (draw === null) return;
  const game = outcome.variant.game;
  withEvidence(collector, sampleEvidence(outcome)).add({
    id: `rule:${game}:draw`,
    severity: draw.asStated ? 'info' : 'minor',
    kind: 'rule',
    title: `${game}: the draw its answers show: ${draw.summary}${draw.asStated ? '' : ` (its answers and documents state ${draw.expected})`}`,
    field: 'result.drawn',
    expected: draw.expected,
    seen: draw.summary,
    evidence: `the drawn numbers of every kept verified bet of ${game}, over its variants`,
  });
}

/** A variant's first verified bet as the evidence of an aggregate finding, said so. */
function sampleEvidence(outcome: VariantOutcome): EvidenceDefaults {
  const sample = outcome.sample;
  return sample === null
    ? {}
    : {
        endpoint: sample.endpoint,
        ...(sample.reproduce === undefined ? {} : { reproduce: sample.reproduce }),
        note: `bet ${sample.betId}'s request, a representative of the ${outcome.verified} verified bets of ${outcome.variant.variant} (an aggregate finding; sent again, it places a new bet)`,
      };
}

function recordRestated(collector: FindingsCollector, outcome: VariantOutcome, scheme: FairnessScheme): void {
  const restated = outcome.restated ?? null;
  if (restated === null) return;
  const { variant } = outcome;
  // The variant's first verified bet stands for the rule its bets follow (an aggregate finding).
  const findings = withEvidence(collector, sampleEvidence(outcome));
  const published = scheme.law(variant.game, variant.params);
  const exact = lawEdge(restated.law);
  const was = published === null ? '' : `; the published rule gives ${edgePercentText(lawEdge(published))}`;
  findings.add({
    id: `rule:${variant.variant}:restated`,
    severity: 'minor',
    kind: 'rule',
    title: `${variant.variant}: the answers state a rule of their own (${restated.text}): exact edge ${edgePercentText(exact)}${was}`,
    field: 'payout_multiplier',
    expected: `the ${scheme.name} documents' rule`,
    seen: restated.text,
    evidence: `all ${restated.bets} kept verified bets replay under ${restated.text} (outcome, shown multiplier won or lost, credit); the edge is that rule's exact law, not a sample`,
  });
}
