// Pins every answer of the seeded casino bet sequence (casino-bet-sequence.ts) to digests taken
// from the bet path as it was before its optimisation (bench: the casino phase), so the faster
// path is proven byte-identical: same statuses, same bodies, same key order. One run on the
// faithful casino, one with every casino defect on (they branch inside placeBet and settle).
// Digests are per chunk of CHUNK answers, so a failure names the first chunk that differs.
// To re-pin after an INTENDED change of answers: AFP_REPIN_CASINO_ANSWERS=1 npx vitest run <this file>.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { DefectName } from '../../../src/services/shared/context.ts';
import { runBetSequence, type SequenceAnswer } from './casino-bet-sequence.ts';

const FIXTURE = join(import.meta.dirname, 'casino-bet-answers.json');
const CHUNK = 100;
const CASINO_DEFECTS: DefectName[] = [
  'casino-payout-short',
  'casino-biased-draw',
  'casino-replayable-nonce',
  'casino-skip-balance-check',
  'casino-keno-8',
];
const RUNS: ReadonlyArray<readonly [string, string, DefectName[]]> = [
  ['faithful', 'golden-1', []],
  ['defects', 'golden-2', CASINO_DEFECTS],
];

interface Pinned {
  readonly answers: number;
  readonly statuses: Record<string, number>;
  readonly chunks: string[];
}

function pin(answers: readonly SequenceAnswer[]): Pinned {
  const chunks: string[] = [];
  for (let start = 0; start < answers.length; start += CHUNK) {
    const hash = createHash('sha256');
    for (const answer of answers.slice(start, start + CHUNK))
      hash.update(`${answer.step}\n${answer.status}\n${answer.text}\n`);
    chunks.push(hash.digest('hex').slice(0, 32));
  }
  const statuses: Record<string, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  return { answers: answers.length, statuses, chunks };
}

describe('the casino bet path answers exactly as before its optimisation', () => {
  const pinned = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, Pinned>;
  const repinned: Record<string, Pinned> = {};
  for (const [name, seed, defects] of RUNS) {
    test(`${name} casino, seed ${seed}`, () => {
      const now = pin(runBetSequence({ seed, defects }));
      repinned[name] = now;
      if (process.env['AFP_REPIN_CASINO_ANSWERS'] === '1') {
        writeFileSync(FIXTURE, `${JSON.stringify({ ...pinned, ...repinned }, null, 2)}\n`);
        return;
      }
      // The sequence reaches every kind of answer: successes, refusals, bad input.
      expect(Object.keys(now.statuses).sort()).toEqual(expect.arrayContaining(['200', '400', '404']));
      expect(now.answers).toBe(pinned[name]?.answers);
      expect(now.statuses).toEqual(pinned[name]?.statuses);
      const firstDifferent = now.chunks.findIndex((chunk, index) => chunk !== pinned[name]?.chunks[index]);
      expect(
        firstDifferent === -1
          ? 'identical'
          : `answers ${firstDifferent * CHUNK}..${firstDifferent * CHUNK + CHUNK - 1} differ`,
      ).toBe('identical');
    });
  }
});
