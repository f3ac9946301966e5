/**
 * The live house-edge verdicts as findings, one per rule and cause, each with its count, up to
 * three examples, and the bets it rests on, in the variant's tier (edge-tier.ts):
 *   - `rule:<game>:scheme`: the target's rule for the game differs from its published scheme
 *     (outcomes off the draw mapping, or one published outcome paid two ways): ONE finding per game,
 *     counted in bets, with examples; major on afp's scheme (the documents' rule is its own
 *     advertisement); on any other, minor while the empirical edge is consistent with what the
 *     target advertises (or it advertises nothing), else the edge finding's severity; at least
 *     major where a bet's answer contradicts itself (its result states a win its `won` flag
 *     denies: no changed rule explains it), as the fairness audit's rule:<game>:outcome;
 *   - `rule:<variant>:payouts`: the mapping holds but the target pays another table than the one
 *     published for it; states the exact edge of the observed table beside the published rule's;
 *     major on afp's scheme, minor on any other (a changed rule is no defect by itself there: the
 *     edge finding judges the edge against the target's own word);
 *   - `edge:<variant>`: the edge stated in the variant's tier contradicts the target's OWN
 *     advertisement (severity from edge-verdict.ts): the documents' figures for afp's scheme (info
 *     when it is the documents' own payout table, whose edge the documents misstate), the edge its
 *     answers state for any other (the deployment's `house_edge_pct`). On such a target a measured
 *     edge that differs only from the documents' figure is info stating both, minor when it is
 *     gross (the house loses, or keeps half of every stake or more): a finding never rests on
 *     afp's assumption about a rule the target may have changed;
 *   - `fairness:<variant>:returns`: the returns paid do not follow the stated exact law beyond
 *     chance (99.9%), though every bet verified one by one — a sign of selection, not of a bad hash;
 *   - `fairness:<variant>:returns-sprt`: the SPRT finds the returns a point of edge off the
 *     published rule's law (published tier only);
 *   - `rule:<variant>:documents`: the scheme's rule and the documents' payout table give different
 *     exact edges (info; not for an empirical variant, whose published rule says nothing).
 * Evidence: a finding about many bets names no request of its own, so it takes a representative:
 * the variant's first verified bet (a scheme difference: the first bet off the mapping), its
 * endpoint and curl, and its evidence says which bet that is (evidenced-findings.ts).
 */
import { advertisedTolerance, edgeLowBound, lawEdge, MIN_EMPIRICAL_BETS, type VariantVerdict } from './edge-verdict.ts';
import { withEvidence, type EvidenceDefaults, type FindingSink } from '../../live.ts';
import type { Severity, FindingsCollector } from '../../report/findings/finding.ts';
import type { EdgeAuditResult } from './edge-audit.ts';
import { isDocumentsOwn, type VariantOutcome } from './variant-outcome.ts';
import type { FairnessScheme } from '../fairness/scheme.ts';
import { documentsEdgeOf } from './edge-plan.ts';
import type { JsonObject } from '../../core/errors.ts';
import { ratioDecimal } from './edge-tier.ts';
import type { ObservedTable } from './observed-table.ts';
import { recordStatedChance } from './stated-chance.ts';
import { edgePercentText } from './edge-percent.ts';
import { NO_BOUND, statedText } from './edge-cells.ts';

const NEGLIGIBLE = 1e-9;
const MAX_EXAMPLES = 3;

export function recordEdgeFindings(
  collector: FindingsCollector,
  result: EdgeAuditResult,
  scheme: FairnessScheme,
): void {
  recordSchemeDifferences(collector, result, scheme);
  for (const outcome of result.variants) {
    const { variant, verdict } = outcome;
    // A variant's findings rest on many bets: where one names no request of its own, the
    // variant's first verified bet stands for them, and its evidence says so.
    const findings = sampled(collector, outcome);
    const name = variant.variant;
    if (verdict.edgeSource === 'observed' && verdict.observed !== null)
      recordPayoutTable(findings, outcome, verdict.observed, scheme);
    // A stated chance is judged against the published rule only where the bets followed it.
    if (verdict.edgeSource === 'published')
      recordStatedChance(findings, {
        variant: name,
        stated: outcome.statedChance ?? null,
        law: scheme.law(variant.game, variant.params),
        verified: outcome.verified,
      });
    if (verdict.rule === 'differs' && verdict.advertised !== null) recordEdge(findings, outcome, scheme);
    else if (outcome.advertisedBy !== 'documents') recordDocumentsEdge(findings, outcome, scheme);
    if (
      verdict.exactEdge !== null &&
      verdict.empirical === 'differs' &&
      verdict.interval !== null &&
      verdict.edgeSource !== 'empirical'
    ) {
      findings.add({
        id: `fairness:${name}:returns`,
        severity: 'major',
        kind: 'fairness',
        title: `${name}: the returns paid do not follow the ${verdict.edgeSource} rule's law (empirical ${edgePercentText(verdict.interval.edge)} [${edgePercentText(verdict.interval.low)}, ${edgePercentText(verdict.interval.high)}], exact ${edgePercentText(verdict.exactEdge)})`,
        expected: edgePercentText(verdict.exactEdge),
        seen: `${edgePercentText(verdict.interval.edge)} [${edgePercentText(verdict.interval.low)}, ${edgePercentText(verdict.interval.high)}]`,
        evidence: `${verdict.interval.bets} bets, each verified alone; beyond a ${levelText(verdict)} interval`,
      });
    }
    if (outcome.sprt !== null && outcome.sprt.decision === 'accept-h1' && verdict.exactEdge !== null) {
      findings.add({
        id: `fairness:${name}:returns-sprt`,
        severity: 'major',
        kind: 'fairness',
        title: `${name}: the returns paid put the edge a point ${outcome.sprt.direction === 'lower' ? 'below' : 'above'} the rule's exact ${edgePercentText(verdict.exactEdge)} (SPRT)`,
        expected: edgePercentText(verdict.exactEdge),
        seen: `${outcome.sprt.direction === 'lower' ? '≤' : '≥'} ${edgePercentText(verdict.exactEdge + (outcome.sprt.direction === 'lower' ? -0.01 : 0.01))}`,
        evidence: `Wald's SPRT (two-sided, δ = 1 point, α = 1% over the audit's ${result.variants.length} variant${result.variants.length === 1 ? '' : 's'}, β = 1%) decided after ${outcome.sprt.bets} verified bets`,
      });
    }
    if (verdict.edgeSource !== 'empirical')
      recordDocumentsDifference(collector, scheme, {
        game: variant.game,
        params: variant.params,
        variant: name,
        documentsEdge: variant.documentsEdge,
      });
  }
}

/** The field an edge is measured from: each bet's return is its stake × the multiplier it shows. */
const RETURN_FIELD = 'payout_multiplier';

/**
 * The variant's findings with its sample bet's request as the evidence of those that name none (an
 * edge over many bets): representative, not the only bet that shows it, and the evidence says so.
 */
function sampled(findings: FindingsCollector, outcome: VariantOutcome): FindingSink {
  const sample = outcome.sample;
  return withEvidence(findings, {
    field: RETURN_FIELD,
    ...(sample === null
      ? {}
      : {
          endpoint: sample.endpoint,
          ...(sample.reproduce === undefined ? {} : { reproduce: sample.reproduce }),
          note: `bet ${sample.betId}'s request, a representative of the ${outcome.verified} verified bets of ${outcome.variant.variant} (an aggregate finding; sent again, it places a new bet)`,
        }),
  });
}

/** ONE finding per game whose rule differs from the published scheme, counted in bets, with examples. */
function recordSchemeDifferences(findings: FindingsCollector, result: EdgeAuditResult, scheme: FairnessScheme): void {
  const byGame = new Map<string, VariantOutcome[]>();
  for (const outcome of result.variants) {
    const cause = outcome.verdict.cause;
    if (outcome.verdict.edgeSource !== 'empirical' || cause === null || cause === 'not-replayed') continue;
    byGame.set(outcome.variant.game, [...(byGame.get(outcome.variant.game) ?? []), outcome]);
  }
  for (const [game, outcomes] of byGame) {
    const examples = outcomes
      .flatMap((outcome) => [
        ...outcome.tier.mappingExamples.map(
          (example) => `bet ${example.betId} (${outcome.variant.variant}): ${example.text}`,
        ),
        ...outcome.tier
          .mixedClasses()
          .map(
            (found) =>
              `${outcome.variant.variant}: the outcome the scheme pays ${ratioDecimal(found.published)}× was paid ${[...found.paid.values()].map((paid) => `${ratioDecimal(paid.multiplier)}× (${paid.count} bets)`).join(' and ')}`,
          ),
        ...(outcome.verdict.cause === 'outside-law'
          ? [`${outcome.variant.variant}: bets landed on outcomes the scheme's law does not hold`]
          : []),
      ])
      .slice(0, MAX_EXAMPLES);
    const broke = outcomes.reduce((total, outcome) => total + outcome.brokeMapping, 0);
    // An answer that contradicts itself breaks the rule whatever rule the target changed to: major, as in the fairness audit.
    const contradicting = outcomes.reduce((total, outcome) => total + outcome.contradicting, 0);
    const contradiction = outcomes.find((outcome) => outcome.contradictingExample !== null)?.contradictingExample;
    const checked = outcomes.reduce((total, outcome) => total + outcome.brokeMapping + outcome.followedMapping, 0);
    const evidence = examples[0] ?? `${broke} bets`;
    withEvidence(findings, schemeRequest(outcomes)).add(
      {
        id: `rule:${game}:scheme`,
        severity:
          scheme.documentsAdvertise === true
            ? 'major'
            : contradicting > 0
              ? gravest(schemeSeverity(outcomes), 'major')
              : schemeSeverity(outcomes),
        kind: 'rule',
        title: `${game}: the target's rule differs from its published ${scheme.name} scheme (${broke > 0 ? `${broke} of ${checked} verified bets off the draw mapping` : 'one published outcome paid more than one way'}; the hashes verify)${contradicting > 0 ? `; ${contradicting} answers contradict themselves: the result states a win the won flag denies, or the reverse` : ''}`,
        field: 'result',
        expected: `outcomes and payouts as the ${scheme.name} scheme maps the revealed seed`,
        seen: empiricalSeen(outcomes),
        evidence: contradiction ?? evidence,
        ...(examples.length > 1 ? { examples } : {}),
      },
      Math.max(1, broke),
    );
  }
}

/** The variants' empirical edges, each with its interval, the first MAX_EXAMPLES of them. */
function empiricalSeen(outcomes: readonly VariantOutcome[]): string {
  const shown = outcomes.slice(0, MAX_EXAMPLES).map((outcome) => `${outcome.variant.variant} ${statedText(outcome)}`);
  const more = outcomes.length > MAX_EXAMPLES ? ` and ${outcomes.length - MAX_EXAMPLES} more variants` : '';
  return `edge measured empirically: ${shown.join(', ')}${more}`;
}

/** The request of the first bet off the draw mapping, else a representative bet of the game (said so). */
function schemeRequest(outcomes: readonly VariantOutcome[]): EvidenceDefaults {
  for (const outcome of outcomes)
    for (const example of outcome.tier.mappingExamples)
      if (example.endpoint !== undefined)
        return {
          endpoint: example.endpoint,
          ...(example.reproduce === undefined ? {} : { reproduce: example.reproduce }),
          note: `bet ${example.betId}'s request (${outcome.variant.variant}), one of the bets off the mapping (sent again, it places a new bet)`,
        };
  const first = outcomes.find((outcome) => outcome.sample !== null);
  const sample = first?.sample ?? null;
  if (first === undefined || sample === null) return {};
  return {
    endpoint: sample.endpoint,
    ...(sample.reproduce === undefined ? {} : { reproduce: sample.reproduce }),
    note: `bet ${sample.betId}'s request, a representative of the ${first.verified} verified bets of ${first.variant.variant} (an aggregate finding; sent again, it places a new bet)`,
  };
}

/** Minor while every variant's edge is consistent with the target's advertisement; else the gravest edge finding's severity. */
function schemeSeverity(outcomes: readonly VariantOutcome[]): Severity {
  const severities = outcomes.flatMap((outcome) =>
    outcome.verdict.rule === 'differs' && outcome.verdict.ruleSeverity !== null && !isDocumentsOwn(outcome)
      ? [outcome.verdict.ruleSeverity]
      : [],
  );
  return severities.reduce<Severity>(gravest, 'minor');
}

const gravest = (a: Severity, b: Severity): Severity => (SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a);

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, minor: 1, major: 2, critical: 3 };

/**
 * Where a published payout comes from: afp's copy of the documents the scheme is built from (the
 * documents, casino.md, for afp's own scheme; the deployed documents, DEPLOYED.md, for the deployed
 * one), never the target's own statement, so never "the target publishes".
 */
const rulesSource = (scheme: FairnessScheme): string =>
  scheme.documentsAdvertise === true ? 'the documents' : `the ${scheme.name} documents`;

/** The observed payout table of one variant: what differs from the published one, and the edge it gives. */
function recordPayoutTable(
  findings: FindingSink,
  outcome: VariantOutcome,
  table: ObservedTable,
  scheme: FairnessScheme,
): void {
  const { variant, verdict } = outcome;
  const changed = table.rows.filter(
    (row) => row.paid !== null && (row.paid.num !== row.published.num || row.paid.den !== row.published.den),
  );
  const described = changed.map(
    (row) =>
      `${ratioDecimal(row.paid ?? row.published)}× where ${rulesSource(scheme)} give ${ratioDecimal(row.published)}× (${row.bets} bet${row.bets === 1 ? '' : 's'})`,
  );
  const law = scheme.law(variant.game, variant.params);
  const published = law === null ? null : lawEdge(law);
  const unobserved = table.rows.filter((row) => row.paid === null);
  // Unobserved classes are counted at their published payouts: not a bound, since the target may pay them more.
  const bounds =
    unobserved.length === 0
      ? ''
      : `; ${unobserved.length} outcomes unobserved (probability ${edgePercentText(table.unobservedProbability)}), counted at their published payouts: ${edgePercentText(table.edge)} (paying them nothing: ${edgePercentText(table.edgeMax)}; paying them more than published: lower)`;
  const examples =
    outcome.tier.payoutExamples.length > 0
      ? { examples: outcome.tier.payoutExamples.map((example) => `bet ${example.betId}: ${example.text}`) }
      : {};
  // The first example's bet placed again: the request a reader sends to see the payout.
  const first = outcome.tier.payoutExamples.find((example) => example.reproduce !== undefined);
  const line = {
    ...(first?.reproduce === undefined ? {} : { reproduce: first.reproduce }),
    ...(first?.endpoint === undefined ? {} : { endpoint: first.endpoint }),
  };
  if (changed.length === 0) {
    // Every bet was paid what the published rule pays (a losing bet nothing), but a payout field of
    // its answer states another payout: what the target says it would pay, no payout seen.
    findings.add({
      id: `rule:${variant.variant}:stated-payouts`,
      severity: 'minor',
      kind: 'rule',
      title: `${variant.variant}: the target's answers state payouts other than the published rule's (${scheme.name} scheme); no bet was paid otherwise, so its edge is not measured`,
      field: 'payout_multiplier',
      expected: 'the payout fields the published rule gives',
      seen: outcome.tier.payoutExamples[0]?.text ?? null,
      evidence: `the draw mapping held on all ${verdict.restsOnBets} verified bets; their payout fields differ from the published rule's${bounds}`,
      ...examples,
      ...line,
    });
    return;
  }
  findings.add({
    // afp's scheme publishes the documents' table, its own advertisement: paying another is major there.
    id: `rule:${variant.variant}:payouts`,
    severity: scheme.documentsAdvertise === true ? 'major' : 'minor',
    kind: 'rule',
    title: `${variant.variant}: the target pays ${described.slice(0, 2).join(', ')}${described.length > 2 ? ', …' : ''} (${scheme.name} scheme): observed edge ${edgePercentText(table.edge)}${published === null ? '' : `, published rule ${edgePercentText(published)}`}`,
    field: 'payout_multiplier',
    expected: published === null ? null : edgePercentText(published),
    seen: edgePercentText(table.edge),
    evidence: `the draw mapping held on all ${verdict.restsOnBets} verified bets; payouts learnt from them: ${described.join(', ')}${bounds}`,
    ...examples,
    ...line,
  });
}

const HOW: Readonly<Record<VariantVerdict['edgeSource'], (verdict: VariantVerdict, scheme: string) => string>> = {
  published: (verdict, scheme) =>
    `the exact edge of the target's published rule (${scheme} scheme), which ${verdict.restsOnBets} verified bets followed`,
  observed: (verdict) =>
    `the exact edge of the payout table observed over ${verdict.restsOnBets} verified bets (the draw mapping held on every one)`,
  empirical: (verdict) =>
    `the empirical edge (1 − returns / stakes) over ${verdict.restsOnBets} bets, outside its ${levelText(verdict)} interval${boundText(verdict)}`,
};

/** The level a decision from returns was taken at: "99.9%", or over a family "99.9975% (99.9% over the audit's 40 variants)". */
function levelText(verdict: VariantVerdict): string {
  if (verdict.family === 1) return '99.9%';
  return `${String(Math.round(verdict.decisiveConfidence * 1e8) / 1e6)}% (99.9% over the audit's ${verdict.family} variants)`;
}

/** The one assumption of an empirical interval: no bet returns more than B times its stake (bounded-mean.ts). */
function boundText(verdict: VariantVerdict): string {
  return verdict.returnBound === null
    ? ''
    : ` (valid for any law of returns up to ${String(Math.round(verdict.returnBound * 1e4) / 1e4)}× the stake, the top of the published table or of what was paid)`;
}

function recordEdge(findings: FindingSink, outcome: VariantOutcome, scheme: FairnessScheme): void {
  const { variant, verdict } = outcome;
  if (verdict.advertised === null) return;
  const seen = verdict.statedEdge;
  const range =
    verdict.statedRange !== null && verdict.statedRange[0] !== verdict.statedRange[1]
      ? ` [${edgePercentText(verdict.statedRange[0])}, ${edgePercentText(verdict.statedRange[1])}]`
      : '';
  // The target plays the documents' own payout table, whose edge is not the one they advertise:
  // a contradiction inside the documents (docs/decisions/live-and-audit.md), not a defect of the target.
  const documentsOwn = isDocumentsOwn(outcome);
  const reading = outcome.gameReading ?? null;
  // One figure for the whole game: what the game's reading (the mean over its choices) says of it.
  const gameText =
    reading === null
      ? ''
      : reading.rule === 'matches'
        ? `; the same figure on every answer of the game is its edge over its ${reading.choices} choices (${edgePercentText(reading.mean)}): this variant's spread around it`
        : `; read as the game's figure, the mean over its ${reading.choices} choices is ${edgePercentText(reading.mean)}`;
  findings.add({
    id: `edge:${variant.variant}`,
    severity: documentsOwn ? 'info' : (verdict.ruleSeverity ?? 'minor'),
    kind: 'edge',
    title: `${variant.variant}: ${verdict.edgeSource} edge ${seen === null ? '?' : edgePercentText(seen)}${range} where ${verdict.advertised.text} is advertised${documentsOwn ? " (the documents' own payout table gives it)" : ''}${gameText}`,
    expected: verdict.advertised.text,
    seen: seen === null ? null : edgePercentText(seen),
    evidence: `${HOW[verdict.edgeSource](verdict, scheme.name)}${partlyObservedText(verdict, scheme.name)}; rests on ${verdict.restsOnBets} bets${reading === null ? '' : `; the game's other choices at the payouts this variant was seen to make (game-statement.ts)`}`,
  });
}

/** An observed table with outcomes unobserved bounds the edge from above only (edge-verdict.ts): what judged the rest. */
function partlyObservedText(verdict: VariantVerdict, scheme: string): string {
  if (verdict.edgeSource !== 'observed' || edgeLowBound(verdict) !== Number.NEGATIVE_INFINITY) return '';
  return `; with outcomes not yet seen paid, the table bounds the edge from above only (the target may pay them more than published), so an edge above the advertised is judged from the returns: ${HOW.empirical(verdict, scheme)}`;
}

/** At or past these the edge is harmful whatever is advertised: the house loses, or keeps half of every stake. */
export const GROSS_EDGE_HIGH = 0.5;

/**
 * A target that does not advertise the documents' figures (the deployed scheme): its measured edge
 * against the documents' advertised one is info stating both (minor when gross), never a defect.
 */
function recordDocumentsEdge(findings: FindingSink, outcome: VariantOutcome, scheme: FairnessScheme): void {
  const { variant, verdict } = outcome;
  const documents = variant.advertised;
  const seen = verdict.statedEdge;
  const range = verdict.statedRange;
  if (documents === null || seen === null || range === null) return;
  if (verdict.edgeSource === 'empirical' && (verdict.interval === null || verdict.interval.bets < MIN_EMPIRICAL_BETS))
    return;
  const tolerance = advertisedTolerance(documents.text);
  const low = edgeLowBound(verdict);
  const apart = low - documents.edge > tolerance || documents.edge - range[1] > tolerance;
  if (!apart) return;
  const gross = range[1] < 0 || low >= GROSS_EDGE_HIGH;
  const rule =
    verdict.edgeSource === 'published'
      ? `the ${scheme.name} scheme's published rule gives`
      : verdict.edgeSource === 'observed'
        ? 'the payout table it was seen to pay gives'
        : 'its returns give';
  // Without a bound on its returns the interval is the sample's, for information (edge-verdict.ts).
  const unbounded =
    verdict.edgeSource === 'empirical' && verdict.returnBound === null ? ` (the sample's; ${NO_BOUND})` : '';
  const spread =
    range[0] !== range[1] ? ` [${edgePercentText(range[0])}, ${edgePercentText(range[1])}]${unbounded}` : unbounded;
  findings.add({
    id: `edge:${variant.variant}`,
    severity: gross ? 'minor' : 'info',
    kind: 'edge',
    title: `${variant.variant}: ${rule} ${edgePercentText(seen)}${spread}; the documents advertise ${documents.text}${gross ? (range[1] < 0 ? ' (the house loses on it)' : ' (the house keeps half of every stake or more)') : ''}`,
    expected: documents.text,
    seen: edgePercentText(seen),
    evidence: `${HOW[verdict.edgeSource](verdict, scheme.name).replace(`, outside its ${levelText(verdict)} interval${boundText(verdict)}`, boundText(verdict))}; the target states no edge of its own that this contradicts (the documents' figures are not its advertisement)`,
  });
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
export function recordDocumentsDifference(
  findings: FindingsCollector,
  scheme: FairnessScheme,
  played: PlayedVariant,
): boolean {
  const documents =
    played.documentsEdge === undefined
      ? documentsEdgeOf(played.game, played.params, played.variant)
      : played.documentsEdge;
  const law = documents === null ? null : scheme.law(played.game, played.params);
  if (law === null || documents === null || Math.abs(lawEdge(law) - documents) <= NEGLIGIBLE) return false;
  findings.add({
    id: `rule:${played.variant}:documents`,
    severity: 'info',
    kind: 'rule',
    title: `${played.variant}: the target's rule gives an edge of ${edgePercentText(lawEdge(law))}; the documents' payout table ${edgePercentText(documents)}`,
    expected: edgePercentText(documents),
    seen: edgePercentText(lawEdge(law)),
    evidence: `exact laws: the ${scheme.name} scheme's rule against the documents' (casino.md) table`,
  });
  return true;
}
