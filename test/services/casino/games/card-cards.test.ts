/**
 * The shared card model: index ↔ rank/suit mapping (the published draw mapping depends on it)
 * and the card codes agents send and receive.
 */
import { describe, expect, it } from 'vitest';
import {
  cardCode,
  cardOf,
  isCard,
  parseCardCode,
  pointValue,
  rankOf,
  suitOf,
} from '../../../../src/services/casino/games/cards.ts';

describe('cards', () => {
  it('maps indexes suit-major: 0 = AS, 12 = KS, 13 = AH, 51 = KC', () => {
    expect([0, 9, 12, 13, 26, 39, 51].map(cardCode)).toEqual(['AS', 'TS', 'KS', 'AH', 'AD', 'AC', 'KC']);
    expect(rankOf(12)).toBe(13);
    expect(suitOf(51)).toBe(3);
    expect(cardOf(1, 1)).toBe(13);
  });

  it('round-trips every card through its code', () => {
    const codes = Array.from({ length: 52 }, (_, card) => cardCode(card));
    expect(new Set(codes).size).toBe(52);
    codes.forEach((code, card) => expect(parseCardCode(code)).toBe(card));
  });

  it('accepts lower case and "10" for the ten, refuses anything else', () => {
    expect(parseCardCode('10h')).toBe(parseCardCode('TH'));
    expect(parseCardCode('qd')).toBe(cardOf(12, 2));
    for (const bad of ['', '1S', 'AX', 'AS ', '11H', 'T', 'ASS', '0S']) expect(parseCardCode(bad), bad).toBeNull();
  });

  it('counts J, Q, K as ten points and knows a card from a non-card', () => {
    expect([cardOf(1, 0), cardOf(9, 0), cardOf(10, 0), cardOf(11, 0), cardOf(13, 3)].map(pointValue)).toEqual([
      1, 9, 10, 10, 10,
    ]);
    expect([0, 51, 52, -1, 1.5].map(isCard)).toEqual([true, true, false, false, false]);
  });
});
