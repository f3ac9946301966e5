// Live house-edge audit results made by hand for the tests of its outputs (edge-cells.ts): a coin
// flip's variants in each tier, their verdicts from judgeVariant over tallies made here (the
// published tier as the audit states it). Pure: no sockets, no clock.
import { ReturnTally } from '../../../src/audit/edge/edge-statistics.ts';
import { ratio } from '../../../src/core/ratio.ts';
import type { EdgeAuditResult } from '../../../src/audit/live/edge-audit.ts';
import { TierTrack } from '../../../src/audit/live/edge-tier.ts';
import { judgeVariant, type AdvertisedEdge, type VariantVerdict } from '../../../src/audit/live/edge-verdict.ts';
import type { VariantOutcome } from '../../../src/audit/live/variant-outcome.ts';

/** A coin flip paying 1.99× on one side of two: an edge of 0.5%, its top payout the bound on returns. */
export const COIN_LAW = [
  [ratio(1, 2), ratio(0)],
  [ratio(1, 2), ratio(199, 100)],
] as const;
export const HALF_POINT: AdvertisedEdge = { edge: 0.005, text: '0.5%' };

/** `wins` bets paid 1.99×, the rest nothing. */
export function tally(bets: number, wins: number): ReturnTally {
  const returns = new ReturnTally();
  returns.add(ratio(199, 100), wins);
  returns.add(ratio(0), bets - wins);
  return returns;
}

/** No bet replayed: the empirical tier, whatever was paid. */
export function empirical(bets: number, wins: number, law: typeof COIN_LAW | null): VariantVerdict {
  return judgeVariant({ law, advertised: HALF_POINT, tally: tally(bets, wins), tier: new TierTrack([]) });
}

/** The published tier as the audit states it: the exact edge of the rule every bet followed. */
export const PUBLISHED: VariantVerdict = {
  edgeSource: 'published',
  cause: null,
  exactEdge: 0.005,
  statedEdge: 0.005,
  statedRange: [0.005, 0.005],
  advertised: HALF_POINT,
  rule: 'matches',
  ruleSeverity: null,
  restsOnBets: 400,
  interval: { bets: 400, edge: 0.0123, sampleSigma: 1, sigma: 1, halfWidth: 0.12, low: -0.1077, high: 0.1323 },
  family: 1,
  decisiveConfidence: 0.999,
  returnBound: null,
  empirical: 'agrees',
  observed: null,
};

export function outcome(
  name: string,
  verdict: VariantVerdict,
  overrides: Partial<VariantOutcome> = {},
): VariantOutcome {
  const bets = verdict.interval?.bets ?? verdict.restsOnBets;
  return {
    variant: {
      game: 'coin_flip',
      variant: `coin_flip:${name}`,
      params: {},
      amountMicro: 10_000n,
      advertised: HALF_POINT,
      documentsEdge: 0.005,
    },
    sample: null,
    placed: bets,
    verified: bets,
    followedRule: verdict.edgeSource === 'published' ? bets : 0,
    followedMapping: verdict.edgeSource === 'published' ? bets : 0,
    contradicting: 0,
    contradictingExample: null,
    brokeMapping: 0,
    tier: new TierTrack([]),
    refused: 0,
    advertisedBy: 'documents',
    sprt: null,
    ...overrides,
    verdict,
  };
}

export function result(variants: VariantOutcome[]): EdgeAuditResult {
  return {
    variants,
    placed: variants.reduce((total, variant) => total + variant.placed, 0),
    verified: variants.reduce((total, variant) => total + variant.verified, 0),
    refused: 0,
    stakedMicro: 1_000_000n,
    placedStakeMicro: 1_000_000n,
    stoppedBy: null,
    minimums: new Map(),
    balanceBeforeMicro: null,
    balanceAfterMicro: null,
  };
}

/** Three variants: the published tier, an empirical one on 22 bets, and one whose returns no published law bounds. */
export function sampleEdgeAudit(): EdgeAuditResult {
  return result([
    outcome('heads', PUBLISHED),
    outcome('tails', empirical(22, 10, COIN_LAW)),
    outcome('unbounded', empirical(40, 20, null)),
  ]);
}
