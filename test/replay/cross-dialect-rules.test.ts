// What a replay through another dialect calls a fault and what it explains (src/replay/): a
// difference the two dialects document (a deployed escrow's 3-character description, a deployed
// bitcoin send's 501), what afp cannot ask of a target (an escrow for another buyer, a reduce of
// a netted position), and what follows from an earlier cause (a left escrow or address, a later
// expiry by the target's own terms) are info; the same difference without its cause stays major.
// Also the reading side: a deployed error the documents name without a message, and the deployed
// coin of a real-world asset.
import { describe, expect, test } from 'vitest';
import { readAnswer } from '../../src/live/read-answer.ts';
import { dialectByName } from '../../src/live/dialects/index.ts';
import { wireCoinOfSymbol } from '../../src/live/dialects/deployed/trading.ts';
import { Bindings } from '../../src/replay/bindings.ts';
import { compareOutcomes, type ResultDifference } from '../../src/replay/operation-diff.ts';
import { ReplayDivergence } from '../../src/replay/replay-divergence.ts';
import { ReplayPositions } from '../../src/replay/replay-positions.ts';
import { routeOperationOf } from '../../src/replay/route-operations.ts';
import type { IdTranslation, RecordedCall } from '../../src/replay/route-operations-types.ts';

const across = { recordingDialect: 'B', liveDialect: 'deployed' } as const;
const refused = (status: number, name: string, message = '') =>
  ({ kind: 'refused', refusal: { status, name, message, body: null } }) as const;
const accepted = <R>(value: R) => ({ kind: 'ok', value }) as const;

const escrowInput = (description: string) => ({
  amountMicro: 5_000_000n,
  creatorId: 'a',
  counterpartyId: 'b',
  description,
  timeoutHours: 24,
});
const escrowView = { escrowId: 'esc_1', status: 'locked', amountMicro: 5_000_000n, feeMicro: 50_000n };

describe('documented differences between the dialects', () => {
  test("a deployed escrow's refusal of a description under 3 characters is documented; of a longer one it is a fault", () => {
    const compare = (description: string) =>
      compareOutcomes(
        'escrow.create',
        accepted(escrowView),
        refused(400, 'invalid_description', 'description must be 3 to 1000 characters'),
        { bindings: new Bindings(), ...across, input: escrowInput(description) },
      );
    expect(compare('')[0]?.documented).toMatch(/DEPLOYED\.md §4/);
    expect(compare('ab')[0]?.documented).toMatch(/DEPLOYED\.md §4/);
    expect(compare('logo design')[0]?.documented).toBeUndefined();
  });

  test("a deployed bitcoin send's 501 is documented; another chain's 501 is a fault", () => {
    const send = (chain: string) =>
      compareOutcomes(
        'wallet.send',
        accepted({ txHash: '0x1', amount: '0.001' }),
        refused(501, 'not_implemented', 'Bitcoin sends are not implemented yet'),
        { bindings: new Bindings(), ...across, input: { chain, to: 'x', amount: '0.001', privateKey: 'k' } },
      );
    expect(send('bitcoin')[0]?.documented).toMatch(/DEPLOYED\.md §6/);
    expect(send('ethereum')[0]?.documented).toBeUndefined();
  });
});

describe('what afp cannot ask of a target', () => {
  const ids: IdTranslation = {
    agent: (reference) => (reference === '0xabc' ? 'alice' : reference),
    escrow: (id) => id,
    bet: (id) => id,
    order: (id) => id,
    tournament: (id) => id,
    tx: (id) => id,
    domain: () => null,
    address: (address) => address,
    walletKey: () => null,
    moneroKeys: () => null,
  };
  const call = (body: unknown, callerId = 'alice'): RecordedCall => ({
    params: {},
    query: {},
    body,
    answer: undefined,
    callerId,
  });

  test('an escrow for another buyer (refused 403 by the documents) is not replayed; one for the caller, by any of its names, is', () => {
    const row = routeOperationOf('escrow.A.create');
    expect(row?.notReplayed?.(call({ buyer: 'mallory', seller: 'bob', amount: 5 }), ids)).toMatch(
      /buyer is not the caller/,
    );
    expect(row?.notReplayed?.(call({ buyer: 'alice', seller: 'bob', amount: 5 }), ids)).toBeNull();
    expect(row?.notReplayed?.(call({ buyer: '0xabc', seller: 'bob', amount: 5 }), ids)).toBeNull();
  });

  test('an escrow whose referrer is its sender or receiver is not replayed; another referrer is', () => {
    const row = routeOperationOf('escrow.B.create');
    const body = (referrer: string) => ({ amount: '5', receiver: 'bob', description: 'x', referrer });
    expect(row?.notReplayed?.(call(body('bob')), ids)).toMatch(/referrer is its sender or receiver/);
    expect(row?.notReplayed?.(call(body('0xabc')), ids)).toMatch(/referrer is its sender or receiver/);
    expect(row?.notReplayed?.(call(body('carol')), ids)).toBeNull();
  });

  test('a token send names its token; a monero send its sender and keys; a native send is signed with its key', () => {
    const row = routeOperationOf('wallet.primary.send');
    expect(
      row?.notReplayed?.(call({ chain: 'base', to: '0x1', amount: '1', token: '0xusdc' }), ids) ?? null,
    ).toBeNull();
    const keyed = { chain: 'base', to: '0x1', amount: '1', private_key: 'redacted' };
    expect(row?.input(call({ ...keyed, token: '0xusdc' }), ids)).toEqual({
      chain: 'base',
      to: '0x1',
      amount: '1',
      token: '0xusdc',
      privateKey: 'redacted',
    });
    expect(row?.input(call(keyed), ids)).toEqual({ chain: 'base', to: '0x1', amount: '1', privateKey: 'redacted' });
    const monero = { chain: 'monero', to: '4b', amount: '0.2', from: '4a', view_key: 'v', spend_key: 's' };
    expect(row?.input(call(monero), ids)).toEqual({
      chain: 'monero',
      to: '4b',
      amount: '0.2',
      monero: { from: '4a', viewKey: 'v', spendKey: 's' },
    });
    expect(row?.input(call({ ...keyed, token: 7 }), ids)).toBeNull();
  });

  test('a reduce or a flip of a netted position is asked as its close and an order for the rest; without a live position, not at all', () => {
    const positions = new ReplayPositions();
    const order = (side: 'long' | 'short') => ({ symbol: 'BTC-PERP', side, sizeMicro: 10_000_000n, leverage: 2 });
    const live = accepted({ orderId: 'o', status: 'open', feeMicro: null, positionId: 'pos_1' });
    positions.ordered('carol', order('long'), { outcome: live, body: { fill_qty: 0.0004 } }, live);
    expect(positions.resizing('carol', order('long'), { fill_qty: 0.0001 }, 5)).toBeNull();
    expect(positions.resizing('carol', order('short'), { fill_qty: 0.0004 }, 6)).toBeNull();
    const reduce = positions.resizing('carol', order('short'), { fill_qty: 0.0001 }, 7);
    expect(reduce).toMatchObject({ held: { livePositionId: 'pos_1' }, rest: { side: 'long', qty: 30_000n } });
    // The rest's notional is the order's, pro rata: 10 USDC for 0.0001, so 30 USDC for 0.0003.
    expect(typeof reduce === 'object' && reduce !== null ? reduce.rest.sizeMicro : null).toBe(30_000_000n);
    const flip = positions.resizing('carol', order('short'), { fill_qty: 0.0005 }, 8);
    expect(flip).toMatchObject({ rest: { side: 'short', qty: 10_000n, sizeMicro: 2_000_000n } });
    positions.reopened(
      'carol',
      { ...order('short'), sizeMicro: 2_000_000n },
      10_000n,
      accepted({ orderId: 'p', status: 'open', feeMicro: null, positionId: 'pos_2' }),
    );
    expect(positions.closing('carol', order('long'), { fill_qty: 0.0001 })).toMatchObject({ livePositionId: 'pos_2' });
    // No live position known: the reduce is not asked, nor the market's later orders.
    const unknown = accepted({ orderId: 'q', status: 'open', feeMicro: null });
    positions.ordered('dave', order('long'), { outcome: unknown, body: { fill_qty: 0.0002 } }, unknown);
    expect(positions.resizing('dave', order('short'), { fill_qty: 0.0001 }, 9)).toMatch(/a reduce of a netted long/);
    expect(positions.resizing('dave', order('long'), { fill_qty: 0.0001 }, 10)).toMatch(
      /left the recording's at seq 9/,
    );
    expect(positions.resizing('erin', order('short'), { fill_qty: 0.0001 }, 11)).toBeNull();
  });
});

describe('consequences of an earlier cause', () => {
  const difference: ResultDifference = {
    kind: 'rule',
    field: 'status',
    expected: 'expired',
    seen: 'funded',
    note: 'another value',
  };

  test('a difference about an escrow or an address that left the recording is a consequence naming its cause', () => {
    const divergence = new ReplayDivergence();
    divergence.leaveEscrow('esc_1', 'seq 3 (disputed)');
    divergence.leaveAddress('base', '0xa', 'seq 4 (a swap)');
    const [escrow] = divergence.explain('escrow.get', { escrowId: 'esc_1' }, 0, [difference]);
    expect(escrow).toMatchObject({
      consequence: true,
      documented: expect.stringMatching(/left the recording's at seq 3/),
    });
    const [address] = divergence.explain('wallet.balance', { address: '0xa', chain: 'base' }, 0, [difference]);
    expect(address?.consequence).toBe(true);
    expect(divergence.explain('escrow.get', { escrowId: 'esc_2' }, 0, [difference])[0]?.consequence).toBeUndefined();
    expect(divergence.explain('wallet.balance', { address: '0xa', chain: 'solana' }, 0, [difference])).toStrictEqual([
      difference,
    ]);
  });

  test("between the recording's expiry and the target's latest by its own terms, an escrow's difference is that rule's; outside it, a fault", () => {
    const divergence = new ReplayDivergence();
    divergence.expiresLater('esc_1', 1_000, 5_000, 'DEPLOYED.md §4');
    const at = (ms: number) => divergence.explain('escrow.get', { escrowId: 'esc_1' }, ms, [difference])[0];
    expect(at(999)?.documented).toBeUndefined();
    expect(at(1_000)?.documented).toMatch(/as late as .* \(DEPLOYED\.md §4\)/);
    expect(at(4_999)?.documented).toBeDefined();
    expect(at(5_000)?.documented).toBeUndefined();
  });
});

describe('reading a deployment', () => {
  test("the escrow's bare `{error: unauthorized}` lacks a message as documented (info); another bare error is a deviation", () => {
    const deviations = (body: unknown) =>
      readAnswer(dialectByName('deployed'), 'escrow.create', { status: 401, body, json: true }, escrowInput('x'))
        .deviations.filter((deviation) => deviation.field === 'message')
        .map((deviation) => deviation.documented);
    expect(deviations({ error: 'unauthorized' })).toStrictEqual([true]);
    expect(deviations({ error: 'insufficient_balance' })).toStrictEqual([false]);
    expect(deviations({ error: 'unauthorized', message: 'no key' })).toStrictEqual([]);
  });

  test("a perpetual's deployed coin: a crypto asset bare, a real-world asset under xyz:", () => {
    expect(wireCoinOfSymbol('BTC-PERP')).toBe('BTC');
    expect(wireCoinOfSymbol('GOLD-PERP')).toBe('xyz:GOLD');
    expect(wireCoinOfSymbol('TSLA-PERP')).toBe('xyz:TSLA');
    expect(wireCoinOfSymbol('NOPE-PERP')).toBe('NOPE');
    expect(wireCoinOfSymbol('xyz:TSLA')).toBe('xyz:TSLA');
  });
});
