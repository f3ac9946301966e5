/**
 * Ctrl-C (SIGINT), and SIGTERM alike, for the commands that stop gracefully on it (`afp run`,
 * `afp load`, `afp sweep`): the handler replaces Node's default exit while it is listening; the
 * returned function stops listening, so a later signal is Node's own again. Why SIGTERM too: it is
 * how `timeout`, CI runners and process managers stop a command, and Node's default for it ended a
 * run with no reports and its temporary event file left behind (k6 and `afp serve` stop gracefully
 * on both). Live-mode code: the only place a CLI command listens for them. `onFirstInterrupt` is
 * the shape `afp run` and `afp sweep` share: the first signal stops the work gracefully, the second
 * quits at once.
 */
export function onProcessInterrupt(handler: (signal: InterruptSignal) => void): () => void {
  const onInt = (): void => handler('SIGINT');
  const onTerm = (): void => handler('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
}

/** The signals a command stops gracefully on. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/**
 * How to `what` (quit at once, cut what is in flight) after this signal, in the terms of the one
 * who sent it: a person at a terminal pressed Ctrl-C; a CI runner or `timeout` sent SIGTERM, and
 * "Ctrl-C again" means nothing to it.
 */
export function againTo(signal: InterruptSignal, what: string): string {
  return signal === 'SIGINT' ? `Ctrl-C again to ${what}` : `SIGTERM received; send it again to ${what}`;
}

/**
 * A turn of the host's event loop. An in-process run or check settles only promises, so without it
 * the signal handler would wait for the whole run: `afp run` and `afp check` take one between two
 * steps of their work.
 */
export const hostTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** An io that can listen for Ctrl-C (its absence: Node's own Ctrl-C). */
export interface InterruptIo {
  onInterrupt?(handler: (signal: InterruptSignal) => void): () => void;
}

/**
 * Listens for one Ctrl-C through `io`: the first calls `handler` and ends the listening, so a
 * second is Node's own and quits at once (one that lands while the listener is set up counts too).
 * Returns the function that ends the listening without one; calling it again does nothing.
 */
export function onFirstInterrupt(io: InterruptIo, handler: (signal: InterruptSignal) => void): () => void {
  let fired = false;
  let listening: (() => void) | undefined;
  const stopListening = (): void => {
    const stop = listening;
    listening = undefined;
    stop?.();
  };
  const unsubscribe = io.onInterrupt?.((signal) => {
    if (fired) return;
    fired = true;
    stopListening();
    handler(signal);
  });
  if (fired) unsubscribe?.();
  else listening = unsubscribe;
  return stopListening;
}

/**
 * Runs `work` with a signal the first Ctrl-C (or SIGTERM) aborts, saying `interrupted` on stderr
 * when it does ("afp run: interrupted: …"; the way to quit at once is added); the listening ends
 * with `work`, so a second Ctrl-C is Node's own. The shape of `afp check` and `afp replay` (`afp run`
 * reads its signal after the work, so it keeps onFirstInterrupt).
 */
export async function whileInterruptible<T>(
  io: InterruptIo & { err(text: string): void },
  interrupted: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const interrupt = new AbortController();
  const stopListening = onFirstInterrupt(io, (signal) => {
    interrupt.abort();
    io.err(`\n${interrupted} (${againTo(signal, 'quit at once')})\n`);
  });
  try {
    return await work(interrupt.signal);
  } finally {
    stopListening();
  }
}
