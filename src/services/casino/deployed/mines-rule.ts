/**
 * The deployed casino's mines (spec/DEPLOYED.md §2.3, §2.5): a Fisher–Yates shuffle of cells
 * 0–24 driven by the digest HMAC(seed, "<cs>:<nonce>:mines"): for i = 24 … 1, v is the 16 bits of
 * digest bytes (24 − i) % 32 and the next, big-endian, and j = v % (i + 1); the first `mines`
 * shuffled cells are mines; cells 0 … reveals − 1 are revealed in order, stopping at the first mine. A win pays
 * round4((1/P) × edgeFactor) (published: 0.975), P = Π_{i<reveals} (25 − mines − i)/(25 − i) in doubles.
 *
 * The law is exact: consecutive steps share a digest byte and the modulo is biased, so the
 * shuffle is neither uniform nor a product of independent steps; mines-law.ts counts it as a
 * Markov chain whose work grows with 2^reveals. Where a bound on that work (`minesLawWork`:
 * reachable masks × residues × 256 bytes, summed over the steps) passes MINES_LAW_WORK_MAX the
 * law is null rather than approximated (8 mines 12 reveals is over it; every documented variant,
 * 10 mines 10 reveals included, is under it).
 * The answer also states `win_probability` (P, round4: the document's P, not the biased shuffle's
 * chance) and `note`; neither is compared as an outcome (deployed-scheme.ts).
 */
import { ratio, ZERO } from '../../../core/ratio.ts';
import type { JsonObject } from '../../../core/errors.ts';
import type { Chance } from '../games/game.ts';
import { round4 } from './deployed-roll.ts';
import { minesWinningCount } from './mines-law.ts';
import type { DeployedGameRules } from './deployed-casino-rules.ts';
import { decimalOf, isUnreadable, numberParam, type DeployedRule, type Unreadable } from './deployed-rule.ts';

export const MINES_LAW_WORK_MAX = 64_000_000;
const CELLS = 25;
const BYTE_VALUES = 256;

interface MinesParams {
  readonly mines: number;
  readonly reveals: number;
}

function readMines(params: JsonObject): MinesParams | Unreadable {
  const mines = numberParam(params, 'mines', { min: 1, max: 24, fallback: 3, integer: true });
  if (isUnreadable(mines)) return mines;
  const reveals = numberParam(params, 'reveals', { min: 1, max: CELLS - mines, fallback: 3, integer: true });
  return isUnreadable(reveals) ? reveals : { mines, reveals };
}

/** P of §2.5 as the deployment's double: Π_{i<reveals} (25 − mines − i)/(25 − i). */
function minesChance({ mines, reveals }: MinesParams): number {
  let chance = 1;
  for (let index = 0; index < reveals; index += 1) chance *= (CELLS - mines - index) / (CELLS - index);
  return chance;
}

const minesPayout = (params: MinesParams, edgeFactor: number): number => round4((1 / minesChance(params)) * edgeFactor);

/** The shuffled cells of a digest (DEPLOYED.md: bytes (24 − i) % 32 and the next, big-endian). */
export function shuffledCells(digest: Buffer): number[] {
  const cells = Array.from({ length: CELLS }, (_, cell) => cell);
  for (let i = CELLS - 1; i >= 1; i -= 1) {
    const at = (CELLS - 1 - i) % 32;
    const j = (((digest[at] ?? 0) << 8) | (digest[at + 1] ?? 0)) % (i + 1);
    [cells[i], cells[j]] = [cells[j] as number, cells[i] as number];
  }
  return cells;
}

function binomialNumber(n: number, k: number): number {
  let value = 1;
  for (let index = 0; index < k; index += 1) value = (value * (n - index)) / (index + 1);
  return Math.round(value);
}

/**
 * A bound on the DP's transitions: before step i the revealed values sit on min(i + 1, reveals)
 * candidate positions, between reveals − (24 − i) and i − mines + 1 of them (one leaves per step).
 */
export function minesLawWork({ mines, reveals }: MinesParams): number {
  let work = 0;
  for (let i = CELLS - 1; i >= mines; i -= 1) {
    const positions = Math.min(i + 1, reveals);
    let masks = 0;
    for (let count = Math.max(0, reveals - (CELLS - 1 - i)); count <= Math.min(positions, i - mines + 1); count += 1)
      masks += binomialNumber(positions, count);
    work += masks * (i + 1) * BYTE_VALUES;
  }
  return work;
}

export const minesRule = ({ edgeFactor }: DeployedGameRules['mines']): DeployedRule => ({
  game: 'mines',
  hasLaw(params) {
    const parsed = readMines(params);
    return !isUnreadable(parsed) && minesLawWork(parsed) <= MINES_LAW_WORK_MAX;
  },
  play(params, source) {
    const parsed = readMines(params);
    if (isUnreadable(parsed)) return parsed;
    const minePositions = shuffledCells(source.digest(`${source.clientSeed}:${source.nonce}:mines`)).slice(
      0,
      parsed.mines,
    );
    const planned = Array.from({ length: parsed.reveals }, (_, cell) => cell);
    const hitAt = planned.find((cell) => minePositions.includes(cell));
    // Revealing stops at the first mine: `revealed_cells` ends at `hit_at_cell` on a loss (§2.5).
    const revealed = hitAt === undefined ? planned : planned.slice(0, hitAt + 1);
    const payout = minesPayout(parsed, edgeFactor);
    // `hit_at_cell` is null on a win (no value DEPLOYED.md fixes: never compared, deployed-rule.ts).
    const result: JsonObject = {
      mines_count: parsed.mines,
      reveals_count: parsed.reveals,
      mine_positions: minePositions,
      revealed_cells: revealed,
      hit_mine: hitAt !== undefined,
      hit_at_cell: hitAt ?? null,
      win_probability: round4(minesChance(parsed)),
      payout_on_win: payout,
      note: `Cells 0-${String(CELLS - 1)} are revealed in order; a mine ends the round`,
    };
    return {
      multiplier: hitAt === undefined ? decimalOf(payout) : ZERO,
      multiplierNumber: hitAt === undefined ? payout : 0,
      placedNumber: payout,
      result,
      unordered: ['mine_positions'],
    };
  },
  law(params): readonly Chance[] | null {
    const parsed = readMines(params);
    if (isUnreadable(parsed)) return null;
    if (minesLawWork(parsed) > MINES_LAW_WORK_MAX) return null;
    const won = minesWinningCount(parsed);
    const total = BigInt(BYTE_VALUES) ** BigInt(CELLS + 1 - parsed.mines);
    const chances: Chance[] = [];
    if (won > 0n) chances.push([ratio(won, total), decimalOf(minesPayout(parsed, edgeFactor))]);
    if (won < total) chances.push([ratio(total - won, total), ZERO]);
    return chances;
  },
});
