// EscrowBook.list keeps the `limit` newest in one pass instead of sorting an agent's whole history:
// property-tested equal to the definition (every match, sorted newest first — createdAtMs
// descending, then id ascending — and cut at `limit`), on books whose instants tie, appended in
// time order (the walk may stop early) or not.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EscrowBook, type MutableEscrow } from '../../../src/services/escrow/escrow-book.ts';
import {
  ESCROW_ROLES,
  ESCROW_STATUSES,
  type EscrowRecord,
  type EscrowRole,
  type EscrowStatus,
} from '../../../src/services/escrow/escrow-record.ts';

const AGENTS = ['a', 'b', 'c'];

function escrow(
  index: number,
  senderId: string,
  receiverId: string,
  createdAtMs: number,
  status: EscrowStatus,
): MutableEscrow {
  return {
    id: `esc_${String(1_000 - index).padStart(4, '0')}`,
    senderId,
    receiverId,
    amountMicro: 1n,
    feeMicro: 0n,
    netMicro: 1n,
    description: null,
    conditions: null,
    referrerId: null,
    createdAtMs,
    expiresAtMs: createdAtMs + 1,
    status,
    settledAtMs: null,
    txHash: null,
    dispute: null,
  } as MutableEscrow;
}

function definition(
  all: readonly EscrowRecord[],
  options: { agentId: string; role: EscrowRole; status: EscrowStatus | null; limit: number },
): EscrowRecord[] {
  const mine = all.filter(
    (record) =>
      (options.role !== 'receiver' && record.senderId === options.agentId) ||
      (options.role !== 'sender' && record.receiverId === options.agentId),
  );
  const matching = mine.filter((record) => options.status === null || record.status === options.status);
  matching.sort((a, b) =>
    a.createdAtMs !== b.createdAtMs ? b.createdAtMs - a.createdAtMs : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  return matching.slice(0, options.limit);
}

describe('EscrowBook.list', () => {
  test('equals sorting every match and cutting at the limit', () => {
    const record = fc.record({
      sender: fc.integer({ min: 0, max: 2 }),
      offset: fc.integer({ min: 1, max: 2 }),
      atMs: fc.integer({ min: 0, max: 6 }),
      status: fc.constantFrom(...ESCROW_STATUSES),
    });
    const query = fc.record({
      agent: fc.constantFrom(...AGENTS),
      role: fc.constantFrom(...ESCROW_ROLES),
      status: fc.option(fc.constantFrom(...ESCROW_STATUSES)),
      limit: fc.integer({ min: 1, max: 8 }),
    });
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 40 }),
        fc.boolean(),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        (drawn, inTimeOrder, queries) => {
          const book = new EscrowBook();
          const records = inTimeOrder ? [...drawn].sort((a, b) => a.atMs - b.atMs) : drawn;
          const all = records.map((item, index) =>
            escrow(
              index,
              AGENTS[item.sender] as string,
              AGENTS[(item.sender + item.offset) % 3] as string,
              item.atMs,
              item.status,
            ),
          );
          for (const item of all) book.add(item);
          for (const item of queries) {
            const options = { agentId: item.agent, role: item.role, status: item.status, limit: item.limit };
            expect(book.list(options).map((found) => found.id)).toEqual(
              definition(all, options).map((found) => found.id),
            );
          }
        },
      ),
      { seed: 20261123, numRuns: 300 },
    );
  });
});
