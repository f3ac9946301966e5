/**
 * What an `afp serve --data FILE` start finds lost from FILE, said once on stderr and kept for
 * GET /_afp/state (issue 69 part 6). Why: when the rows after the newest checkpoint were lost
 * (1,989 entries: agents 10,000 → 8,311), or a torn WAL lost its last frames, the server started
 * with no line at all. Two witnesses promise entries the log may no longer hold: its tail row
 * (log-tail.ts, written with each batch), and the tail row in the WAL frames the open drops
 * (wal-scan.ts, wal-tail.ts). Entries missing = the highest promise − the last entry held.
 * Non-goals: refusing to start (the intact prefix is a consistent history; the lines say what it
 * lacks), or which entries they were (their rows are gone).
 */
import type { JsonObject } from '../core/errors.ts';
import type { CommandLog } from './command-log.ts';
import { missingTail, missingTailLine, type MissingTail, type StartLoss } from './log-tail.ts';
import type { WalScan } from './wal-scan.ts';
import { walPromisedSeq } from './wal-tail.ts';

/** What `log` (just opened, its WAL read before: `wal`) lost, and the start's lines saying so (none where nothing was). */
export function findStartLoss(
  file: string,
  log: CommandLog,
  wal: WalScan | null,
): { readonly loss: StartLoss; readonly lines: readonly string[] } {
  // A new log has no commands table yet: it holds nothing, and promises nothing.
  const last = log.existed ? log.lastSeq : 0;
  const tail = log.existed ? missingTail(log.database, last) : null;
  const walLost = wal !== null && wal.lost > 0 ? wal : null;
  const walPromised = walLost === null ? null : walPromisedSeq(log.database, walLost.uncommitted);
  const promises = [tail?.promised ?? null, walPromised].filter((seq): seq is number => seq !== null);
  const promisedUpTo = promises.length === 0 ? null : Math.max(...promises);
  const lines: string[] = [];
  if (tail !== null) lines.push(missingTailLine(file, tail));
  if (walLost !== null) {
    const held = walPromised !== null && walPromised > last ? { last, promised: walPromised } : null;
    lines.push(tornWalLine(file, walLost, held));
  }
  const loss = {
    logEndsAt: last,
    promisedUpTo,
    entriesMissing: promisedUpTo === null ? 0 : Math.max(0, promisedUpTo - last),
    walFramesLost: walLost?.lost ?? 0,
    walBytesLost: walLost?.lostBytes ?? 0,
  };
  return { loss, lines };
}

/** The start's line for a write-ahead file whose last frames SQLite drops; `held`: the entries they held past the log's end, where their tail row says. */
export function tornWalLine(file: string, wal: WalScan, held: MissingTail | null = null): string {
  const frames = `its write-ahead file ends in ${wal.lost} frame${wal.lost === 1 ? '' : 's'} (${wal.lostBytes} bytes) past its last complete commit, which the open drops`;
  if (held === null) return `--data ${file}: ${frames}: what they held is lost (${wal.committed} frames are applied)`;
  const missing = held.promised - held.last;
  return `--data ${file}: ${frames}: they held entries up to ${held.promised}, and the log ends at entry ${held.last}: ${missing} entr${missing === 1 ? 'y is' : 'ies are'} missing (${wal.committed} frames are applied)`;
}

/** GET /_afp/state's `checkpoints.lost_at_start`: null before the start looked. */
export function startLossView(loss: StartLoss | null): JsonObject | null {
  if (loss === null) return null;
  return {
    log_ends_at: loss.logEndsAt,
    promised_up_to: loss.promisedUpTo,
    entries_missing: loss.entriesMissing,
    wal_frames_lost: loss.walFramesLost,
    wal_bytes_lost: loss.walBytesLost,
  };
}
