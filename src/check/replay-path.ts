/**
 * A failing path as `afp check` reports it and reads it back with `--path` (`<digits:...>@<replayPath>`):
 * fast-check's path to the shrunk counterexample, and the commands' own replay path. One reading
 * for both checks (run-check.ts, and the dialect check: dialect/run-dialect-check.ts), and one way
 * to run a property under a seed, replaying such a path when given, and stopping when asked
 * (Ctrl-C): no run starts once `stop` is aborted, the one in flight finishes, and fast-check reports
 * the runs so far as interrupted (its plugin API: a run answered `PreconditionFailure(true)`).
 */
import fc from 'fast-check';
import type { ReplayPath } from './reported-path.ts';

export { splitPath, type ReplayPath } from './reported-path.ts';

/**
 * Runs `property` `runs` times from `seed`; with a replay path, straight down that path, ending at
 * its failure. Once `stop` is aborted no further run starts (shrinking included): the details say
 * `interrupted`, with the runs that ran.
 */
export interface CheckStop {
  readonly signal: AbortSignal;
  /** Awaited before each run: a turn of the host's event loop, so the signal's handler can run (the CLI's hostTurn). */
  readonly pause: () => Promise<void>;
}

export function checkProperty<T>(
  property: fc.IAsyncPropertyWithHooks<T>,
  seed: number,
  runs: number,
  replay: ReplayPath | null,
  stop?: CheckStop,
): Promise<fc.RunDetails<T>> {
  return fc.check(property, {
    seed,
    numRuns: runs,
    ...(replay === null ? {} : { path: replay.path, endOnFailure: true }),
    ...(stop === undefined ? {} : { plugins: [stopWhenAborted<T>(stop)] }),
  });
}

type Plugin<T> = NonNullable<fc.Parameters<T>['plugins']>[number];

function stopWhenAborted<T>(stop: CheckStop): Plugin<T> {
  return () => ({
    decorateRun: (nestedRun) => async (value) => {
      await stop.pause();
      return stop.signal.aborted ? new fc.PreconditionFailure(true) : nestedRun(value);
    },
  });
}
