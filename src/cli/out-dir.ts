/**
 * Whether a directory flag's value (`--out DIR`) can hold the command's reports, asked before the
 * command runs: a path that is a file, or that passes through a file, or whose nearest existing
 * directory is not writable, is invalid input (exit 2) with its reason, before a simulation of
 * minutes has run. Why here and not where the reports are written: that was after the run, and the
 * failure was a crash (exit 1, a stack trace from mkdir). It only reads the file system; the
 * directory is still made by the writer.
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
  let path = resolve(dir);
  for (let depth = 0; depth < DEPTH_MAX; depth++) {
    const stats = statOf(path);
    if (stats !== undefined) {
      if (!stats.isDirectory()) return path === resolve(dir) ? 'is a file, not a directory' : `${path} is a file`;
      try {
        accessSync(path, constants.W_OK | constants.X_OK);
      } catch {
        return path === resolve(dir) ? 'is not writable' : `${path} is not writable`;
      }
      return null;
    }
    const parent = dirname(path);
    if (parent === path) return null;
    path = parent;
  }
  return null;
}
