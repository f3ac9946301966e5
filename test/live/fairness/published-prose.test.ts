// The reader of a target's published game prose (published-prose.ts): every form DEPLOYED.md §2.1
// and the deployment's game list show, and odd ones, each read exactly or left unread (quoted).
import { describe, expect, test } from 'vitest';
import {
  APPROXIMATE_TOLERANCE,
  readEdgeProse,
  readPayoutProse,
  keyNames,
  statementFor,
  type EdgeStatement,
} from '../../../src/audit/fairness/published-prose.ts';

const edges = (value: Parameters<typeof readEdgeProse>[0]): EdgeStatement[] => {
  const reading = readEdgeProse(value);
  if (reading.kind !== 'read') throw new Error(`not read: ${JSON.stringify(reading)}`);
  return [...reading.statements];
};

describe('house_edge prose', () => {
  test('"0.5%": one figure for the game, ± half its last digit', () => {
    const [one] = edges('0.5%');
    expect(one?.key).toEqual([]);
    expect(one?.edge).toBeCloseTo(0.005, 12);
    expect(one?.tolerance).toBeCloseTo(0.0005, 12);
  });
  test('"~4%" and "~1.5% (with optimal strategy)": approximate, ± one point', () => {
    expect(edges('~4%')[0]?.edge).toBeCloseTo(0.04, 12);
    expect(edges('~4%')[0]?.tolerance).toBe(APPROXIMATE_TOLERANCE);
    const [poker] = edges('~1.5% (with optimal strategy)');
    expect(poker?.edge).toBeCloseTo(0.015, 12);
    expect(poker?.tolerance).toBe(APPROXIMATE_TOLERANCE);
  });
  test('"Player 1.24% | Banker 1.06% | Tie 14.4%": one figure per side, keyed', () => {
    const statements = edges('Player 1.24% | Banker 1.06% | Tie 14.4%');
    expect(statements.map((statement) => [statement.key, Math.round(statement.edge * 1e6)])).toEqual([
      [['player'], 12_400],
      [['banker'], 10_600],
      [['tie'], 144_000],
    ]);
    expect(statementFor(statements, { bet_on: 'banker' })?.text).toBe('Banker 1.06%');
    expect(statementFor(statements, { bet_on: 'dragon' })).toBeNull();
  });
  test('odd spellings: a label, a space before %, a range, a number, a keyed figure with a number in its key', () => {
    expect(edges('House edge: 2.7%')[0]?.edge).toBeCloseTo(0.027, 12);
    const spaced = edges('2.70 %')[0];
    expect(spaced?.edge).toBeCloseTo(0.027, 12);
    expect(spaced?.tolerance).toBeCloseTo(0.00005, 12);
    const range = edges('1-3%')[0];
    expect(range?.edge).toBeCloseTo(0.02, 12);
    expect(range?.tolerance).toBeCloseTo(0.01, 12);
    expect(edges(2.7)[0]?.edge).toBeCloseTo(0.027, 12);
    const keyed = edges('over 50: 0.5%, under 10: 1%');
    expect(statementFor(keyed, { direction: 'under', threshold: 10 })?.text).toBe('under 10: 1%');
  });
  test('nothing said: absent, null, empty', () => {
    expect(readEdgeProse(undefined)).toEqual({ kind: 'silent' });
    expect(readEdgeProse(null)).toEqual({ kind: 'silent' });
    expect(readEdgeProse('  ')).toEqual({ kind: 'silent' });
  });
  test('what is not a figure is unread, quoted: "none", words, objects, over-long prose', () => {
    expect(readEdgeProse('none')).toEqual({ kind: 'unread', text: 'none' });
    expect(readEdgeProse('10% on top of the legs')).toEqual({ kind: 'unread', text: '10% on top of the legs' });
    expect(readEdgeProse({ player: 1.24 })).toEqual({ kind: 'unread', text: '{"player":1.24}' });
    expect(readEdgeProse(true)).toEqual({ kind: 'unread', text: 'true' });
    expect(readEdgeProse('Player 1.24% | Banker lots').kind).toBe('unread');
    const long = readEdgeProse(`${'x'.repeat(500)} 2%`);
    expect(long.kind === 'unread' && long.text.length).toBe(401);
  });
});

describe('payout prose', () => {
  test('"1.96x": one multiplier for the game; a number too', () => {
    expect(readPayoutProse('1.96x')).toEqual({
      kind: 'read',
      statements: [{ key: [], multiplier: 1.96, example: false, text: '1.96x' }],
    });
    expect(readPayoutProse(5.5)).toMatchObject({ kind: 'read', statements: [{ multiplier: 5.5 }] });
  });
  test('"Variable (e.g. over 50 = 1.96x, over 90 = 9.8x)": examples, each for its variant', () => {
    const reading = readPayoutProse('Variable (e.g. over 50 = 1.96x, over 90 = 9.8x)');
    if (reading.kind !== 'read') throw new Error('not read');
    expect(reading.statements.map((statement) => [statement.key, statement.multiplier, statement.example])).toEqual([
      [['over', '50'], 1.96, true],
      [['over', '90'], 9.8, true],
    ]);
    expect(statementFor(reading.statements, { direction: 'over', threshold: 90 })?.multiplier).toBe(9.8);
    expect(statementFor(reading.statements, { direction: 'under', threshold: 50 })).toBeNull();
    expect(readPayoutProse('Variable (e.g. over 50 = 1.96x)')).toMatchObject({
      kind: 'read',
      statements: [{ key: ['over', '50'], multiplier: 1.96 }],
    });
  });
  test('ranges, odds and formulas are descriptions: unread, quoted', () => {
    for (const text of [
      '1x (cherry) to 250x (triple 7)',
      'Player 1:1, Banker 0.95:1, Tie 8:1',
      'Calculated: (1 / probability) * 0.98',
      'Varies by bet type',
      'none',
    ])
      expect(readPayoutProse(text)).toEqual({ kind: 'unread', text });
    expect(readPayoutProse('')).toEqual({ kind: 'silent' });
    expect(readPayoutProse(-2).kind).toBe('unread');
  });
});

describe('keys naming variants', () => {
  test('a number binds to the parameter named after it ("3 mines 5 reveals"), else before it ("mines 3")', () => {
    expect(keyNames(['3', 'mines', '5', 'reveals'], { mines: 3, reveals: 5 })).toBe(true);
    expect(keyNames(['3', 'mines', '5', 'reveals'], { mines: 5, reveals: 3 })).toBe(false);
    expect(keyNames(['1', 'mine', '1', 'reveal'], { mines: 1, reveals: 24 })).toBe(false);
    expect(keyNames(['mines', '3'], { mines: 3, reveals: 5 })).toBe(true);
    expect(keyNames(['2', 'target', 'multiplier'], { target_multiplier: 2 })).toBe(true);
    expect(keyNames(['10', 'target', 'multiplier'], { target_multiplier: 2 })).toBe(false);
  });

  test('a list parameter is named by its length ("3 picks"); names alone name nothing', () => {
    expect(keyNames(['3', 'picks'], { picks: [4, 9, 17] })).toBe(true);
    expect(keyNames(['2', 'picks'], { picks: [4, 9, 17] })).toBe(false);
    expect(keyNames(['picks'], { picks: [4, 9, 17] })).toBe(false);
  });

  test('values stay words of their own: "over 50", "dozen 1", "number 17", "8 rows low"', () => {
    expect(keyNames(['over', '50'], { direction: 'over', threshold: 50 })).toBe(true);
    expect(keyNames(['dozen', '1'], { bet_type: 'dozen_1' })).toBe(true);
    expect(keyNames(['dozen', '1'], { bet_type: 'column_1' })).toBe(false);
    expect(keyNames(['number', '17'], { bet_type: 'number', bet_value: 17 })).toBe(true);
    expect(keyNames(['8', 'rows', 'low'], { rows: 8, risk: 'low' })).toBe(true);
    expect(keyNames(['8', 'rows', 'low'], { rows: 8, risk: 'high' })).toBe(false);
  });

  test("the deployment's keno and mines prose names its variants", () => {
    const reading = readEdgeProse('1 pick: -250% | 3 picks: 12.5%');
    if (reading.kind !== 'read') throw new Error('not read');
    expect(statementFor(reading.statements, { picks: [1, 2, 3] })?.edge).toBe(0.125);
    expect(statementFor(reading.statements, { picks: [7] })?.edge).toBe(-2.5);
  });
});
