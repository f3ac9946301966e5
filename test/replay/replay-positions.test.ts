// The replay's following of recorded positions (src/replay/replay-positions.ts): quantities read
// from both styles' `fill_qty`; an order on the other side of the whole followed quantity closes
// the live position, another quantity ends the following, refused orders move nothing.
import { describe, expect, test } from 'vitest';
import { fillQtyOf, ReplayPositions } from '../../src/replay/replay-positions.ts';

const ok = { kind: 'ok' as const, value: { orderId: 'o', status: 'open', feeMicro: null, positionId: 'pos_live_1' } };
const order = (side: 'long' | 'short') => ({ symbol: 'BTC-PERP', side, sizeMicro: 10_000_000n, leverage: 2 });

describe('replay positions', () => {
  test('fill_qty as a JSON number (style A) or a decimal string (style B), in 1e-8 units', () => {
    expect(fillQtyOf({ fill_qty: 0.00010636 })).toBe(10_636n);
    expect(fillQtyOf({ fill_qty: '1.5' })).toBe(150_000_000n);
    expect(fillQtyOf({ fill_qty: 1e-8 })).toBe(1n);
    expect(fillQtyOf({ fill_qty: null })).toBeNull();
    expect(fillQtyOf({ fill_qty: '-1' })).toBeNull();
    expect(fillQtyOf([])).toBeNull();
  });

  test('two fills on one side, then the other side of their sum: a close of the live position', () => {
    const positions = new ReplayPositions();
    positions.ordered('carol', order('long'), { outcome: ok, body: { fill_qty: 0.0001 } }, ok);
    positions.ordered('carol', order('long'), { outcome: ok, body: { fill_qty: 0.00005 } }, ok);
    expect(positions.closing('carol', order('short'), { fill_qty: 0.0001 })).toBeNull();
    expect(positions.closing('carol', order('long'), { fill_qty: 0.00015 })).toBeNull();
    expect(positions.closing('bob', order('short'), { fill_qty: 0.00015 })).toBeNull();
    const held = positions.closing('carol', order('short'), { fill_qty: 0.00015 });
    expect(held).toMatchObject({
      agent: 'carol',
      symbol: 'BTC-PERP',
      side: 'long',
      qty: 15_000n,
      livePositionId: 'pos_live_1',
    });
    if (held !== null) positions.closed(held);
    expect(positions.closing('carol', order('short'), { fill_qty: 0.00015 })).toBeNull();
  });

  test('a refused recorded order moves nothing; an opposite fill of another quantity ends the following', () => {
    const positions = new ReplayPositions();
    positions.ordered(
      'carol',
      order('long'),
      {
        outcome: { kind: 'refused', refusal: { status: 422, name: 'INSUFFICIENT_BALANCE', message: '', body: null } },
        body: { fill_qty: 0.0001 },
      },
      ok,
    );
    expect(positions.closing('carol', order('short'), { fill_qty: 0.0001 })).toBeNull();
    positions.ordered('carol', order('long'), { outcome: ok, body: { fill_qty: 0.0001 } }, ok);
    positions.ordered('carol', order('short'), { outcome: ok, body: { fill_qty: 0.00004 } }, ok);
    expect(positions.closing('carol', order('short'), { fill_qty: 0.00006 })).toBeNull();
  });
});
