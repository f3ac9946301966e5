// IdSource: every id is `prefix` + the first n hex digits of ceil(ceil(n / 2) / 4) 32-bit draws, as
// `Rng.hex` writes them; the ids a seed gives never change (the casino's bets and every later id of
// the stream depend on it). `word()` hands out the same draws for callers writing their own text.
import { describe, expect, test } from 'vitest';
import { IdSource } from '../../src/core/ids.ts';
import { Rng } from '../../src/core/rng.ts';

describe('IdSource', () => {
  test('writes exactly prefix + rng.hex(ceil(n / 2)).slice(0, n), for every length', () => {
    const ids = new IdSource(new Rng('ids'));
    const reference = new Rng('ids');
    const prefixes = ['', 'bet_', 'sk_live_', '0x', 'ag_', 'ref_', 'a-much-longer-prefix-than-usual_'];
    for (let step = 0; step < 3_000; step++) {
      const prefix = prefixes[step % prefixes.length] as string;
      const length = [0, 1, 3, 7, 8, 12, 15, 16, 17, 40, 48, 64, 95, 128, 200][step % 15] as number;
      expect(ids.next(prefix, length)).toBe(prefix + reference.hex(Math.ceil(length / 2)).slice(0, length));
    }
  });

  test('word() is the next 32-bit draw of the same stream', () => {
    const ids = new IdSource(new Rng('words'));
    const reference = new Rng('words');
    expect(ids.next('bet_', 16)).toBe(`bet_${reference.hex(8)}`);
    for (let step = 0; step < 100; step++) expect(ids.word()).toBe(reference.uint32());
    expect(ids.apiKey()).toBe(`sk_live_${reference.hex(24)}`);
  });
});
