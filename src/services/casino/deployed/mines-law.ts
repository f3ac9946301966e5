/**
 * The exact law of the deployed mines shuffle (mines-rule.ts states the draw): how many of the
 * 256^(26 − mines) byte sequences that decide a bet leave every revealed cell free of mines.
 *
 * The shuffle is a Markov chain over (where the revealed values sit among the unfixed positions,
 * as a bit mask; r = 256 · previous byte mod (i + 1), the shared byte's carry into step i): only
 * steps 24 … mines matter, and a win is "no revealed value left among positions 0 … mines − 1".
 * Step i reads a byte b: j = (r + b) mod (i + 1) moves the mask, and 256 · b mod i is the next
 * carry. Why it is cheap (it was seconds of bigint sums per law, in every process that audits):
 *   - b acts through s = b mod (i + 1) alone on the mask, so the masks move once per s (the j
 *     that leave a mask as it is are one sum: the mask's total less the others), then each of the
 *     256 bytes carries its s to its next carry: (i + 1)·(bits + 1) + 256 sums per mask, not
 *     (i + 1) × 256;
 *   - the masks and their moves are planned once; the counts run in doubles modulo a few primes
 *     (residue-number.ts), joined into the exact bigint at the end.
 * The same states are dropped as lost (more revealed values than steps left to fix them), and the
 * count is the same whole number as the plain chain's (test/services/casino/deployed/mines-law.test.ts).
 */
import { assert } from '../../../core/assert.ts';
import { joinResidues, PRIME_BELOW, residuePrimes } from './residue-number.ts';

const CELLS = 25;
const BYTE_VALUES = 256;

export interface MinesShape {
  readonly mines: number;
  readonly reveals: number;
}

/** After swapping positions i and j and fixing i: where the revealed values sit among 0 … i − 1. */
export function afterStep(mask: number, i: number, j: number): number {
  const redAtI = (mask >> i) & 1;
  const cleared = mask & ~(1 << i) & ~(1 << j);
  return j === i || redAtI === 0 ? cleared : cleared | (1 << j);
}

export const popCount = (mask: number): number => {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count += 1;
  return count;
};

/** One step's moves: per source mask, the groups of j that lead to one target (or to a loss). */
interface StepPlan {
  readonly residues: number;
  readonly nextResidues: number;
  readonly targets: number;
  /** Per source: its groups are groupStart[source] … groupStart[source + 1] − 1. */
  readonly groupStart: Int32Array;
  /** A group's target mask index, or −1: lost. */
  readonly groupTarget: Int32Array;
  /** A group's j are js[jStart[group]] … js[jStart[group + 1] − 1]. */
  readonly jStart: Int32Array;
  readonly js: Int32Array;
  /** Per source: the target of the j in no listed group (the source's total less the groups), or −1. */
  readonly restTarget: Int32Array;
  /** Per byte: b mod (i + 1), and the next carry 256 · b mod i (0 after the last step). */
  readonly byteS: Int32Array;
  readonly byteNext: Int32Array;
}

interface Group {
  target: number;
  js: number[];
}

/** Groups the j of one source mask by where they lead; the largest group is left to the rest sum. */
function sourceGroups(mask: number, i: number, mines: number, target: (after: number) => number): Group[] {
  const byAfter = new Map<number, Group>();
  for (let j = 0; j <= i; j += 1) {
    const after = afterStep(mask, i, j);
    const lost = popCount(after) > i - mines; // cannot leave positions 0 … mines − 1 in time
    const key = lost ? -1 : after;
    const group = byAfter.get(key) ?? { target: lost ? -1 : target(after), js: [] };
    group.js.push(j);
    byAfter.set(key, group);
  }
  return [...byAfter.values()];
}

function planStep(sources: readonly number[], i: number, mines: number): { plan: StepPlan; masks: number[] } {
  const masks: number[] = [];
  const index = new Map<number, number>();
  const target = (after: number): number => {
    const known = index.get(after);
    if (known !== undefined) return known;
    index.set(after, masks.length);
    masks.push(after);
    return masks.length - 1;
  };
  const groupStart = [0];
  const groupTarget: number[] = [];
  const jStart = [0];
  const js: number[] = [];
  const restTarget: number[] = [];
  for (const mask of sources) {
    const groups = sourceGroups(mask, i, mines, target);
    const rest = groups.reduce((largest, group) => (group.js.length > largest.js.length ? group : largest));
    restTarget.push(rest.target);
    // A lost rest needs no sum, so the lost group is listed only when the rest is not lost.
    for (const group of groups)
      if (group !== rest && (group.target >= 0 || rest.target >= 0)) {
        groupTarget.push(group.target);
        js.push(...group.js);
        jStart.push(js.length);
      }
    groupStart.push(groupTarget.length);
  }
  const nextResidues = i > mines ? i : 1;
  const bytes = Array.from({ length: BYTE_VALUES }, (_, byte) => byte);
  const plan: StepPlan = {
    residues: i + 1,
    nextResidues,
    targets: masks.length,
    groupStart: Int32Array.from(groupStart),
    groupTarget: Int32Array.from(groupTarget),
    jStart: Int32Array.from(jStart),
    js: Int32Array.from(js),
    restTarget: Int32Array.from(restTarget),
    byteS: Int32Array.from(bytes, (byte) => byte % (i + 1)),
    byteNext: Int32Array.from(bytes, (byte) => (BYTE_VALUES * byte) % nextResidues),
  };
  return { plan, masks };
}

/** The masks moved for every s: moved[target · R + s] = Σ over sources and their j of count[(j − s) mod R]. */
function moveMasks(plan: StepPlan, sources: number, counts: Float64Array, prime: number): Float64Array {
  const residues = plan.residues;
  const moved = new Float64Array(plan.targets * residues);
  for (let source = 0; source < sources; source += 1) {
    const base = source * residues;
    let total = 0;
    for (let r = 0; r < residues; r += 1) total += counts[base + r] as number;
    if (total === 0) continue;
    const restAt = plan.restTarget[source] as number;
    const groupEnd = plan.groupStart[source + 1] as number;
    for (let s = 0; s < residues; s += 1) {
      let rest = total;
      for (let group = plan.groupStart[source] as number; group < groupEnd; group += 1) {
        let sum = 0;
        for (let at = plan.jStart[group] as number; at < (plan.jStart[group + 1] as number); at += 1) {
          const r = (plan.js[at] as number) - s;
          sum += counts[base + (r < 0 ? r + residues : r)] as number;
        }
        rest -= sum;
        const groupAt = plan.groupTarget[group] as number;
        if (groupAt >= 0) moved[groupAt * residues + s] = (moved[groupAt * residues + s] as number) + sum;
      }
      if (restAt >= 0) moved[restAt * residues + s] = (moved[restAt * residues + s] as number) + rest;
    }
  }
  for (let at = 0; at < moved.length; at += 1) moved[at] = (moved[at] as number) % prime;
  return moved;
}

/** Each byte carries its s to its next carry: next[target · R' + r'] = Σ over b of moved[target · R + s(b)]. */
function carryBytes(plan: StepPlan, moved: Float64Array, prime: number): Float64Array {
  const next = new Float64Array(plan.targets * plan.nextResidues);
  for (let targetAt = 0; targetAt < plan.targets; targetAt += 1) {
    const from = targetAt * plan.residues;
    const to = targetAt * plan.nextResidues;
    for (let byte = 0; byte < BYTE_VALUES; byte += 1) {
      const at = to + (plan.byteNext[byte] as number);
      next[at] = (next[at] as number) + (moved[from + (plan.byteS[byte] as number)] as number);
    }
  }
  for (let at = 0; at < next.length; at += 1) next[at] = (next[at] as number) % prime;
  return next;
}

/** The count of winning byte sequences modulo one prime. */
function winningResidue(steps: readonly StepPlan[], start: Float64Array, wonAt: number, prime: number): number {
  let counts = start;
  let sources = 1;
  for (const plan of steps) {
    counts = carryBytes(plan, moveMasks(plan, sources, counts, prime), prime);
    sources = plan.targets;
  }
  return wonAt < 0 ? 0 : (counts[wonAt] as number);
}

/** Counts of winning byte sequences, of 256^(26 − mines). */
export function minesWinningCount({ mines, reveals }: MinesShape): bigint {
  const steps: StepPlan[] = [];
  let masks = [(1 << reveals) - 1];
  for (let i = CELLS - 1; i >= mines; i -= 1) {
    const planned = planStep(masks, i, mines);
    // A moved count sums at most one share (< (i + 1) · prime) per source: it stays an exact double.
    assert(masks.length * (i + 1) * PRIME_BELOW < 2 ** 53, 'mines law: counts stay exact doubles');
    steps.push(planned.plan);
    masks = planned.masks;
  }
  const start = new Float64Array(CELLS); // the first byte's carry into step 24: 256 · b mod 25
  for (let byte = 0; byte < BYTE_VALUES; byte += 1) {
    const carry = (BYTE_VALUES * byte) % CELLS;
    start[carry] = (start[carry] as number) + 1;
  }
  const wonAt = masks.indexOf(0); // after the last step one carry is left (0)
  const primes = residuePrimes(BigInt(BYTE_VALUES) ** BigInt(CELLS + 1 - mines));
  return joinResidues(
    primes.map((prime) => winningResidue(steps, start, wonAt, prime)),
    primes,
  );
}
