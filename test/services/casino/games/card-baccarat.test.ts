/**
 * Baccarat: punto banco third-card rules on fixed cards, payouts and pushes, strict parameters,
 * the exact infinite-shoe odds (checked against an independent enumeration of `play` itself),
 * positive edges, and a seeded sampling law over provably fair streams.
 */
import { describe, expect, it } from 'vitest';
import { ONE, ZERO, ratio, ratioFromDecimal, ratioText } from '../../../../src/core/ratio.ts';
import { baccarat, baccaratMultiplier } from '../../../../src/services/casino/games/baccarat.ts';
import { bankerDraws, coupOdds, coupWinner, dealCoup } from '../../../../src/services/casino/games/baccarat-rules.ts';
import { cardCodes } from '../../../../src/services/casino/games/cards.ts';
import { cardSource, enumerateByValue } from './card-support.ts';
import { edgeOf, expectRefused, lawOf, parsed, sampleLaw, totalOf } from './table-support.ts';

/** Deals a coup from codes in dealing order (P, B, P, B, then third cards). */
function coup(text: string): { player: string[]; banker: string[]; winner: string } {
  const dealt = dealCoup(cardSource(text));
  return { player: cardCodes(dealt.player), banker: cardCodes(dealt.banker), winner: coupWinner(dealt) };
}

describe('baccarat third-card rules', () => {
  it('a natural on either side ends the coup', () => {
    expect(coup('4S KH 5S 3H')).toEqual({ player: ['4S', '5S'], banker: ['KH', '3H'], winner: 'player' });
    expect(coup('2S 4H 3S 4D')).toEqual({ player: ['2S', '3S'], banker: ['4H', '4D'], winner: 'banker' });
  });

  it('the player draws on 0–5 and stands on 6–7; a banker facing a standing player draws on 0–5', () => {
    expect(coup('3S 2H 3H 4D')).toEqual({ player: ['3S', '3H'], banker: ['2H', '4D'], winner: 'tie' });
    expect(coup('4S 2H 3H 3D 9C')).toEqual({ player: ['4S', '3H'], banker: ['2H', '3D', '9C'], winner: 'player' });
    expect(coup('4S 3H 3H 3D')).toEqual({ player: ['4S', '3H'], banker: ['3H', '3D'], winner: 'player' });
    expect(coup('5S KH KS 2D 8C 4C')).toEqual({
      player: ['5S', 'KS', '8C'],
      banker: ['KH', '2D', '4C'],
      winner: 'banker',
    });
  });

  it('the banker on 3 stands against a player third 8, draws against a 9', () => {
    expect(coup('AS 2H KS AD 8C').banker).toEqual(['2H', 'AD']);
    expect(coup('AS 2H KS AD 9C 5C').banker).toEqual(['2H', 'AD', '5C']);
  });

  it('the banker on 6 draws only against a player third 6 or 7', () => {
    expect(coup('AS 3H KS 3D 6C 2C').banker).toEqual(['3H', '3D', '2C']);
    expect(coup('AS 3H KS 3D 5C').banker).toEqual(['3H', '3D']);
  });

  it('bankerDraws follows the published table', () => {
    const table: Record<number, number[]> = {
      3: [0, 1, 2, 3, 4, 5, 6, 7, 9],
      4: [2, 3, 4, 5, 6, 7],
      5: [4, 5, 6, 7],
      6: [6, 7],
      7: [],
    };
    for (let total = 0; total <= 7; total++) {
      const expected = total <= 2 ? [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] : (table[total] ?? []);
      const drawn = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((value) => bankerDraws(total, value));
      expect(drawn, `banker ${total}`).toEqual(expected);
      expect(bankerDraws(total, null)).toBe(total <= 5);
    }
  });
});

describe('baccarat module', () => {
  it('pays player 2x, banker 1.95x, tie 9x; a tie pushes player and banker bets', () => {
    expect(baccaratMultiplier('player', 'player')).toEqual(ratio(2));
    expect(baccaratMultiplier('banker', 'banker')).toEqual(ratioFromDecimal('1.95'));
    expect(baccaratMultiplier('tie', 'tie')).toEqual(ratio(9));
    expect(baccaratMultiplier('player', 'tie')).toEqual(ONE);
    expect(baccaratMultiplier('banker', 'tie')).toEqual(ONE);
    expect(baccaratMultiplier('tie', 'banker')).toEqual(ZERO);
    expect(baccaratMultiplier('player', 'banker')).toEqual(ZERO);
  });

  it('parses bet_on strictly', () => {
    expect(parsed(baccarat, { bet_on: 'banker' })).toEqual({ betOn: 'banker' });
    for (const params of [{}, { bet_on: 'Banker' }, { bet_on: 1 }, { bet_on: null }])
      expectRefused(baccarat, params, 'bet_on');
  });

  it('has the exact infinite-shoe odds, checked against an enumeration of play itself', () => {
    const odds = coupOdds();
    expect(ratioText(odds.player)).toBe('2153464/4826809');
    for (const variant of baccarat.variants()) {
      const law = baccarat.distribution(variant.params);
      expect(totalOf(law)).toEqual(ONE);
      const played = enumerateByValue((draws) => baccarat.play(variant.params, draws).multiplier, 2_000_000);
      expect(played, variant.name).toEqual(lawOf(law));
    }
  });

  it('keeps a positive edge on every bet: player 1.228%, banker 1.064%, tie 14.117%', () => {
    const edges = Object.fromEntries(
      baccarat.variants().map((variant) => [variant.name, ratioText(edgeOf(baccarat.distribution(variant.params)))]),
    );
    expect(edges).toEqual({
      'baccarat:player': '4560/371293',
      'baccarat:banker': '256786/24134045',
      'baccarat:tie': '681400/4826809',
    });
    expect(baccarat.advertisedEdge({ betOn: 'tie' })).toEqual(ratioFromDecimal('0.144'));
    expect(baccarat.variants().map((variant) => baccarat.variantName(variant.params))).toEqual([
      'baccarat:player',
      'baccarat:banker',
      'baccarat:tie',
    ]);
  });

  it('samples its distribution from provably fair streams', () => {
    for (const variant of baccarat.variants()) {
      sampleLaw(
        (draws) => baccarat.play(variant.params, draws).multiplier,
        baccarat.distribution(variant.params),
        20_000,
      );
    }
  });

  it('reports cards, totals and the outcome', () => {
    const scripted = { int: cardIndexes('4S KH 5S 3H'), uint32: () => 0, fraction52: () => 0n, sample: () => [] };
    expect(baccarat.play({ betOn: 'tie' }, scripted).detail).toEqual({
      bet_on: 'tie',
      player_cards: ['4S', '5S'],
      banker_cards: ['KH', '3H'],
      player_total: 9,
      banker_total: 3,
      winner: 'player',
      outcome: 'lose',
    });
  });
});

function cardIndexes(text: string): (n: number) => number {
  const next = cardSource(text);
  return (n) => {
    expect(n).toBe(52);
    return next();
  };
}
