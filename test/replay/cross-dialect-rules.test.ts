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
import { coinOfSymbol } from '../../src/live/dialects/deployed/trading.ts';
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

  test('a token send is not replayed (afp sends the native coin); a native send is', () => {
    const row = routeOperationOf('wallet.primary.send');
    expect(row?.notReplayed?.(call({ chain: 'base', to: '0x1', amount: '1', token: '0xusdc' }), ids)).toMatch(
      /token send/,
    );
    expect(row?.notReplayed?.(call({ chain: 'base', to: '0x1', amount: '1' }), ids)).toBeNull();
  });

  test("a reduce or a flip of a netted position is not asked of a target that keeps positions apart, nor the market's later orders", () => {
    const positions = new ReplayPositions();
    const order = (side: 'long' | 'short') => ({ symbol: 'BTC-PERP', side, sizeMicro: 10_000_000n, leverage: 2 });
    const live = accepted({ orderId: 'o', status: 'open', feeMicro: null, positionId: 'pos_1' });
    positions.ordered('carol', order('long'), { outcome: live, body: { fill_qty: 0.0002 } }, live);
    expect(positions.apart('carol', order('long'), { fill_qty: 0.0001 }, 5)).toBeNull();
    expect(positions.apart('carol', order('short'), { fill_qty: 0.0002 }, 6)).toBeNull();
    expect(positions.apart('carol', order('short'), { fill_qty: 0.0001 }, 7)).toMatch(/a reduce of a netted long/);
    expect(positions.apart('carol', order('long'), { fill_qty: 0.0001 }, 8)).toMatch(/left the recording's at seq 7/);
    expect(positions.apart('dave', order('short'), { fill_qty: 0.0001 }, 9)).toBeNull();
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
    expect(coinOfSymbol('BTC-PERP')).toBe('BTC');
    expect(coinOfSymbol('GOLD-PERP')).toBe('xyz:GOLD');
    expect(coinOfSymbol('TSLA-PERP')).toBe('xyz:TSLA');
    expect(coinOfSymbol('NOPE-PERP')).toBe('NOPE');
    expect(coinOfSymbol('xyz:TSLA')).toBe('xyz:TSLA');
  });
});
