// Identifiers a target issues, read as strings or whole numbers (WireReader.id): DEPLOYED.md §5
// gives `position_id` and `order_id` no type, and §7 `domain_id` none, so a deployment issuing
// integers is honest. A prober's trading service answering `"position_id": 1` drew two majors
// ("not string") in `afp audit money`, exit 3, and its liquidation probe could not find the
// position it opened. Pure: the deployed dialect's own rows read the answers.
import { describe, expect, test } from 'vitest';
import { rowOf } from '../../src/live/dialects/dialect.ts';
import { dialectByName } from '../../src/live/dialects/index.ts';
import { WireReader } from '../../src/live/wire-reader.ts';

const deployed = dialectByName('deployed');

describe('WireReader.id', () => {
  test('a string as it is, a whole number as its decimal string; anything else a type deviation', () => {
    const reader = new WireReader({ a: 'pos_1', b: 42, c: 1.5, d: -3, e: true });
    const types = (): string[] =>
      reader
        .deviations()
        .filter((deviation) => deviation.kind === 'type')
        .map((deviation) => `${deviation.kind} ${deviation.field}`);
    expect([reader.id('a'), reader.id('b')]).toEqual(['pos_1', '42']);
    expect(types()).toEqual([]);
    expect([reader.id('c'), reader.id('d'), reader.id('e')]).toEqual([null, null, null]);
    expect(types()).toEqual(['type c', 'type d', 'type e']);
  });

  test("the deployed trading rows read integer position and order ids with no deviation, as the position list's", () => {
    const order = rowOf(deployed, 'trading.order');
    const positions = rowOf(deployed, 'trading.positions');
    expect(order).not.toBeNull();
    expect(positions).not.toBeNull();
    if (order === null || positions === null) return;
    const opened = new WireReader({
      position_id: 1,
      order_id: 7,
      coin: 'BTC',
      side: 'long',
      size_usd: 20,
      entry_price: 65000,
      leverage: 5,
      margin_used: 4,
      liquidation_price: 52000,
      fee: 0.011,
      status: 'open',
    });
    const result = order.read(opened, { symbol: 'BTC-PERP', side: 'long', sizeMicro: 20_000_000n, leverage: 5 });
    expect(result).toMatchObject({ positionId: '1' });
    expect(opened.deviations().filter((deviation) => deviation.kind === 'type')).toEqual([]);
    const listed = new WireReader({
      positions: [{ position_id: 1, coin: 'BTC', side: 'long', size_usd: 20, leverage: 5 }],
      count: 1,
    });
    expect(positions.read(listed, {})?.positions.map((position) => position.positionId)).toEqual(['1']);
    expect(listed.deviations().filter((deviation) => deviation.kind === 'type')).toEqual([]);
  });
});
