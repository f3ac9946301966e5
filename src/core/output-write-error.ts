/**
 * A report or output file that could not be written: a folder where a file goes (EISDIR), a full
 * or read-only disk, a permission. Not a bug of afp's but a problem with the place the user named,
 * so every command ends it as invalid input (exit 2) with the path and the reason, as the --out
 * checks before a run do (src/cli/output-path.ts), never as a crash with a stack trace.
 * Why an error type and not a returned status: the writers sit deep under the commands (reports,
 * findings, sweep files). It is a CommandFailure carrying exit 2 (command-failure.ts), so the
 * command's JSON/exit wrapper (src/cli/json-output.ts) and the dispatcher end it as any failure.
 * Only the writers throw it (`writingTo`, `writeTextFiles`), so a failed read elsewhere stays what it was.
 */
import { writeFileAtomic } from './atomic-file.ts';
import { CommandFailure } from './command-failure.ts';
import { EXIT } from './exit-codes.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The words for the errors a write meets most; any other is shown by its own message. */
const REASONS: Readonly<Record<string, string>> = {
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of its path is a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is spent',
  EEXIST: 'it exists',
  ENAMETOOLONG: 'the name is too long',
};

export class OutputWriteError extends CommandFailure {
  readonly path: string;
  constructor(path: string, cause: unknown) {
    const code = cause instanceof Error ? (cause as NodeJS.ErrnoException).code : undefined;
    const known = code === undefined ? undefined : REASONS[code];
    const reason =
      known === undefined ? (cause instanceof Error ? cause.message : String(cause)) : `${known} (${code ?? ''})`;
    super(EXIT.invalidInput, `cannot write ${path}: ${reason}`, undefined, { cause });
    this.name = 'OutputWriteError';
    this.path = path;
  }
}

/** Runs `write` (which writes `path`); a failure becomes an OutputWriteError naming `path`. */
export function writingTo<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw error instanceof OutputWriteError ? error : new OutputWriteError(path, error);
  }
}

/** `writingTo` for an asynchronous write. */
export async function writingToAsync<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw error instanceof OutputWriteError ? error : new OutputWriteError(path, error);
  }
}

/** Writes each text file into `dir` (created if needed), in order; returns their paths. */
export function writeTextFiles(
  dir: string,
  files: readonly { readonly file: string; readonly text: string }[],
): string[] {
  writingTo(dir, () => mkdirSync(dir, { recursive: true }));
  return files.map(({ file, text }) => {
    const path = join(dir, file);
    writingTo(path, () => writeFileAtomic(path, text));
    return path;
  });
}
