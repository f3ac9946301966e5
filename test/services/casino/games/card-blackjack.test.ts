/**
 * Blackjack: soft and hard totals, the dealer's stand-on-all-17s rule, the published hit chart,
 * whole hands on fixed cards (naturals, doubles, busts), strict parameters, exact per-action
 * laws with positive edges, the exact law given the first three cards checked against an
 * enumeration of every later card sequence of `dealBlackjack` itself (the full enumeration is
 * tens of millions of sequences), and a seeded sampling law over provably fair streams.
 */
import { describe, expect, it } from 'vitest';
import { ONE, ZERO, ratio, ratioToNumber } from '../../../../src/core/ratio.ts';
import { blackjack, dealBlackjack } from '../../../../src/services/casino/games/blackjack.ts';
import { dealerHits, handOf, handTotal, policyHits } from '../../../../src/services/casino/games/blackjack-rules.ts';
import { blackjackLawGiven } from '../../../../src/services/casino/games/blackjack-odds.ts';
import { cardCodes, cardOf } from '../../../../src/services/casino/games/cards.ts';
import { cardSource, cards, enumerateByValue } from './card-support.ts';
import { edgeOf, expectRefused, lawOf, parsed, sampleLaw, totalOf } from './table-support.ts';

const total = (text: string): string => {
  const { total: value, soft } = handTotal(handOf(cards(text)));
  return `${soft ? 'soft' : 'hard'} ${value}`;
};

function hand(
  action: 'hit' | 'stand' | 'double',
  text: string,
): { player: string[]; dealer: string[]; multiplier: number; outcome: string } {
  const dealt = dealBlackjack(action, cardSource(text));
  return {
    player: cardCodes(dealt.player),
    dealer: cardCodes(dealt.dealer),
    multiplier: ratioToNumber(dealt.multiplier),
    outcome: dealt.outcome,
  };
}

describe('blackjack totals and policies', () => {
  it('counts an ace as 11 while that stays at or under 21', () => {
    expect(total('AS 6H')).toBe('soft 17');
    expect(total('AS 6H TD')).toBe('hard 17');
    expect(total('AS AH')).toBe('soft 12');
    expect(total('AS AH 9D')).toBe('soft 21');
    expect(total('TS 6H')).toBe('hard 16');
    expect(total('KS QH 5D')).toBe('hard 25');
    expect(total('AS KH')).toBe('soft 21');
  });

  it('the dealer stands on all 17s, soft 17 included', () => {
    expect(dealerHits(handOf(cards('AS 6H')))).toBe(false);
    expect(dealerHits(handOf(cards('TS 6H')))).toBe(true);
    expect(dealerHits(handOf(cards('AS 5H')))).toBe(true);
  });

  it('the hit chart: hard 12 stands against 4–6, hard 13–16 hits against 7–A, soft 18 hits against 9–A', () => {
    const hits = (text: string, up: number): boolean => policyHits(handOf(cards(text)), up);
    expect([2, 3, 4, 5, 6, 7, 1].map((up) => hits('TS 2H', up))).toEqual([true, true, false, false, false, true, true]);
    expect([2, 6, 7, 10, 1].map((up) => hits('TS 6H', up))).toEqual([false, false, true, true, true]);
    expect([8, 9, 10, 1].map((up) => hits('AS 7H', up))).toEqual([false, true, true, true]);
    expect(hits('AS 6H', 2)).toBe(true);
    expect(hits('TS 7H', 10)).toBe(false);
    expect(hits('5S 6H', 10)).toBe(true);
  });
});

describe('blackjack hands on fixed cards (dealing order: player, dealer up, player, dealer hole)', () => {
  it('a natural pays 2.5x, two naturals push, a dealer natural beats a double', () => {
    expect(hand('stand', 'AS 9H KD TC')).toEqual({
      player: ['AS', 'KD'],
      dealer: ['9H', 'TC'],
      multiplier: 2.5,
      outcome: 'player_blackjack',
    });
    expect(hand('hit', 'AS AH KD TC').multiplier).toBe(1);
    expect(hand('double', '5S AH 6D TC')).toEqual({
      player: ['5S', '6D'],
      dealer: ['AH', 'TC'],
      multiplier: 0,
      outcome: 'dealer_blackjack',
    });
  });

  it('double takes exactly one card and a win returns 2x the amount sent', () => {
    expect(hand('double', '5S 6H 6D TC 2C KH')).toEqual({
      player: ['5S', '6D', '2C'],
      dealer: ['6H', 'TC', 'KH'],
      multiplier: 2,
      outcome: 'dealer_bust',
    });
    expect(hand('double', '5S 6H 6D TC 2C 5H').multiplier).toBe(0);
  });

  it('stand draws nothing; the dealer draws to 17 and stands on soft 17', () => {
    expect(hand('stand', 'TS 6H 8D AC')).toEqual({
      player: ['TS', '8D'],
      dealer: ['6H', 'AC'],
      multiplier: 2,
      outcome: 'player_higher',
    });
    expect(hand('stand', 'TS 5H 6D 2C AC')).toEqual({
      player: ['TS', '6D'],
      dealer: ['5H', '2C', 'AC'],
      multiplier: 0,
      outcome: 'dealer_higher',
    });
    expect(hand('stand', 'TS 7H 7D KC').multiplier).toBe(1);
  });

  it('the infinite shoe allows a 12-card dealer hand: six aces, a 6, four aces, a 5', () => {
    const dealt = hand('stand', 'TS AS 7D AH AD AC AS AH 6S AD AC AS AH 5S');
    expect(dealt.dealer).toHaveLength(12);
    expect(dealt).toMatchObject({ multiplier: 0, outcome: 'dealer_higher' });
    expect(total(dealt.dealer.join(' '))).toBe('hard 21');
  });

  it('hit follows the chart and a busted player loses before the dealer draws', () => {
    expect(hand('hit', 'TS 9H 6D 9C 8S')).toEqual({
      player: ['TS', '6D', '8S'],
      dealer: ['9H', '9C'],
      multiplier: 0,
      outcome: 'player_bust',
    });
    expect(hand('hit', 'TS 5H 7D 9C KS')).toEqual({
      player: ['TS', '7D'],
      dealer: ['5H', '9C', 'KS'],
      multiplier: 2,
      outcome: 'dealer_bust',
    });
    expect(hand('hit', '2S 9H 3D 9C 4S 8S')).toEqual({
      player: ['2S', '3D', '4S', '8S'],
      dealer: ['9H', '9C'],
      multiplier: 0,
      outcome: 'dealer_higher',
    });
  });
});

describe('blackjack module', () => {
  it('parses action strictly', () => {
    expect(parsed(blackjack, { action: 'double' })).toEqual({ action: 'double' });
    for (const params of [{}, { action: 'split' }, { action: 'Hit' }, { action: true }])
      expectRefused(blackjack, params, 'action');
  });

  it('states exact laws over 0, 1, 2 and 2.5 that sum to 1, with positive edges', () => {
    const edges: Record<string, number> = {};
    for (const variant of blackjack.variants()) {
      const law = blackjack.distribution(variant.params);
      expect(totalOf(law)).toEqual(ONE);
      expect(law.map(([, multiplier]) => ratioToNumber(multiplier))).toEqual([0, 1, 2, 2.5]);
      expect(law[3]?.[0]).toEqual(ratio(8 * 161, 169 * 169));
      edges[variant.name] = Number(ratioToNumber(edgeOf(law)).toFixed(6));
      expect(edgeOf(law).num > 0n).toBe(true);
    }
    expect(edges).toEqual({ 'blackjack:hit': 0.024208, 'blackjack:stand': 0.160377, 'blackjack:double': 0.311373 });
    expect(blackjack.advertisedEdge({ action: 'hit' })).toEqual(ratio(2, 100));
    expect(blackjack.distribution({ action: 'stand' }).some(([probability]) => probability === ZERO)).toBe(false);
  });

  it('states, given the first three cards, exactly the law of play over every later card sequence', () => {
    const cases = [
      ['hit', 1, 6, 9],
      ['hit', 10, 2, 4],
      ['hit', 10, 2, 7],
      ['hit', 1, 7, 10],
      ['hit', 9, 9, 10],
      ['double', 5, 6, 10],
      ['stand', 10, 6, 1],
    ] as const;
    for (const [action, first, second, upValue] of cases) {
      const played = enumerateByValue((draws) => {
        const preset = [cardOf(first, 0), cardOf(upValue, 0), cardOf(second, 0)];
        return dealBlackjack(action, () => preset.shift() ?? draws.int(52)).multiplier;
      }, 1_000_000);
      expect(played, `${action} ${first}+${second} against ${upValue}`).toEqual(
        lawOf(blackjackLawGiven(action, first, second, upValue)),
      );
    }
  });

  it('samples its distribution from provably fair streams', () => {
    for (const variant of blackjack.variants()) {
      sampleLaw(
        (draws) => blackjack.play(variant.params, draws).multiplier,
        blackjack.distribution(variant.params),
        20_000,
      );
    }
  });
});
