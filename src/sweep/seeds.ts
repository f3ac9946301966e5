/**
 * `--seeds`: which seeds a sweep runs. `1..1000` is a range of integers, `7,42,x9` a list of seed
 * texts, and both combine (`1..100,4242`). Why text seeds too: a seed is any printable word in
 * afp (`afp run --seed`), and a failing seed pasted from a report must sweep as it is.
 * Invariants: at most SWEEP_SEEDS_MAX seeds; no seed twice (a duplicate would count a run twice in
 * the distributions); the order is the text's, which is the order of every report row.
 */
import { SEED_PATTERN, SEED_RULE } from '../core/seed-text.ts';
export const SWEEP_SEEDS_MAX = 1_000_000;
const RANGE = /^(\d{1,15})\.\.(\d{1,15})$/;

export function parseSeeds(text: string): string[] | string {
  const seeds: string[] = [];
  const seen = new Set<string>();
  const add = (seed: string): string | null => {
    if (seen.has(seed)) return `--seeds names seed ${seed} twice`;
    if (seeds.length >= SWEEP_SEEDS_MAX) return `--seeds gives more than ${SWEEP_SEEDS_MAX} seeds`;
    seen.add(seed);
    seeds.push(seed);
    return null;
  };
  for (const part of text.split(',')) {
    if (part === '') return `--seeds has an empty item in '${text.slice(0, 60)}'`;
    const range = RANGE.exec(part);
    if (range !== null) {
      const first = Number(range[1]);
      const last = Number(range[2]);
      if (last < first) return `--seeds range ${part} runs backwards`;
      if (last - first + 1 > SWEEP_SEEDS_MAX) return `--seeds range ${part} has more than ${SWEEP_SEEDS_MAX} seeds`;
      for (let seed = first; seed <= last; seed++) {
        const problem = add(String(seed));
        if (problem !== null) return problem;
      }
      continue;
    }
    if (part.includes('..')) return `--seeds range must be FIRST..LAST with whole numbers, got '${part.slice(0, 40)}'`;
    if (!SEED_PATTERN.test(part)) return `--seeds: a seed is ${SEED_RULE} or commas, got '${part.slice(0, 40)}'`;
    const problem = add(part);
    if (problem !== null) return problem;
  }
  return seeds;
}
