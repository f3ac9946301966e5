// A large checkpoint is written in parts over several turns of the event loop (checkpoint-store.ts
// writeInParts): read back whole, byte for byte; the row comes last (a checkpoint dropped half-way
// leaves no row, and its parts go at the next write); a small one is written inline; the parts of a
// checkpoint pushed out go a part per turn after the row.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openCommandLog, type CommandLog } from '../../src/server/command-log.ts';
import { CheckpointStore, INLINE_BYTES_MAX, PART_BYTES } from '../../src/server/checkpoint-store.ts';
import type { BlockTime } from '../../src/server/loop-block.ts';
import { LOG_SETTINGS } from '../fixtures/command-logs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-parts-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function freshLog(name: string): Promise<CommandLog> {
  const log = await openCommandLog(join(DIR, name), { knownDefects: [] });
  if ('error' in log) throw new Error(log.error);
  log.adopt({ ...LOG_SETTINGS, seed: '1', startMs: 0 });
  // Entries for the checkpoints to follow (a checkpoint is sealed to the entry it follows).
  for (let atMs = 1; atMs <= 40; atMs++) log.appendAdmin({ kind: 'clock', fromMs: atMs - 1, toMs: atMs });
  expect(log.commit()).toEqual({ ok: true, entries: 40 });
  return log;
}

function bytes(size: number, salt: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let index = 0; index < size; index++) out[index] = (index * 31 + salt) & 255;
  return out;
}

describe('checkpoints written in parts', () => {
  test('a large state: several turns, read back whole; a small one inline', async () => {
    const log = await freshLog('parts.afp');
    try {
      const store = new CheckpointStore(log.database);
      const large = bytes(INLINE_BYTES_MAX + 3 * PART_BYTES + 17, 7);
      const turns: number[] = [];
      expect(
        await store.writeInParts(
          { seq: 10, atMs: 5, codec: 'c', travel: '{"lastNumber":0,"held":[],"clockMovedMs":0}', state: large },
          [],
          () => new Uint8Array(),
          { onTurn: (block) => turns.push(block.wallMs), dropped: () => false },
        ),
      ).toBe(true);
      expect(turns.length).toBe(Math.ceil(large.byteLength / PART_BYTES) + 1);
      expect(Buffer.from(store.state(10) ?? new Uint8Array()).equals(Buffer.from(large))).toBe(true);
      process.stdout.write(
        `checkpoint parts: ${turns.length} turns for ${large.byteLength} bytes, the longest ${Math.max(...turns).toFixed(1)} ms\n`,
      );
      // Dropped half-way: no row, and the next write clears its parts.
      let calls = 0;
      expect(
        await store.writeInParts(
          { seq: 20, atMs: 6, codec: 'c', travel: '{"lastNumber":0,"held":[],"clockMovedMs":0}', state: large },
          [],
          () => new Uint8Array(),
          { onTurn: () => undefined, dropped: () => ++calls >= 2 },
        ),
      ).toBe(false);
      expect(store.newestFirst().map((header) => header.seq)).toEqual([10]);
      const small = bytes(1000, 3);
      expect(
        await store.writeInParts(
          { seq: 30, atMs: 7, codec: 'c', travel: '{"lastNumber":0,"held":[],"clockMovedMs":0}', state: small },
          [],
          () => new Uint8Array(),
          { onTurn: () => undefined, dropped: () => false },
        ),
      ).toBe(true);
      expect(Buffer.from(store.state(30) ?? new Uint8Array()).equals(Buffer.from(small))).toBe(true);
      const parts = log.database.prepare('SELECT DISTINCT seq FROM checkpoint_parts ORDER BY seq').all() as Array<{
        seq: number;
      }>;
      expect(parts.map((row) => Number(row.seq))).toEqual([10]);
      // A third large one pushes 10 out (CHECKPOINTS_KEPT): its parts go after the row, one per turn.
      const written: number[] = [];
      const checkpoint = { seq: 40, atMs: 8, codec: 'c', travel: '{"lastNumber":0,"held":[],"clockMovedMs":0}' };
      const turns40 = { onTurn: (block: BlockTime) => written.push(block.wallMs), dropped: () => false };
      expect(await store.writeInParts({ ...checkpoint, state: large }, [], () => new Uint8Array(), turns40)).toBe(true);
      const partsOfOne = Math.ceil(large.byteLength / PART_BYTES);
      expect(written.length).toBe(partsOfOne + 1 + partsOfOne);
      expect(store.newestFirst().map((header) => header.seq)).toEqual([40, 30]);
      const left = log.database.prepare('SELECT seq, count(*) AS n FROM checkpoint_parts GROUP BY seq').all();
      expect(left.map((row) => [Number(row['seq']), Number(row['n'])])).toEqual([[40, partsOfOne]]);
      expect(Buffer.from(store.state(40) ?? new Uint8Array()).equals(Buffer.from(large))).toBe(true);
    } finally {
      log.close();
    }
  });
});
