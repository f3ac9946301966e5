// What a replay asks a target that lacks an operation (src/replay/read-substitutes.ts): a list's
// escrows and a refund's escrow, read one by one; bounded; nothing for a refused recording.
import { expect, test } from 'vitest';
import type { EscrowView } from '../../src/live/operations.ts';
import { READS_MAX, substituteReads } from '../../src/replay/read-substitutes.ts';

const escrow = (index: number): EscrowView => ({
  escrowId: `esc_${index}`,
  status: 'locked',
  amountMicro: 1_000_000n,
  feeMicro: 10_000n,
});

test('a recorded list reads each escrow it showed, at most READS_MAX, and says how many it left', () => {
  const escrows = Array.from({ length: READS_MAX + 3 }, (_, index) => escrow(index));
  const substitute = substituteReads(
    'escrow.list',
    { role: null, status: null, limit: null },
    {
      kind: 'ok',
      value: { escrows },
    },
  );
  expect(substitute?.reads).toHaveLength(READS_MAX);
  expect(substitute?.reads[0]).toEqual({ escrowId: 'esc_0', live: false, expected: escrows[0] });
  expect(substitute?.unread).toBe(3);
  expect(substitute?.explains).toBeNull();
});

test("a refund reads the target's escrow (already translated) and its difference is the deployment's timeout", () => {
  const substitute = substituteReads(
    'escrow.refund',
    { escrowId: 'esc_live' },
    {
      kind: 'ok',
      value: { status: 'refunded' },
    },
  );
  expect(substitute?.reads).toEqual([{ escrowId: 'esc_live', live: true, expected: { status: 'refunded' } }]);
  expect(substitute?.explains).toMatch(/no refund call/);
});

test('a refused recording, or an operation with no substitute, asks nothing', () => {
  const refused = { kind: 'refused', refusal: { status: 401, name: 'UNAUTHORIZED', message: '', body: null } } as const;
  expect(substituteReads('escrow.list', { role: null, status: null, limit: null }, refused)).toBeNull();
  expect(substituteReads('escrow.get', { escrowId: 'x' }, { kind: 'ok', value: escrow(1) })).toBeNull();
});
