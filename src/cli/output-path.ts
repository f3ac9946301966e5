/**
 * Whether an output flag's value can be written, asked when the flags are parsed: a directory
 * (`--out DIR`) that is a file, a file (`--record FILE`) that is a directory, a path through a
 * file, or a place that is not writable, is invalid input (exit 2) with its reason, before a
 * simulation of minutes has run. Why not where the reports are written: that was after the run,
 * and the failure was a crash (exit 1, a stack trace from mkdir or open). A directory is asked
 * by making (and at once removing) an empty one in it: access(2) answers "writable" to root on a
 * read-only pseudo file system (/sys, /proc), where mkdir then fails — or, in Node's recursive
 * mkdir on /proc, never returns. A name longer than the file system takes (255 bytes) is refused
 * too. Nothing else is written; the writer still makes what is missing.
 */
import { accessSync, constants, mkdtempSync, rmdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

/** Path components walked up at most (a bound on a pathological path; deeper ones are not checked). */
const DEPTH_MAX = 256;
/** NAME_MAX of Linux's file systems (and macOS's): the longest one path component may be, in bytes. */
const NAME_BYTES_MAX = 255;

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Why `dir` cannot be used as an output directory, or null when it can (it may not exist yet). */
export function outDirProblem(dir: string): string | null {
  const path = resolve(dir);
  const stats = statOf(path);
  if (stats === undefined) return longNameProblem(path) ?? ancestorProblem(path);
  if (!stats.isDirectory()) return 'is a file, not a directory';
  const refused = entryRefused(path);
  return refused === null ? null : `is not writable (${refused})`;
}

/** Why `file` cannot be written as an output file, or null when it can (it may not exist yet). */
export function outFileProblem(file: string): string | null {
  if (file.endsWith('/')) return 'ends in /: it names a directory, not a file';
  const path = resolve(file);
  const stats = statOf(path);
  if (stats === undefined) return longNameProblem(path) ?? ancestorProblem(path);
  if (stats.isDirectory()) return 'is a directory, not a file';
  return writable(path, constants.W_OK) ? null : 'is not writable';
}

/** Whether this process may write the file `path`. */
function writable(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** The problem of the nearest existing ancestor of a missing `path`: it must be a writable directory. */
function ancestorProblem(path: string): string | null {
  let ancestor = dirname(path);
  for (let depth = 0; depth < DEPTH_MAX; depth++) {
    const stats = statOf(ancestor);
    if (stats !== undefined) {
      if (!stats.isDirectory()) return `${ancestor} is a file`;
      const refused = entryRefused(ancestor);
      return refused === null ? null : `${ancestor} is not writable (${refused})`;
    }
    const parent = dirname(ancestor);
    if (parent === ancestor) return null;
    ancestor = parent;
  }
  return null;
}

/** Null when an entry can be made in the directory `dir`, else the error code that refused it. */
function entryRefused(dir: string): string | null {
  try {
    rmdirSync(mkdtempSync(join(dir, '.afp-write-check-')));
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'refused';
  }
}

/** A component of `path` longer than a file system takes (stat then fails with ENAMETOOLONG, not ENOENT). */
function longNameProblem(path: string): string | null {
  const long = path.split(sep).find((name) => Buffer.byteLength(name, 'utf8') > NAME_BYTES_MAX);
  return long === undefined ? null : `has a name of more than ${NAME_BYTES_MAX} bytes (${long.slice(0, 20)}…)`;
}
