/**
 * The terminal of an afp-engine load run (`afp load`, scenario and URL alike): where its lines go,
 * whether stderr is a terminal, Ctrl-C, the wall clock; and the live view's timings, LOAD_PLAIN_EVERY_MS
 * between plain lines and ABORT_CHECK_MS between abortOnFail checks (load-view.ts draws the view).
 * Why apart from load-view.ts: load.ts builds its io before it knows the flags are valid, and the
 * view brings the recorder, the thresholds and the report writers.
 */
import { STDERR, STDOUT } from './colour.ts';
import { onProcessInterrupt, type InterruptSignal } from './process-interrupt.ts';
import { systemLoadClock } from '../load/options.ts';
import type { WaitClock } from '../core/clock.ts';

export const LOAD_PLAIN_EVERY_MS = 5_000;
export const ABORT_CHECK_MS = 1_000;

export interface LoadIo {
  out(text: string): void;
  /** The live view and errors. */
  err(text: string): void;
  readonly errIsTty: boolean;
  /** Calls `handler` on every Ctrl-C (SIGINT); returns the function that stops listening. */
  onInterrupt(handler: (signal: InterruptSignal) => void): () => void;
  readonly clock: WaitClock;
}

export const LOAD_PROCESS_IO: LoadIo = {
  out: STDOUT,
  err: STDERR,
  errIsTty: process.stderr.isTTY,
  onInterrupt: onProcessInterrupt,
  clock: systemLoadClock(),
};
