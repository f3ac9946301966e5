// The live house-edge audit's edges.csv (src/audit/live/edge-table.ts): the same snake_case header
// whatever the result, one figure per column in one format (edges as fractions with 8 decimals,
// "" where a figure does not exist), then the texts the terminal's table shows (`shown_*`, edge-cells.ts).
import { describe, expect, test } from 'vitest';
import type { EdgeAuditResult } from '../../../src/audit/live/edge-audit.ts';
import type { VariantOutcome } from '../../../src/audit/live/variant-outcome.ts';
import { renderEdgeAuditCsv, renderEdgeAuditTable } from '../../../src/audit/live/edge-table.ts';
import { TierTrack } from '../../../src/audit/live/edge-tier.ts';
import type { VariantVerdict } from '../../../src/audit/live/edge-verdict.ts';

const HEADER =
  'game,variant,edge_source,edge,edge_low,edge_high,bets,verified,followed_rule,followed_mapping,exact_edge,advertised_text,advertised_edge,empirical_edge,low,high,unobserved_probability,verdict,rests_on_bets,sprt_decision,sprt_direction,sprt_bets,shown_game,shown_variant,shown_source,shown_edge,shown_interval,shown_bets,shown_advertised,shown_word,shown_verdict,shown_detail';

function outcome(overrides: Partial<VariantOutcome> & Pick<VariantOutcome, 'verdict'>): VariantOutcome {
  return {
    variant: {
      game: 'dice',
      variant: 'dice:over:50',
      params: {},
      amountMicro: 10_000n,
      advertised: { edge: 0.01, text: '1%' },
      documentsEdge: 0.01,
    },
    sample: null,
    placed: 400,
    verified: 400,
    followedRule: 400,
    followedMapping: 400,
    contradicting: 0,
    contradictingExample: null,
    brokeMapping: 0,
    tier: new TierTrack([]),
    refused: 0,
    advertisedBy: 'documents',
    sprt: { decision: 'accept-h0', direction: null, bets: 380 },
    ...overrides,
  };
}

function result(variants: VariantOutcome[]): EdgeAuditResult {
  return {
    variants,
    placed: 800,
    verified: 700,
    refused: 0,
    stakedMicro: 8_000_000n,
    placedStakeMicro: 8_000_000n,
    stoppedBy: null,
    minimums: new Map(),
    balanceBeforeMicro: null,
    balanceAfterMicro: null,
  };
}

const INTERVAL = { bets: 400, edge: 0.0123, sampleSigma: 1, sigma: 1, halfWidth: 0.12, low: -0.1077, high: 0.1323 };
const PUBLISHED: Pick<
  VariantVerdict,
  'edgeSource' | 'cause' | 'statedEdge' | 'statedRange' | 'observed' | 'returnBound' | 'decisiveConfidence' | 'family'
> = {
  edgeSource: 'published',
  cause: null,
  statedEdge: 0.01,
  statedRange: [0.01, 0.01],
  observed: null,
  returnBound: null,
  decisiveConfidence: 0.999,
  family: 1,
};
const EMPIRICAL: Pick<
  VariantVerdict,
  'edgeSource' | 'cause' | 'statedEdge' | 'statedRange' | 'observed' | 'returnBound' | 'decisiveConfidence' | 'family'
> = {
  edgeSource: 'empirical',
  cause: 'not-replayed',
  statedEdge: null,
  statedRange: null,
  observed: null,
  returnBound: 10,
  decisiveConfidence: 0.999,
  family: 1,
};

describe('live edges.csv', () => {
  test('one figure per column, fractions with 8 decimals, empty cells where a figure does not exist', () => {
    const csv = renderEdgeAuditCsv(
      result([
        outcome({
          verdict: {
            ...PUBLISHED,
            exactEdge: 0.01,
            advertised: { edge: 0.01, text: '1%' },
            rule: 'matches',
            ruleSeverity: null,
            restsOnBets: 400,
            interval: INTERVAL,
            empirical: 'agrees',
          },
        }),
        outcome({
          variant: {
            game: 'crash',
            variant: 'crash:2',
            params: {},
            amountMicro: 10_000n,
            advertised: null,
            documentsEdge: null,
          },
          verified: 300,
          followedRule: 300,
          sprt: null,
          verdict: {
            ...EMPIRICAL,
            exactEdge: null,
            advertised: null,
            rule: 'unknown',
            ruleSeverity: null,
            restsOnBets: 300,
            interval: null,
            empirical: 'too-few-bets',
          },
        }),
      ]),
    );
    expect(csv.split('\n')).toEqual([
      HEADER,
      "dice,dice:over:50,published,0.01000000,0.01000000,0.01000000,400,400,400,400,0.01000000,1%,0.01000000,0.01230000,-0.10770000,0.13230000,,matches advertised,400,accept-h0,,380,dice,over:50,published,1.000%,exact,400/400/400,1.000% (documents),1% (the documents'),matches advertised,matches advertised",
      'crash,crash:2,empirical,,,,400,300,300,400,,,,,,,,not replayed; no advertised edge,300,,,,crash,2,empirical,—,none: fewer than 2 bets,400/300/300,—,—,no advertised edge; not replayed,not replayed; no advertised edge',
      '',
    ]);
    expect(renderEdgeAuditCsv(result([]))).toBe(`${HEADER}\n`);
  });

  test('the text table fits 120 columns: the interval its own column, the SPRT in the CSV and JSON', () => {
    const table = renderEdgeAuditTable(
      result([
        outcome({
          verdict: {
            ...PUBLISHED,
            exactEdge: 0.01,
            advertised: { edge: 0.01, text: '1%' },
            rule: 'matches',
            ruleSeverity: null,
            restsOnBets: 400,
            interval: INTERVAL,
            empirical: 'agrees',
          },
        }),
      ]),
    );
    expect(table.split('\n')[1]).toMatch(
      /^dice {2,}over:50 {2,}published {2,}1\.000% {2,}exact {2,}400\/400\/400 {2,}1\.000% \(documents\) {2,}matches advertised$/,
    );
    for (const line of table.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
    expect(
      renderEdgeAuditCsv(
        result([
          outcome({
            verdict: {
              ...PUBLISHED,
              exactEdge: 0.01,
              advertised: { edge: 0.01, text: '1%' },
              rule: 'matches',
              ruleSeverity: null,
              restsOnBets: 400,
              interval: INTERVAL,
              empirical: 'agrees',
            },
          }),
        ]),
      ),
    ).toContain('0.01230000,-0.10770000,0.13230000');
  });
});
