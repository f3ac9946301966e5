// The live house-edge audit's tiers (src/audit/live/edge-tier.ts, observed-table.ts, edge-verdict.ts)
// fed with verified bets, as the audit feeds them: bets replayed and checked by the real fairness
// schemes (afp's and the deployed one, through the FairnessScheme interface only), then altered the
// way a target would alter them — another payout table (observed), another draw mapping (empirical),
// one outcome paid two ways (empirical). Each tier states its edge from what the bets showed, and a
// gross deviation (a negative edge, 99% where a few points are advertised) is decided within 50 bets.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ReturnTally } from '../../../src/audit/edge/edge-statistics.ts';
import type { JsonObject, JsonValue } from '../../../src/core/errors.ts';
import { ratio, ratioToNumber, type Ratio } from '../../../src/core/ratio.ts';
import { creditContradiction, paidMultiplier, TierTrack, payoutFieldsOf } from '../../../src/audit/live/edge-tier.ts';
import { judgeVariant, type AdvertisedEdge, type VariantVerdict } from '../../../src/audit/live/edge-verdict.ts';
import { AFP_SCHEME } from '../../../src/audit/fairness/afp-scheme.ts';
import { DEPLOYED_SCHEME } from '../../../src/audit/fairness/deployed-scheme.ts';
import type { FairnessScheme, SchemeBet, SchemeVerdict } from '../../../src/audit/fairness/scheme.ts';
import { DrawStream } from '../../../src/services/casino/fair/draw-stream.ts';
import { findGame } from '../../../src/services/casino/games/index.ts';
import { FindingsCollector } from '../../../src/report/findings/finding.ts';
import type { EdgeAuditResult } from '../../../src/audit/live/edge-audit.ts';
import type { VariantOutcome } from '../../../src/audit/live/variant-outcome.ts';
import { recordEdgeFindings } from '../../../src/audit/live/edge-findings.ts';
import { recordVerification, selfContradiction } from '../../../src/audit/live/verification-findings.ts';

const SEED = 'ab'.repeat(32);
const SEED_HASH = createHash('sha256').update(SEED).digest('hex');
const STAKE = 10_000n;

/** A bet afp's casino would answer: the game played from the draw, paid floor(stake × multiplier). */
function afpBet(game: string, params: JsonObject, nonce: number): SchemeBet {
  const module = findGame(game);
  const parsed = module?.parse(params);
  if (module === undefined || parsed === undefined || !parsed.ok) throw new Error(`test setup: ${game}`);
  const draws = new DrawStream(SEED, 'tier', nonce);
  const played = module.play(parsed.value, draws);
  const multiplier = played.multiplier;
  return {
    betId: `bet_${nonce}`,
    game,
    params,
    amountMicro: STAKE,
    paidMicro: (STAKE * multiplier.num) / multiplier.den,
    multiplier: Number(ratioToNumber(multiplier).toFixed(6)),
    result: played.detail,
    clientSeed: 'tier',
    nonce,
    seedHash: SEED_HASH,
    resultHash: draws.firstBlockHex,
  };
}

/** The deployed scheme's result hash: HMAC-SHA256 keyed by the seed's hex text (spec/DEPLOYED.md §2.3). */
const hmac = (nonce: number): string => createHmac('sha256', SEED).update(`tier:${nonce}`).digest('hex');

/**
 * A bet the deployed scheme's rule answers, learnt through the scheme's interface alone: the rule's
 * result fields come back as the `recomputed` side of the differences of a bet whose fields are null.
 */
function deployedBet(game: string, params: JsonObject, nonce: number, fields: readonly string[]): SchemeBet {
  const blank: SchemeBet = {
    betId: `bet_${nonce}`,
    game,
    params,
    amountMicro: STAKE,
    paidMicro: 0n,
    multiplier: 0,
    result: Object.fromEntries(fields.map((field) => [field, null])),
    clientSeed: 'tier',
    nonce,
    seedHash: SEED_HASH,
    resultHash: hmac(nonce),
  };
  const verdict = DEPLOYED_SCHEME.verify(blank, SEED);
  const result: Record<string, JsonValue> = {};
  for (const difference of verdict.outcome.status === 'failed' ? (verdict.outcome.differences ?? []) : []) {
    const top = difference.field.split(/[.[]/)[0] as string;
    if (top === difference.field) result[top] = difference.recomputed;
  }
  const multiplier = verdict.multiplier ?? ratio(0);
  const paidMicro = (STAKE * multiplier.num) / multiplier.den;
  return {
    ...blank,
    result,
    paidMicro: paidMicro - (paidMicro % 10_000n) + ((paidMicro % 10_000n) * 2n >= 10_000n ? 10_000n : 0n),
    multiplier: ratioToNumber(multiplier),
  };
}

/** The target pays `paid` (a decimal) where the rule pays a win: shown and credited alike. */
function paying(bet: SchemeBet, paid: string, resultField?: string): SchemeBet {
  if (bet.paidMicro === 0n) return bet;
  const multiplier = Number(paid);
  const result = resultField === undefined ? bet.result : { ...(bet.result as JsonObject), [resultField]: multiplier };
  return { ...bet, multiplier, paidMicro: (bet.amountMicro * BigInt(Math.round(multiplier * 100))) / 100n, result };
}

interface Fed {
  readonly tier: TierTrack;
  readonly tally: ReturnTally;
}

function feed(scheme: FairnessScheme, bets: readonly SchemeBet[]): Fed {
  const tier = new TierTrack(payoutFieldsOf(scheme, bets[0]?.game ?? ''));
  const tally = new ReturnTally();
  for (const bet of bets) {
    const verdict: SchemeVerdict = scheme.verify(bet, SEED);
    expect(verdict.commitment.status).toBe('ok');
    tier.add(bet, verdict);
    if (bet.paidMicro !== null) tally.add(ratio(bet.paidMicro, bet.amountMicro));
  }
  return { tier, tally };
}

function judge(
  scheme: FairnessScheme,
  game: string,
  params: JsonObject,
  fed: Fed,
  advertised: AdvertisedEdge | null,
): VariantVerdict {
  return judgeVariant({ law: scheme.law(game, params), advertised, tally: fed.tally, tier: fed.tier });
}

const range = (count: number): number[] => Array.from({ length: count }, (_, index) => index);
const HEADS = { side: 'heads' };
const HALF_POINT: AdvertisedEdge = { edge: 0.005, text: '0.5%' };

describe("the three tiers under afp's scheme", () => {
  test("published: every bet follows the rule, so its exact edge applies (afp's coin flip pays 1.96x: 2%)", () => {
    const fed = feed(
      AFP_SCHEME,
      range(60).map((nonce) => afpBet('coin_flip', HEADS, nonce)),
    );
    const verdict = judge(AFP_SCHEME, 'coin_flip', HEADS, fed, HALF_POINT);
    expect(verdict).toMatchObject({
      edgeSource: 'published',
      cause: null,
      exactEdge: 0.02,
      statedEdge: 0.02,
      statedRange: [0.02, 0.02],
      restsOnBets: 60,
      rule: 'differs',
      observed: null,
    });
  });

  test("observed: coin flip paid 2.00x — the mapping holds, the edge is the observed table's (0%), with the bets it rests on", () => {
    const bets = range(40).map((nonce) => paying(afpBet('coin_flip', HEADS, nonce), '2'));
    const fed = feed(AFP_SCHEME, bets);
    expect(fed.tier.broke).toBe(0);
    expect(fed.tier.mapped).toBe(40);
    expect(fed.tier.paidAsPublished).toBe(bets.filter((bet) => bet.paidMicro === 0n).length);
    const verdict = judge(AFP_SCHEME, 'coin_flip', HEADS, fed, HALF_POINT);
    expect(verdict).toMatchObject({
      edgeSource: 'observed',
      exactEdge: 0,
      statedEdge: 0,
      statedRange: [0, 0],
      restsOnBets: 40,
      rule: 'differs',
      ruleSeverity: 'minor',
    });
    expect(
      verdict.observed?.rows.map((row) => [
        ratioToNumber(row.published),
        ratioToNumber(row.probability),
        row.paid === null ? null : ratioToNumber(row.paid),
      ]),
    ).toEqual([
      [0, 0.5, 0],
      [1.96, 0.5, 2],
    ]);
    expect(fed.tier.payoutExamples[0]?.text).toBe('paid 2× where the scheme pays 1.96×');
  });

  test('empirical: outcomes off the published mapping — no rule edge, the returns over the stakes with an interval', () => {
    const bets = range(40).map((nonce) => {
      const bet = afpBet('coin_flip', HEADS, nonce);
      const result = bet.result as JsonObject;
      return nonce % 4 === 0
        ? { ...bet, result: { ...result, outcome: result['outcome'] === 'heads' ? 'tails' : 'heads' } }
        : bet;
    });
    const fed = feed(AFP_SCHEME, bets);
    expect(fed.tier.broke).toBe(10);
    const verdict = judge(AFP_SCHEME, 'coin_flip', HEADS, fed, HALF_POINT);
    expect(verdict).toMatchObject({
      edgeSource: 'empirical',
      cause: 'mapping',
      exactEdge: null,
      observed: null,
      restsOnBets: 40,
    });
    expect(verdict.statedEdge).toBe(verdict.interval?.edge);
    expect(verdict.statedRange).toEqual([verdict.interval?.low, verdict.interval?.high]);
    // 40 coin flips cannot tell 0.5% from the returns seen: no verdict the interval does not decide.
    expect(verdict.rule).toBe('unknown');
    expect(fed.tier.mappingExamples).toHaveLength(3);
    expect(fed.tier.mappingExamples[0]?.text).toMatch(
      /^outcome: "(heads|tails)" where the scheme gives "(heads|tails)"$/,
    );
  });

  test('empirical: one published outcome paid two ways is no payout table', () => {
    const bets = range(40).map((nonce) => paying(afpBet('coin_flip', HEADS, nonce), nonce % 2 === 0 ? '2' : '1.9'));
    const fed = feed(AFP_SCHEME, bets);
    expect(fed.tier.source()).toEqual({ source: 'empirical', cause: 'mixed-payouts' });
  });

  test('observed with unobserved outcomes: keno 10 spots after a few bets states a range bounded by what was never seen', () => {
    const params = { picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] };
    const bets = range(30).map((nonce) => {
      const bet = afpBet('keno', params, nonce);
      return bet.paidMicro === null || bet.paidMicro === 0n
        ? bet
        : { ...bet, multiplier: (bet.multiplier ?? 0) * 2, paidMicro: bet.paidMicro * 2n };
    });
    const fed = feed(AFP_SCHEME, bets);
    const verdict = judge(AFP_SCHEME, 'keno', params, fed, { edge: 0.08, text: 'about 8%' });
    expect(verdict.edgeSource).toBe('observed');
    const table = verdict.observed;
    expect(table?.unobservedProbability).toBeGreaterThan(0);
    expect(table?.rows.some((row) => row.paid === null)).toBe(true);
    expect(verdict.exactEdge).toBeNull();
    expect(verdict.statedRange?.[0]).toBe(table?.edge);
    expect(verdict.statedRange?.[1]).toBe(table?.edgeMax);
    expect(table?.edgeMax ?? 0).toBeGreaterThan(table?.edge ?? 1);
  });
});

describe('the deployed scheme, through the same interface', () => {
  test('coin flip paid 2.00x is observed; keno with another payout (its result states it) stays observed, not empirical', () => {
    const coins = range(40).map((nonce) => deployedBet('coin_flip', HEADS, nonce, ['side_chosen', 'outcome', 'roll']));
    expect(feed(DEPLOYED_SCHEME, coins).tier.source()).toEqual({ source: 'published', cause: null });
    const fed = feed(
      DEPLOYED_SCHEME,
      coins.map((bet) => paying(bet, '2')),
    );
    const verdict = judge(DEPLOYED_SCHEME, 'coin_flip', HEADS, fed, HALF_POINT);
    expect(verdict).toMatchObject({ edgeSource: 'observed', restsOnBets: 40 });
    // The deployed roll's residues are not exactly fair (2^32 mod 10000): the exact edge of 2x is −6.3e-7, not 0.
    expect(verdict.statedEdge).toBeCloseTo(0, 5);
    expect(verdict.statedEdge).not.toBe(0);
    const params = { picks: [1] }; // the deployed keno draws from {1, 20, 21, 40, 41, 60, 61, 80}: 1 is caught often
    const keno = range(60).map((nonce) => deployedBet('keno', params, nonce, ['picks', 'drawn', 'payout_multiplier']));
    expect(feed(DEPLOYED_SCHEME, keno).tier.source()).toEqual({ source: 'published', cause: null });
    const repaid = feed(
      DEPLOYED_SCHEME,
      keno.map((bet) => paying(bet, '4', 'payout_multiplier')),
    );
    expect(repaid.tier.source()).toEqual({ source: 'observed', cause: null });
    const drawnElsewhere = keno.map((bet, index) =>
      index === 3 ? { ...bet, result: { ...(bet.result as JsonObject), drawn: [] } } : bet,
    );
    expect(feed(DEPLOYED_SCHEME, drawnElsewhere).tier.source()).toEqual({ source: 'empirical', cause: 'mapping' });
  });
});

/** The audit's result for one variant fed with `bets`, as recordEdgeFindings reads it. */
function resultOf(
  scheme: FairnessScheme,
  variant: { game: string; variant: string; params: JsonObject },
  bets: readonly SchemeBet[],
  advertised: AdvertisedEdge,
): EdgeAuditResult {
  const fed = feed(scheme, bets);
  const verdict = judge(scheme, variant.game, variant.params, fed, advertised);
  const outcome: VariantOutcome = {
    variant: { ...variant, amountMicro: STAKE, advertised, documentsEdge: null },
    sample: null,
    placed: bets.length,
    verified: bets.length,
    followedRule: fed.tier.paidAsPublished,
    followedMapping: fed.tier.mapped,
    contradicting: bets.filter((bet) => selfContradiction(scheme, bet)).length,
    contradictingExample: null,
    brokeMapping: fed.tier.broke,
    tier: fed.tier,
    refused: 0,
    verdict,
    sprt: null,
    // The advertisement given stands for the target's own (its answers' house_edge_pct) on the deployed scheme.
    advertisedBy: scheme.documentsAdvertise === true ? 'documents' : 'target',
  };
  return {
    variants: [outcome],
    placed: bets.length,
    verified: bets.length,
    refused: 0,
    stakedMicro: STAKE * BigInt(bets.length),
    placedStakeMicro: STAKE * BigInt(bets.length),
    stoppedBy: null,
    minimums: new Map(),
    balanceBeforeMicro: null,
    balanceAfterMicro: null,
  };
}

describe('the findings each tier gives: one per rule and cause, none derived from a rule the target was not seen to follow', () => {
  const WHEEL = { game: 'wheel', variant: 'wheel', params: {} };
  const wheel = range(120).map((nonce) => deployedBet('wheel', {}, nonce, ['multiplier', 'won']));

  test("the deployment's wheel FIXED to behave as advertised (its sectors on r / 100, not r) is empirical: ONE rule finding with examples, no money finding, no built-in 99.095% stated", () => {
    const SECTORS: ReadonlyArray<readonly [number, number]> = [
      [0, 0.35],
      [0.5, 0.25],
      [1, 0.15],
      [1.5, 0.1],
      [2, 0.08],
      [3, 0.04],
      [5, 0.02],
      [10, 0.01],
    ];
    const fixedMultiplier = (nonce: number): number => {
      const roll = (parseInt(hmac(nonce).slice(0, 8), 16) % 10_000) / 100;
      let cumulative = 0;
      for (const [multiplier, probability] of SECTORS) if (roll / 100 < (cumulative += probability)) return multiplier;
      return 0;
    };
    const fixed = wheel.map((bet) => {
      const multiplier = fixedMultiplier(bet.nonce);
      return {
        ...bet,
        result: { multiplier, won: multiplier > 0 },
        multiplier,
        paidMicro: (STAKE * BigInt(Math.round(multiplier * 10))) / 10n,
      };
    });
    const result = resultOf(DEPLOYED_SCHEME, WHEEL, fixed, { edge: 0.095, text: 'about 9.5%' });
    const verdict = result.variants[0]?.verdict;
    expect(verdict).toMatchObject({
      edgeSource: 'empirical',
      cause: 'mixed-payouts',
      exactEdge: null,
      observed: null,
      restsOnBets: 120,
    });
    // The published (built-in) rule's 99.095% is nowhere: the stated edge is the returns' own.
    expect(verdict?.statedEdge).toBe(verdict?.interval?.edge);
    expect(verdict?.statedEdge).toBeLessThan(0.5);
    const findings = new FindingsCollector();
    recordEdgeFindings(findings, result, DEPLOYED_SCHEME);
    const listed = findings.list();
    expect(listed.map((finding) => finding.id)).toEqual(['rule:wheel:scheme']);
    const rule = listed[0];
    expect(rule?.title).toBe(
      "wheel: the target's rule differs from its published deployed scheme (one published outcome paid more than one way; the hashes verify)",
    );
    expect(rule?.evidence).toMatch(
      /^wheel: the outcome the scheme pays 0× was paid (\d+(\.\d+)?× \(\d+ bets?\)( and )?)+$/,
    );
  });

  test('a deployed coin flip paid 2x is observed: one payouts finding stating the observed edge beside the published one, no money finding', () => {
    const coins = range(40).map((nonce) =>
      paying(deployedBet('coin_flip', HEADS, nonce, ['side_chosen', 'outcome', 'roll']), '2'),
    );
    const result = resultOf(
      DEPLOYED_SCHEME,
      { game: 'coin_flip', variant: 'coin_flip:heads', params: HEADS },
      coins,
      HALF_POINT,
    );
    const findings = new FindingsCollector();
    recordEdgeFindings(findings, result, DEPLOYED_SCHEME);
    const payouts = findings.list().find((finding) => finding.id === 'rule:coin_flip:heads:payouts');
    // A changed payout is no defect by itself (the edge finding judges the edge): minor.
    expect(payouts?.severity).toBe('minor');
    expect(payouts?.title).toMatch(
      /^coin_flip:heads: the target pays 2× where the deployed documents give 1\.99× \(\d+ bets\) \(deployed scheme\): observed edge 0\.000%, published rule 0\.500%$/,
    );
    expect(payouts?.examples).toHaveLength(3);
    expect(findings.list().some((finding) => finding.kind === 'money')).toBe(false);
  });
});

describe('a gross deviation is decided within 50 bets per variant', () => {
  /** The first bet count at which the verdict says 'differs' with this severity, feeding bets one by one. */
  function decidedAt(
    scheme: FairnessScheme,
    game: string,
    params: JsonObject,
    bets: readonly SchemeBet[],
    advertised: AdvertisedEdge,
  ): { bets: number; verdict: VariantVerdict } | null {
    for (let count = 1; count <= bets.length; count += 1) {
      const verdict = judge(scheme, game, params, feed(scheme, bets.slice(0, count)), advertised);
      if (verdict.rule === 'differs') return { bets: count, verdict };
    }
    return null;
  }

  test('published: a rule whose exact law gives 99% where 9.5% is advertised is critical at the first bet that follows it', () => {
    // The law is data of the target's published scheme: one outcome in a hundred pays 1x, the rest nothing.
    const law = [
      [ratio(99, 100), ratio(0)],
      [ratio(1, 100), ratio(1)],
    ] as const;
    const tier = new TierTrack([]);
    const tally = new ReturnTally();
    const ok = { status: 'ok' } as const;
    const bet = afpBet('coin_flip', HEADS, 0);
    tier.add(
      { ...bet, paidMicro: 0n, multiplier: 0 },
      { commitment: ok, resultHash: ok, outcome: ok, payout: ok, multiplier: ratio(0) },
    );
    tally.add(ratio(0));
    const verdict = judgeVariant({ law, advertised: { edge: 0.095, text: '9.5%' }, tally, tier });
    expect(verdict).toMatchObject({
      edgeSource: 'published',
      exactEdge: 0.99,
      restsOnBets: 1,
      rule: 'differs',
      ruleSeverity: 'critical',
    });
  });

  test('observed: coin flip paying 2.50x (a negative edge, −25%) is critical as soon as both outcomes are seen', () => {
    const bets = range(50).map((nonce) => paying(afpBet('coin_flip', HEADS, nonce), '2.5'));
    const decided = decidedAt(AFP_SCHEME, 'coin_flip', HEADS, bets, HALF_POINT);
    expect(decided?.bets).toBeLessThanOrEqual(10);
    expect(decided?.verdict).toMatchObject({ edgeSource: 'observed', statedEdge: -0.25, ruleSeverity: 'critical' });
  });

  test('observed: coin flip paying 0.02x (an edge of 99%) is critical within 50 bets', () => {
    const bets = range(50).map((nonce) => paying(afpBet('coin_flip', HEADS, nonce), '0.02'));
    const decided = decidedAt(AFP_SCHEME, 'coin_flip', HEADS, bets, HALF_POINT);
    expect(decided?.bets).toBeLessThanOrEqual(50);
    expect(decided?.verdict).toMatchObject({ edgeSource: 'observed', statedEdge: 0.99, ruleSeverity: 'critical' });
  });

  test('empirical: outcomes off the mapping and returns of an edge near 99% against 9.5% advertised: critical within 50 bets', () => {
    // Every bet's outcome rewritten (the mapping is broken) and almost nothing paid.
    const bets = range(50).map((nonce) => {
      const bet = afpBet('coin_flip', HEADS, nonce);
      const lost = {
        ...bet,
        result: { side: 'heads', outcome: 'edge' },
        paidMicro: nonce === 7 ? 19_600n : 0n,
        multiplier: nonce === 7 ? 1.96 : 0,
      };
      return lost;
    });
    const decided = decidedAt(AFP_SCHEME, 'coin_flip', HEADS, bets, { edge: 0.095, text: '9.5%' });
    expect(decided?.bets).toBeLessThanOrEqual(50);
    expect(decided?.verdict).toMatchObject({ edgeSource: 'empirical', cause: 'mapping', ruleSeverity: 'critical' });
    expect(decided?.verdict.statedRange?.[0]).toBeGreaterThan(0.095);
  });

  test('empirical: returns of a negative edge (every bet paid 2x) against 9.5% advertised: critical within 50 bets', () => {
    const bets = range(50).map((nonce) => {
      const bet = afpBet('coin_flip', HEADS, nonce);
      return { ...bet, result: { side: 'heads', outcome: 'edge' }, paidMicro: 20_000n, multiplier: 2 };
    });
    const decided = decidedAt(AFP_SCHEME, 'coin_flip', HEADS, bets, { edge: 0.095, text: '9.5%' });
    expect(decided?.bets).toBeLessThanOrEqual(50);
    expect(decided?.verdict).toMatchObject({ edgeSource: 'empirical', ruleSeverity: 'critical' });
  });

  test('a decision from returns holds 99.9% over the audit: among 40 variants each is taken at 99.9975%, later than alone', () => {
    // Off the mapping, one bet in five paid 1.99x: an edge of about 60% against 9.5% advertised.
    const bets = range(200).map((nonce) => {
      const bet = afpBet('coin_flip', HEADS, nonce);
      const paid = nonce % 5 === 0;
      return {
        ...bet,
        result: { side: 'heads', outcome: 'edge' },
        paidMicro: paid ? 19_900n : 0n,
        multiplier: paid ? 1.99 : 0,
      };
    });
    const law = AFP_SCHEME.law('coin_flip', HEADS);
    const firstDecided = (family: number): { bets: number; verdict: VariantVerdict } | null => {
      for (let count = 1; count <= bets.length; count += 1) {
        const fed = feed(AFP_SCHEME, bets.slice(0, count));
        const advertised = { edge: 0.095, text: '9.5%' };
        const verdict = judgeVariant({ law, advertised, tally: fed.tally, tier: fed.tier, family });
        if (verdict.rule === 'differs') return { bets: count, verdict };
      }
      return null;
    };
    const alone = firstDecided(1);
    const inFamily = firstDecided(40);
    expect(alone?.verdict.decisiveConfidence).toBe(0.999);
    expect(inFamily?.verdict.decisiveConfidence).toBeCloseTo(1 - 0.001 / 40, 12);
    expect(alone?.bets).toBeLessThan(inFamily?.bets ?? Number.POSITIVE_INFINITY);
    expect(inFamily?.verdict).toMatchObject({ edgeSource: 'empirical', rule: 'differs' });
    const all = resultOf(AFP_SCHEME, { game: 'coin_flip', variant: 'coin_flip:heads', params: HEADS }, bets, {
      edge: 0.095,
      text: '9.5%',
    });
    const evidenceOf = (result: EdgeAuditResult): string | undefined => {
      const findings = new FindingsCollector();
      recordEdgeFindings(findings, result, AFP_SCHEME);
      return findings.list().find((finding) => finding.id === 'edge:coin_flip:heads')?.evidence;
    };
    expect(evidenceOf(all)).toMatch(
      /outside its 99\.9% interval \(valid for any law of returns up to 1\.99× the stake/,
    );
    const among40 = {
      ...all,
      variants: all.variants.map((outcome) => ({ ...outcome, verdict: inFamily?.verdict ?? outcome.verdict })),
    };
    expect(evidenceOf(among40)).toMatch(/outside its 99\.9975% \(99\.9% over the audit's 40 variants\) interval/);
  });
});

describe('money needs the target to contradict itself', () => {
  const bet = (
    paidMicro: bigint | null,
    multiplier: number | null,
  ): Pick<SchemeBet, 'amountMicro' | 'paidMicro' | 'multiplier'> => ({
    amountMicro: 1_000_000n,
    paidMicro,
    multiplier,
  });

  test("credited ≠ stake × its own shown multiplier (beyond half a cent) is a contradiction; another multiplier than the rule's is not", () => {
    expect(creditContradiction(bet(2_000_000n, 2))).toBeNull();
    expect(creditContradiction(bet(1_960_000n, 1.96))).toBeNull();
    expect(creditContradiction(bet(1_964_000n, 1.96))).toBeNull();
    expect(creditContradiction(bet(1_950_000n, 1.96))).toEqual({ dueMicro: 1_960_000n });
    expect(creditContradiction(bet(0n, 1.96))).toBeNull();
    expect(creditContradiction(bet(1_000_000n, null))).toBeNull();
  });

  test('the multiplier paid: nothing credited is 0x, else the shown one, else credited / stake', () => {
    const asNumber = (value: Ratio | null): number | null => (value === null ? null : ratioToNumber(value));
    expect(asNumber(paidMultiplier(bet(0n, 1.96)))).toBe(0);
    expect(asNumber(paidMultiplier(bet(1_960_000n, 1.96)))).toBe(1.96);
    expect(asNumber(paidMultiplier(bet(1_500_000n, null)))).toBe(1.5);
    // A credit that contradicts the shown multiplier: the money credited is what was paid.
    expect(asNumber(paidMultiplier(bet(1_500_000n, 1.96)))).toBe(1.5);
    expect(paidMultiplier(bet(null, 1.96))).toBeNull();
  });
});

describe('findings gather a count and up to three examples', () => {
  test('the first stays; distinct evidences join as examples, at most three; a count may be given', () => {
    const collector = new FindingsCollector();
    const finding = (evidence: string) => ({
      id: 'rule:x',
      severity: 'major' as const,
      kind: 'rule' as const,
      title: 't',
      expected: null,
      seen: null,
      evidence,
    });
    collector.add(finding('a'));
    collector.add(finding('a'));
    collector.add(finding('b'));
    collector.add(finding('c'), 5);
    collector.add(finding('d'));
    expect(collector.list()[0]).toMatchObject({ evidence: 'a', count: 9, examples: ['a', 'b', 'c'] });
    const single = new FindingsCollector();
    single.add(finding('only'));
    expect(single.list()[0]?.examples).toBeUndefined();
  });
});

describe("whose advertisement an edge is judged against (issue 40): the target's own word, not afp's assumption", () => {
  test("the deployed scheme reads the edge an answer states (house_edge_pct, percent) and nothing else; afp's scheme is advertised by the documents", () => {
    expect(DEPLOYED_SCHEME.statedEdgeOf?.('wheel', { multiplier: 0, won: false, house_edge_pct: 9.5 })).toBe(0.095);
    expect(DEPLOYED_SCHEME.statedEdgeOf?.('wheel', { multiplier: 0, won: false })).toBeNull();
    // Its text too, with or without the sign (stated-percent.ts: one reader); other text is no figure.
    expect(DEPLOYED_SCHEME.statedEdgeOf?.('wheel', { house_edge_pct: '9.5' })).toBe(0.095);
    expect(DEPLOYED_SCHEME.statedEdgeOf?.('wheel', { house_edge_pct: '9.5%' })).toBe(0.095);
    expect(DEPLOYED_SCHEME.statedEdgeOf?.('wheel', { house_edge_pct: 'about 9.5%' })).toBeNull();
    expect(DEPLOYED_SCHEME.documentsAdvertise).toBeUndefined();
    expect(AFP_SCHEME.documentsAdvertise).toBe(true);
  });

  test("a deployed variant that states no edge: its published edge against the documents' figure is info, minor when gross; never major", () => {
    const coins = range(40).map((nonce) => deployedBet('coin_flip', HEADS, nonce, ['side_chosen', 'outcome', 'roll']));
    const documents: AdvertisedEdge = { edge: 0.02, text: '2%' };
    const fed = feed(DEPLOYED_SCHEME, coins);
    const verdict = judge(DEPLOYED_SCHEME, 'coin_flip', HEADS, fed, null);
    const outcome: VariantOutcome = {
      variant: {
        game: 'coin_flip',
        variant: 'coin_flip:heads',
        params: HEADS,
        amountMicro: STAKE,
        advertised: documents,
        documentsEdge: null,
      },
      sample: null,
      placed: 40,
      verified: 40,
      followedRule: 40,
      followedMapping: 40,
      contradicting: 0,
      contradictingExample: null,
      brokeMapping: 0,
      tier: fed.tier,
      refused: 0,
      verdict,
      sprt: null,
      advertisedBy: null,
    };
    const findings = new FindingsCollector();
    recordEdgeFindings(
      findings,
      {
        variants: [outcome],
        placed: 40,
        verified: 40,
        refused: 0,
        stakedMicro: STAKE * 40n,
        placedStakeMicro: STAKE * 40n,
        stoppedBy: null,
        minimums: new Map(),
        balanceBeforeMicro: null,
        balanceAfterMicro: null,
      },
      DEPLOYED_SCHEME,
    );
    const edge = findings.list().find((finding) => finding.id === 'edge:coin_flip:heads');
    expect(edge).toMatchObject({
      severity: 'info',
      title: "coin_flip:heads: the deployed scheme's published rule gives 0.500%; the documents advertise 2%",
    });
    expect(
      findings.list().filter((finding) => finding.severity === 'major' || finding.severity === 'critical'),
    ).toEqual([]);
  });
});

describe('a draw off the mapping: the same severity in both audits, major only where the answer contradicts itself', () => {
  const COIN = { game: 'coin_flip', variant: 'coin_flip:heads', params: HEADS };
  const flip = (side: JsonValue): string => (side === 'heads' ? 'tails' : 'heads');
  /** Each bet as the rule draws it, then `shown` turns its result and win flag into what the target answers. */
  const coins = (shown: (bet: SchemeBet, outcome: JsonValue) => SchemeBet): SchemeBet[] =>
    range(60).map((nonce) => {
      const bet = deployedBet('coin_flip', HEADS, nonce, ['side_chosen', 'outcome', 'roll']);
      const won = (bet.paidMicro ?? 0n) > 0n;
      return shown({ ...bet, won }, (bet.result as JsonObject)['outcome'] ?? null);
    });
  /** A losing flip shown as the side chosen (heads, heads) while flagged lost: the probe's LIE_OUTCOME. */
  const lying = coins((bet, outcome) =>
    bet.won === false && bet.nonce % 3 === 0
      ? { ...bet, result: { ...(bet.result as JsonObject), outcome: flip(outcome) } }
      : bet,
  );
  /** An honest target that maps every draw to the other side, and pays by what it shows. */
  const inverted = coins((bet, outcome) => {
    const shownOutcome = flip(outcome);
    const won = shownOutcome === 'heads';
    return {
      ...bet,
      won,
      result: { ...(bet.result as JsonObject), outcome: shownOutcome },
      paidMicro: won ? (STAKE * 199n) / 100n : 0n,
      multiplier: won ? 1.99 : 0,
    };
  });

  function severities(bets: readonly SchemeBet[]): { edge: string | undefined; fairness: string | undefined } {
    const edge = new FindingsCollector();
    recordEdgeFindings(edge, resultOf(DEPLOYED_SCHEME, COIN, bets, HALF_POINT), DEPLOYED_SCHEME);
    const fairness = new FindingsCollector();
    for (const bet of bets)
      recordVerification(fairness, {
        bet,
        variant: COIN.variant,
        seedHex: SEED,
        verdict: DEPLOYED_SCHEME.verify(bet, SEED),
        scheme: 'deployed',
        contradictsItself: selfContradiction(DEPLOYED_SCHEME, bet),
      });
    return {
      edge: edge.list().find((finding) => finding.id === 'rule:coin_flip:scheme')?.severity,
      fairness: fairness.list().find((finding) => finding.id === 'rule:coin_flip:outcome')?.severity,
    };
  }

  test('an answer whose result says heads on heads and whose won flag says lost: major in both', () => {
    expect(lying.some((bet) => selfContradiction(DEPLOYED_SCHEME, bet))).toBe(true);
    expect(severities(lying)).toEqual({ edge: 'major', fairness: 'major' });
  });

  test('an honest target that changed its draw mapping (its answers agree with themselves): minor in both', () => {
    expect(inverted.some((bet) => selfContradiction(DEPLOYED_SCHEME, bet))).toBe(false);
    expect(severities(inverted)).toEqual({ edge: 'minor', fairness: 'minor' });
  });
});
