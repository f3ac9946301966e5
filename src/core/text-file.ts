/**
 * A text file a user named (a scenario, a target file, a load.json, a request body), read whole
 * but bounded. Why not fs.readFile: a directory failed with EISDIR's words, and /dev/zero or a
 * file of gigabytes was read until V8's longest string (about 700 MB of memory, a second or two)
 * before it failed with "Invalid string length". Here a directory is refused by name, a regular
 * file past `maxBytes` by its size before anything is read, and anything else (a pipe from
 * `<(…)`, a device) is read in pieces up to `maxBytes` and refused past it.
 * Expected failures are returned: `reason` completes "cannot read FILE: …"; any other failure of
 * the system keeps its own words (ENOENT and the like).
 * The text is decoded as fs.readFile(path, 'utf8') decodes it (invalid bytes become U+FFFD);
 * `readBoundedFile` gives the bytes as they are (a request body sent unchanged, binary included).
 */
import { open, type FileHandle } from 'node:fs/promises';

/** Bytes per read of a file whose size is not known first (a pipe, a device). */
const PIECE_BYTES = 1 << 16;

export type TextFileRead =
  | { readonly ok: true; readonly text: string }
  /** `code`: the system's error code (ENOENT, EACCES) where the system refused. */
  | { readonly ok: false; readonly reason: string; readonly code?: string };

export type BoundedFileRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: string; readonly code?: string };

export async function readTextFile(path: string, maxBytes: number): Promise<TextFileRead> {
  const read = await readBoundedFile(path, maxBytes);
  return read.ok ? { ok: true, text: read.bytes.toString('utf8') } : read;
}

/** The file's bytes, unchanged, under the same bounds as readTextFile. */
export async function readBoundedFile(path: string, maxBytes: number): Promise<BoundedFileRead> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return failureOf(error);
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) return { ok: false, reason: 'it is a directory, not a file' };
    const tooLarge = { ok: false, reason: `it is larger than ${maxBytes} bytes` } as const;
    if (stats.isFile() && stats.size > maxBytes) return tooLarge;
    const pieces: Buffer[] = [];
    let total = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(Math.min(PIECE_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(piece, 0, piece.length, null);
      if (bytesRead === 0) break;
      pieces.push(piece.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return tooLarge;
    }
    return { ok: true, bytes: Buffer.concat(pieces, total) };
  } catch (error) {
    return failureOf(error);
  } finally {
    await handle.close();
  }
}

function failureOf(error: unknown): { readonly ok: false; readonly reason: string; readonly code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  const reason = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? { ok: false, reason, code } : { ok: false, reason };
}
