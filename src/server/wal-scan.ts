/**
 * A SQLite write-ahead file read as SQLite reads it, to count what it will drop (issue 69 part 6):
 * frames after the last commit frame of the valid chain, which the open silently ignores. Why: a
 * torn WAL (a crash mid-write, a copy cut short) lost its last frames, and the server started as
 * if they had never been there; the log's own tail row (log-tail.ts) was in those frames too, so
 * only the WAL itself can say that something was lost.
 *
 * The format (sqlite.org/fileformat.html, "WAL file format"): a 32-byte header (magic 0x377f0682
 * or 0x377f0683, whose low bit picks the checksums' byte order, the page size, two salts and a
 * checksum of its first 24 bytes), then frames of a 24-byte header (page number, the database size
 * after a commit or 0, the salts, a cumulative checksum) and one page. A frame is valid while its
 * salts are the header's and its checksum, carried on from the frame before, holds; the valid chain
 * ends at the first frame that is not. Frames of that chain past its last commit, and frames (or a
 * part of one) carrying the header's salts beyond it, are lost; frames of other salts are an older
 * generation's, already checkpointed, not lost. The chain's frames past its last commit are kept
 * (their pages as written, checksums holding): wal-tail.ts reads the log's tail row in them, which
 * says how many entries the dropped frames held.
 * Limits: at most SCAN_BYTES_MAX are read (a larger file is not scanned: null); the pages kept are
 * a part of those bytes.
 */
import { readFileSync, statSync } from 'node:fs';

const SCAN_BYTES_MAX = 512 * 1024 * 1024;
const HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const MAGIC_LITTLE = 0x377f0682;
const MAGIC_BIG = 0x377f0683;

export interface WalScan {
  /** Frames SQLite will apply: the valid chain up to and including its last commit frame. */
  readonly committed: number;
  /** Frames (whole or cut) it will drop though they carry the current salts. */
  readonly lost: number;
  readonly lostBytes: number;
  /** The whole frames it will drop whose checksums hold (past the last commit: its pages as written), in order. */
  readonly uncommitted: readonly WalFrame[];
}

/** One frame's page: its number in the database and its bytes (a copy). */
export interface WalFrame {
  readonly page: number;
  readonly bytes: Buffer;
}

type Checksum = readonly [number, number];

/** SQLite's WAL checksum of `bytes` (a multiple of 8 long), carried on from `from`. */
function checksum(bytes: Buffer, from: Checksum, bigEndian: boolean): Checksum {
  let [s0, s1] = from;
  for (let offset = 0; offset + 8 <= bytes.length; offset += 8) {
    const x0 = bigEndian ? bytes.readUInt32BE(offset) : bytes.readUInt32LE(offset);
    const x1 = bigEndian ? bytes.readUInt32BE(offset + 4) : bytes.readUInt32LE(offset + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** What `walFile` holds and what SQLite will drop of it; null where there is none, it is too large, or its header is not a WAL's. */
export function scanWal(walFile: string): WalScan | null {
  const size = statSync(walFile, { throwIfNoEntry: false })?.size ?? 0;
  if (size < HEADER_BYTES || size > SCAN_BYTES_MAX) return null;
  const bytes = readFileSync(walFile);
  const magic = bytes.readUInt32BE(0);
  if (magic !== MAGIC_LITTLE && magic !== MAGIC_BIG) return null;
  const bigEndian = magic === MAGIC_BIG;
  const pageSize = bytes.readUInt32BE(8);
  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  const salts = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  let sum = checksum(bytes.subarray(0, 24), [0, 0], bigEndian);
  const headerValid = sum[0] === bytes.readUInt32BE(24) && sum[1] === bytes.readUInt32BE(28);
  let offset = HEADER_BYTES;
  let committedEnd = HEADER_BYTES;
  let committed = 0;
  let valid = 0;
  let pending: Array<{ readonly page: number; readonly offset: number }> = [];
  while (headerValid && offset + frameBytes <= bytes.length) {
    const header = bytes.subarray(offset, offset + FRAME_HEADER_BYTES);
    if (header.readUInt32BE(8) !== salts[0] || header.readUInt32BE(12) !== salts[1]) break;
    sum = checksum(header.subarray(0, 8), sum, bigEndian);
    sum = checksum(bytes.subarray(offset + FRAME_HEADER_BYTES, offset + frameBytes), sum, bigEndian);
    if (sum[0] !== header.readUInt32BE(16) || sum[1] !== header.readUInt32BE(20)) break;
    valid += 1;
    pending.push({ page: header.readUInt32BE(0), offset: offset + FRAME_HEADER_BYTES });
    offset += frameBytes;
    if (header.readUInt32BE(4) !== 0) {
      committed = valid;
      committedEnd = offset;
      pending = [];
    }
  }
  const uncommitted = pending.map(({ page, offset: at }) => ({
    page,
    bytes: Buffer.from(bytes.subarray(at, at + pageSize)),
  }));
  return { ...lostAfter(bytes, { committed, committedEnd, frameBytes, salts, headerValid }), uncommitted };
}

/** The frames past the committed end that carry the current salts (a cut one counted as one). */
function lostAfter(
  bytes: Buffer,
  at: {
    readonly committed: number;
    readonly committedEnd: number;
    readonly frameBytes: number;
    readonly salts: readonly number[];
    readonly headerValid: boolean;
  },
): Omit<WalScan, 'uncommitted'> {
  let lost = 0;
  let lostBytes = 0;
  for (let offset = at.committedEnd; offset < bytes.length; offset += at.frameBytes) {
    const end = Math.min(bytes.length, offset + at.frameBytes);
    const current =
      !at.headerValid ||
      end - offset < 16 ||
      (bytes.readUInt32BE(offset + 8) === at.salts[0] && bytes.readUInt32BE(offset + 12) === at.salts[1]);
    if (!current) continue;
    lost += 1;
    lostBytes += end - offset;
  }
  return { committed: at.committed, lost, lostBytes };
}
