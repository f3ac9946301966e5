/**
 * Whether an output flag's value can be written, asked when the flags are parsed: a directory
 * (`--out DIR`) that is a file, a file (`--record FILE`) that is a directory, a path through a
 * file, or a place that is not writable, is invalid input (exit 2) with its reason, before a
 * simulation of minutes has run. Why not where the reports are written: that was after the run,
 * and the failure was a crash (exit 1, a stack trace from mkdir or open). It only reads the file
 * system; the writer still makes what is missing.
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Path components walked up at most (a bound on a pathological path; deeper ones are not checked). */
const DEPTH_MAX = 256;

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
  if (stats === undefined) return ancestorProblem(path);
  if (!stats.isDirectory()) return 'is a file, not a directory';
  return writable(path) ? null : 'is not writable';
}

/** Why `file` cannot be written as an output file, or null when it can (it may not exist yet). */
export function outFileProblem(file: string): string | null {
  if (file.endsWith('/')) return 'ends in /: it names a directory, not a file';
  const path = resolve(file);
  const stats = statOf(path);
  if (stats === undefined) return ancestorProblem(path);
  if (stats.isDirectory()) return 'is a directory, not a file';
  return writable(path, constants.W_OK) ? null : 'is not writable';
}

/** Whether this process may write `path` (a directory: make entries in it). */
function writable(path: string, mode = constants.W_OK | constants.X_OK): boolean {
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
      return writable(ancestor) ? null : `${ancestor} is not writable`;
    }
    const parent = dirname(ancestor);
    if (parent === ancestor) return null;
    ancestor = parent;
  }
  return null;
}
