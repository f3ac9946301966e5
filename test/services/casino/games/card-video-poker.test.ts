/**
 * Video poker (9/6 Jacks or Better): the evaluator on named hands, the pay table, strict holds,
 * the deal/draw mapping of one nonce, the subset-table analysis against brute force, the optimal
 * strategy on textbook hands, the checked-in optimal law recomputed from scratch (RTP 0.995439),
 * and seeded sampling laws. One file, so the analysis tables (~2 s, ~250 MB) are built once.
 */
import { describe, expect, it } from 'vitest';
import { ONE, compare, expectation, ratio, ratioText, ratioToNumber, type Ratio } from '../../../../src/core/ratio.ts';
import { DrawStream } from '../../../../src/services/casino/fair/draw-stream.ts';
import { cardCodes, type Card } from '../../../../src/services/casino/games/cards.ts';
import type { Chance } from '../../../../src/services/casino/games/game.ts';
import { OPTIMAL_PARAMS, deal, holdPositions, videoPoker } from '../../../../src/services/casino/games/video-poker.ts';
import {
  classCounts,
  enumerateOptimalPlay,
  holdExpectedReturn,
  holdLaw,
  optimalHolds,
} from '../../../../src/services/casino/games/video-poker-analysis.ts';
import {
  HAND_CLASSES,
  PAY_TABLE,
  classifyCards,
  classifyHand,
  lawFromClassChances,
} from '../../../../src/services/casino/games/video-poker-hand.ts';
import { lawOfHeldCards, optimalLaw } from '../../../../src/services/casino/games/video-poker-laws.ts';
import { cards } from './card-support.ts';
import { SEED_HEX, edgeOf, expectRefused, lawOf, parsed, sampleLaw, totalOf } from './table-support.ts';

const handClass = (text: string): string => HAND_CLASSES[classifyCards(cards(text))] ?? '?';

/** The law of holding `positions`, by evaluating every draw from the 47 unseen cards. */
function bruteForceLaw(hand: readonly Card[], positions: readonly number[]): Chance[] {
  const held = positions.map((position) => hand[position] as Card);
  const pool = Array.from({ length: 52 }, (_, card) => card).filter((card) => !hand.includes(card));
  const counts = new Array<number>(PAY_TABLE.length).fill(0);
  let total = 0;
  const current = [...held];
  const extend = (from: number): void => {
    if (current.length === 5) {
      const index = classifyHand(current[0] ?? 0, current[1] ?? 0, current[2] ?? 0, current[3] ?? 0, current[4] ?? 0);
      counts[index] = (counts[index] ?? 0) + 1;
      total++;
      return;
    }
    for (let index = from; index < pool.length; index++) {
      current.push(pool[index] ?? 0);
      extend(index + 1);
      current.pop();
    }
  };
  extend(0);
  return counts.flatMap((count, index) =>
    count === 0 ? [] : [[ratio(count, total), ratio(PAY_TABLE[index] ?? 0)] as const],
  );
}

describe('video poker hands', () => {
  it('classifies named hands, wheel and broadway straights included', () => {
    expect(handClass('AS KS QS JS TS')).toBe('royal_flush');
    expect(handClass('9H KH QH JH TH')).toBe('straight_flush');
    expect(handClass('AD 2D 3D 4D 5D')).toBe('straight_flush');
    expect(handClass('AS 2H 3D 4C 5S')).toBe('straight');
    expect(handClass('TS JH QD KC AS')).toBe('straight');
    expect(handClass('KS AH 2D 3C 4S')).toBe('nothing');
    expect(handClass('7S 7H 7D 7C 2S')).toBe('four_of_a_kind');
    expect(handClass('7S 7H 7D 2C 2S')).toBe('full_house');
    expect(handClass('2H 7H 9H JH KH')).toBe('flush');
    expect(handClass('7S 7H 7D 2C 3S')).toBe('three_of_a_kind');
    expect(handClass('7S 7H 2D 2C 3S')).toBe('two_pair');
    expect(handClass('JS JH 2D 5C 9S')).toBe('jacks_or_better');
    expect(handClass('AS AH 2D 5C 9S')).toBe('jacks_or_better');
    expect(handClass('TS TH 2D 5C 9S')).toBe('nothing');
  });

  it("pays casino.md's table as total return; a random hand has the textbook class counts", () => {
    expect(Object.fromEntries(HAND_CLASSES.map((name, index) => [name, PAY_TABLE[index]]))).toEqual({
      nothing: 0,
      jacks_or_better: 1,
      two_pair: 2,
      three_of_a_kind: 3,
      straight: 4,
      flush: 6,
      full_house: 9,
      four_of_a_kind: 25,
      straight_flush: 50,
      royal_flush: 800,
    });
    const counts = lawOfHeldCards([]).map(
      ([probability, multiplier]) => `${ratioText(multiplier)}:${ratioText(probability)}`,
    );
    expect(counts).toEqual([
      '0:1}'.replace(
        '1}',
        ratioText(ratio(2598960 - 337920 - 123552 - 54912 - 10200 - 5108 - 3744 - 624 - 36 - 4, 2598960)),
      ),
      `1:${ratioText(ratio(337920, 2598960))}`,
      `2:${ratioText(ratio(123552, 2598960))}`,
      `3:${ratioText(ratio(54912, 2598960))}`,
      `4:${ratioText(ratio(10200, 2598960))}`,
      `6:${ratioText(ratio(5108, 2598960))}`,
      `9:${ratioText(ratio(3744, 2598960))}`,
      `25:${ratioText(ratio(624, 2598960))}`,
      `50:${ratioText(ratio(36, 2598960))}`,
      `800:${ratioText(ratio(4, 2598960))}`,
    ]);
    // The law of holding nothing is counted, not enumerated: the classification of every hand agrees
    // (the empty subset's row of the analysis table counts all 2,598,960 hands by class).
    const classified = classCounts().subarray(0, HAND_CLASSES.length);
    expect(lawOf(lawOfHeldCards([]))).toEqual(
      lawOf(lawFromClassChances([...classified].map((count) => ratio(count, 2598960)))),
    );
  });
});

describe('video poker parameters and draws', () => {
  it('parses holds as card codes or positions, and an optional nonce', () => {
    expect(parsed(videoPoker, { holds: ['AS', '10h', 'td'] })).toEqual({
      holds: { kind: 'cards', cards: cards('AS TH TD') },
      nonce: null,
    });
    expect(parsed(videoPoker, { holds: [4, 0], nonce: 3 })).toEqual({
      holds: { kind: 'positions', positions: [0, 4] },
      nonce: 3,
    });
    expect(parsed(videoPoker, { holds: [] })).toEqual({ holds: { kind: 'positions', positions: [] }, nonce: null });
    const bad = [
      {},
      { holds: 'AS' },
      { holds: ['AS', 'AS'] },
      { holds: [0, 'AS'] },
      { holds: [5] },
      { holds: [0, 0] },
      { holds: ['XX'] },
      { holds: [1.5] },
      { holds: [0, 1, 2, 3, 4, 4] },
      { holds: 'optimal' },
    ];
    for (const params of bad) expectRefused(videoPoker, params, 'holds');
    for (const nonce of [-1, 'x', 1.5]) expectRefused(videoPoker, { holds: [], nonce }, 'nonce');
  });

  it('checks held cards against the dealt hand', () => {
    const hand = cards('AS KD 7C 7H 2S');
    expect(holdPositions(hand, { kind: 'cards', cards: cards('7H 7C') })).toEqual([2, 3]);
    const refused = holdPositions(hand, { kind: 'cards', cards: cards('7H QS') });
    expect(refused).toMatchObject({ ok: false, status: 400, code: 'BAD_REQUEST' });
    expect(!Array.isArray(refused) && refused.message).toContain('QS');
  });

  it('deals the first five of sample(52, 10) and replaces discards in position order with the next five', () => {
    const ten = new DrawStream(SEED_HEX, 'client', 7).sample(52, 10);
    const hand = deal(new DrawStream(SEED_HEX, 'client', 7));
    expect(hand).toEqual(ten.slice(0, 5));
    const result = videoPoker.play(
      { holds: { kind: 'positions', positions: [1, 3] }, nonce: 7 },
      new DrawStream(SEED_HEX, 'client', 7),
    );
    const final = [ten[5], hand[1], ten[6], hand[3], ten[7]] as Card[];
    expect(result.detail).toEqual({
      dealt_cards: cardCodes(hand),
      held_positions: [1, 3],
      held_cards: cardCodes([hand[1], hand[3]] as Card[]),
      final_cards: cardCodes(final),
      hand: HAND_CLASSES[classifyCards(final)],
      pays: PAY_TABLE[classifyCards(final)],
    });
  });
});

describe('video poker analysis', () => {
  it('matches brute force: hold laws and the optimal hold of whole hands', () => {
    const cases: Array<[string, number[]]> = [
      ['AS KS QS JS 2H', [0, 1, 2, 3]],
      ['JS JH 4C 7D 9S', [0, 1]],
      ['2S 3S 4S 5S KD', [0, 1, 2]],
      ['7C 8D TH QS KC', [4]],
    ];
    for (const [text, positions] of cases) {
      const hand = cards(text);
      expect(lawOf(holdLaw(hand, positions)), text).toEqual(lawOf(bruteForceLaw(hand, positions)));
      expect(holdExpectedReturn(hand, positions)).toEqual(expectation(bruteForceLaw(hand, positions)));
    }
    const hand = cards('9C JD 3H QS 4S');
    let best: Ratio = ratio(0);
    for (let mask = 0; mask < 32; mask++) {
      const positions = [0, 1, 2, 3, 4].filter((position) => (mask & (1 << position)) !== 0);
      const value = expectation(bruteForceLaw(hand, positions));
      if (compare(value, best) > 0) best = value;
    }
    expect(holdExpectedReturn(hand, optimalHolds(hand))).toEqual(best);
  });

  it('plays textbook hands optimally', () => {
    const held = (text: string): string[] => {
      const hand = cards(text);
      return cardCodes(optimalHolds(hand).map((position) => hand[position] as Card));
    };
    expect(held('AS KS QS JS TS')).toEqual(['AS', 'KS', 'QS', 'JS', 'TS']);
    expect(held('AS KS QS JS TH')).toEqual(['AS', 'KS', 'QS', 'JS']);
    expect(held('AS KS QS JS JH')).toEqual(['AS', 'KS', 'QS', 'JS']);
    expect(held('9S KS QS JS TS')).toEqual(['9S', 'KS', 'QS', 'JS', 'TS']);
    expect(held('JS 4C JH 7D 9S')).toEqual(['JS', 'JH']);
    expect(held('2S 2H 5C 5D 9S')).toEqual(['2S', '2H', '5C', '5D']);
    expect(held('3S 9D 3H KS 3C')).toEqual(['3S', '3H', '3C']);
    const quads = cards('KS KH KD KC 2S');
    expect(holdExpectedReturn(quads, optimalHolds(quads))).toEqual(ratio(25));
  });

  it('recomputes the checked-in optimal law exactly: RTP 0.995439 (edge 0.456%)', () => {
    const recomputed = enumerateOptimalPlay();
    const law = optimalLaw();
    expect(lawOf(law)).toEqual(
      lawOf(recomputed.map((chance, index): Chance => [chance, ratio(PAY_TABLE[index] ?? 0)])),
    );
    expect(totalOf(law)).toEqual(ONE);
    expect(ratioText(expectation(law))).toBe('1653526326983/1661102543100');
    expect(ratioToNumber(expectation(law)).toFixed(6)).toBe('0.995439');
    expect(edgeOf(law).num > 0n).toBe(true);
    expect(videoPoker.distribution(OPTIMAL_PARAMS)).toBe(law);
    expect(videoPoker.variants()).toEqual([{ name: 'video_poker:optimal', params: OPTIMAL_PARAMS }]);
    expect(videoPoker.advertisedEdge(OPTIMAL_PARAMS)).toEqual(ratio(15, 1000));
  });

  it('states the law of held cards given a deal that holds them', () => {
    expect(
      lawOf(videoPoker.distribution({ holds: { kind: 'cards', cards: cards('AS KS QS JS') }, nonce: null })),
    ).toEqual({
      '0': '1/2',
      '1': '1/4',
      '4': '1/16',
      '6': '1/6',
      '800': '1/48',
    });
  });

  it('samples its distributions from provably fair streams: optimal play and blind positions', () => {
    sampleLaw(
      (draws) => videoPoker.play(OPTIMAL_PARAMS, draws).multiplier,
      videoPoker.distribution(OPTIMAL_PARAMS),
      20_000,
    );
    const blind = { holds: { kind: 'positions', positions: [0, 2] }, nonce: null } as const;
    sampleLaw((draws) => videoPoker.play(blind, draws).multiplier, videoPoker.distribution(blind), 20_000);
  });
});
