/**
 * The check of the log entries a loaded checkpoint covers (`afp serve --data`): recovery replays
 * only the entries after the checkpoint, so damage to an entry before it changes nothing served,
 * but it would stop a full replay (the checkpoint gone or of another build) and a salvage there.
 * It is reported once, as a warning naming the entries, instead of staying unseen until then.
 *
 * Why after the start and in slices: reading every entry is what a checkpoint saves a recovery
 * (about 10 µs per entry here: seconds for a million), so the start does not wait for it; it reads
 * ROWS_PER_TURN entries per turn of the event loop (a few ms) between requests, once per start.
 * What counts as damaged: an entry whose CRC-32 or chain does not check (log-entry-decode.ts, command-log.ts), a gap in
 * seq, or a page SQLite cannot read (then nothing after it is read). Non-goal: repairing them.
 */
import { decodeCommandRow, rowChain, type CommandLog } from './command-log.ts';

const ROWS_PER_TURN = 1_000;
/** Entries named in the warning at most (the count says how many in all). */
const NAMED_MAX = 10;

export interface CoveredDamage {
  /** Damaged entries (at most NAMED_MAX are kept; `count` has them all). */
  readonly entries: readonly number[];
  readonly count: number;
  /** Set when a read failed: entries after `readUpTo` were not checked. */
  readonly unreadable: string | null;
  readonly readUpTo: number;
}

/** Checks entries 1..`uptoSeq` over turns of the loop; resolves with what is damaged (null: nothing), or null once `stopped()`. */
export async function scanCoveredEntries(
  log: Pick<CommandLog, 'rows'>,
  uptoSeq: number,
  stopped: () => boolean,
): Promise<CoveredDamage | null> {
  const entries: number[] = [];
  let count = 0;
  let chain = 0;
  let seq = 0;
  const damaged = (entry: number): void => {
    count++;
    if (entries.length < NAMED_MAX) entries.push(entry);
  };
  while (seq < uptoSeq) {
    if (stopped()) return null;
    let rows;
    try {
      rows = log.rows(seq, Math.min(uptoSeq, seq + ROWS_PER_TURN));
    } catch (error) {
      const unreadable = error instanceof Error ? error.message : String(error);
      return { entries, count, unreadable, readUpTo: seq };
    }
    if (rows.length === 0) {
      for (let missing = seq + 1; missing <= uptoSeq && count <= NAMED_MAX; missing++) damaged(missing);
      break;
    }
    for (const row of rows) {
      for (let missing = seq + 1; missing < row.seq; missing++) damaged(missing);
      const stored = row.chain ?? null;
      const crc = row.crc;
      const command = decodeCommandRow(row as unknown as Record<string, unknown>);
      const chainBroken = stored !== null && crc !== null && stored !== rowChain(chain, row.seq, crc);
      if (command.kind === 'corrupt' || chainBroken) damaged(row.seq);
      chain = stored ?? 0;
      seq = row.seq;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return count === 0 ? null : { entries, count, unreadable: null, readUpTo: uptoSeq };
}

/** The warning's lines for `damage` under the checkpoint after entry `checkpointSeq` of FILE. */
export function coveredDamageLines(file: string, checkpointSeq: number, damage: CoveredDamage): string[] {
  const lines: string[] = [];
  if (damage.count > 0) {
    const named = damage.entries.join(', ') + (damage.count > damage.entries.length ? ', …' : '');
    lines.push(
      `afp serve: warning: --data ${file}: ${damage.count} log entr${damage.count === 1 ? 'y' : 'ies'} before the checkpoint after entry ${checkpointSeq} ${damage.count === 1 ? 'is' : 'are'} damaged or missing (${named}); the checkpoint covers them, so what is served is whole, but a replay from the start would stop at entry ${damage.entries[0] ?? ''}: keep a copy of the file while that checkpoint is the only way past them`,
    );
  }
  if (damage.unreadable !== null)
    lines.push(
      `afp serve: warning: --data ${file}: the log cannot be read past entry ${damage.readUpTo} (${damage.unreadable}), before the checkpoint after entry ${checkpointSeq}; the checkpoint covers them, so what is served is whole, but a replay from the start would stop there: keep a copy of the file`,
    );
  return lines;
}
