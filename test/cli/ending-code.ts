// A command's `main` run as the top runs it, for tests that call it in-process: every command's main
// returns its ending (src/core/command-failure.ts), and only the top (src/cli/dispatch.ts) turns it
// into an exit code and prints a failure's message. `coded(main)` does the same through the io the
// test gave (process.stderr without one), so a test reads the exit code and sees the same lines on
// its captured stderr as a user of the command line sees.
import { exitCodeOf } from '../../src/cli/process-exit.ts';
import type { Ending } from '../../src/core/command-failure.ts';

/** Where a command prints its errors. */
interface Printing {
  err(text: string): void;
}

/** The exit code of an ending, its failure printed through `io.err` (process.stderr without one), as the top does. */
export async function codeOf(ending: Ending | Promise<Ending>, io?: Printing): Promise<number> {
  const write = io === undefined ? (text: string) => process.stderr.write(text) : (text: string) => io.err(text);
  return exitCodeOf(await ending, write);
}

/** A command's main (argv, then its io) as the top runs it: the exit code, a failure printed through that io. */
export function coded<Argv, Io extends Printing>(
  main: (argv: Argv, io?: Io) => Promise<Ending>,
): (argv: Argv, io?: Io) => Promise<number>;
/** The same for a command run that must be given its io (afp agents, afp scenario). */
export function coded<Argv, Io extends Printing>(
  main: (argv: Argv, io: Io) => Promise<Ending>,
): (argv: Argv, io: Io) => Promise<number>;
export function coded<Argv, Io extends Printing>(
  main: (argv: Argv, io?: Io) => Promise<Ending>,
): (argv: Argv, io?: Io) => Promise<number> {
  // An io left out is passed as undefined, so the main's own default (its process io) applies.
  return (argv, io) => codeOf(main(argv, io), io);
}
