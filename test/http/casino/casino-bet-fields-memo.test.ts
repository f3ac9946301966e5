// parseBetFields remembers what bettors repeat (the body's keys, the parameters as read, the last
// amount): every answer must still be the plain reading's. Equal parameters share one reading,
// different ones (another value, another presence, -0 against 0, an object value) never do; a
// body with a key the remembered ones lack is refused; failures are never remembered.
import { describe, expect, test } from 'vitest';
import { isFailure } from '../../../src/core/errors.ts';
import {
  amountField,
  parseBetFields,
  parsedParamsOf,
  type ParsedBet,
} from '../../../src/http/routes/casino/casino-bet-fields.ts';
import { dice } from '../../../src/services/casino/games/dice.ts';
import { gameById } from '../../../src/services/casino/games/index.ts';

const parsed = (value: ReturnType<typeof parseBetFields>): ParsedBet => {
  if (isFailure(value)) throw new Error(`unexpected failure: ${value.message}`);
  return value;
};

describe('parseBetFields memos', () => {
  test('equal parameters share one reading; any difference reads afresh, as the plain reading would', () => {
    const first = parsed(
      parseBetFields({ direction: 'over', threshold: 50, amount: 0.01, client_seed: 's' }, dice, 'number'),
    );
    const again = parsed(parseBetFields({ amount: 0.01, threshold: 50, direction: 'over' }, dice, 'number'));
    expect(again.paramsJson).toBe(first.paramsJson);
    expect(again.params).toBe(first.params);
    const other = parsed(parseBetFields({ direction: 'over', threshold: 51, amount: 0.01 }, dice, 'number'));
    expect(other.paramsJson).toEqual({ direction: 'over', threshold: 51 });
    expect(other.params).not.toBe(first.params);
    for (const body of [
      { direction: 'under', threshold: 50, amount: 1 },
      { direction: 'over', threshold: 50, amount: 2 },
    ]) {
      const read = parsed(parseBetFields(body, dice, 'number'));
      expect(read.paramsJson).toEqual({ direction: body.direction, threshold: body.threshold });
      expect(read.params).toEqual(
        dice.parse(read.paramsJson).ok ? (dice.parse(read.paramsJson) as { value: unknown }).value : null,
      );
    }
    expect(isFailure(parseBetFields({ direction: 'over', amount: 0.01 }, dice, 'number'))).toBe(true);
    expect(isFailure(parseBetFields({ direction: 'over', threshold: '50', amount: 0.01 }, dice, 'number'))).toBe(true);
  });

  test('-0 and 0 are not the same parameter; object values are never shared', () => {
    const keno = gameById('keno');
    const picks = [1, 2, 3];
    const one = parsed(parseBetFields({ picks, amount: 0.01 }, keno, 'number'));
    const two = parsed(parseBetFields({ picks, amount: 0.01 }, keno, 'number'));
    expect(two.paramsJson).toEqual(one.paramsJson);
    expect(two.paramsJson).not.toBe(one.paramsJson);
    expect(two.paramsJson['picks']).not.toBe(picks);
    const zero = parseBetFields({ direction: 'over', threshold: 0, amount: 0.01 }, dice, 'number');
    const negativeZero = parseBetFields({ direction: 'over', threshold: -0, amount: 0.01 }, dice, 'number');
    expect(isFailure(zero) ? zero.message : 'ok').toBe(isFailure(negativeZero) ? negativeZero.message : 'ok');
  });

  test('a body with one key more than the remembered ones is refused; failures are not remembered', () => {
    parsed(parseBetFields({ direction: 'over', threshold: 50, amount: 0.01 }, dice, 'number'));
    const extra = parseBetFields({ direction: 'over', threshold: 50, amount: 0.01, bonus: 1 }, dice, 'number');
    expect(isFailure(extra) ? extra.message : '').toMatch(/unknown field for dice: bonus/);
    parsed(parseBetFields({ direction: 'over', threshold: 50, amount: 0.01 }, dice, 'number'));
    expect(amountField({ amount: 0.25 }, 'number')).toBe(250_000n);
    expect(isFailure(amountField({ amount: 0.0000001 }, 'number'))).toBe(true);
    expect(isFailure(amountField({ amount: 0.0000001 }, 'number'))).toBe(true);
    expect(amountField({ amount: 0.25 }, 'number')).toBe(250_000n);
    expect(isFailure(amountField({ amount: -0.25 }, 'number'))).toBe(true);
  });

  test('the answer reads the parameters of the bet just parsed from the memo, any others afresh', () => {
    const read = parsed(parseBetFields({ direction: 'under', threshold: 10, amount: 0.01 }, dice, 'number'));
    const memo = parsedParamsOf(dice, read.paramsJson);
    expect(memo.ok && memo.value).toBe(read.params);
    const fresh = parsedParamsOf(dice, { direction: 'under', threshold: 10 });
    expect(fresh.ok && fresh.value).toEqual(read.params);
    expect(fresh.ok && fresh.value).not.toBe(read.params);
  });
});
