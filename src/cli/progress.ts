/**
 * The progress line of every long afp command (run, replay, check, the audits): how much is done,
 * the elapsed time, the rate and the ETA. Presentation only, always on stderr (stdout stays
 * byte-stable): on a terminal one line redrawn in place, at most every TTY_EVERY_MS; elsewhere (a
 * CI log) a plain line at most every PLAIN_EVERY_MS; nothing at all when quiet (--quiet, --json).
 *
 * A redrawn line is overwritten with `\r` and spaces, never an escape sequence: a terminal that
 * takes none (TERM=dumb, an editor's shell) shows the same line as any other.
 * Time comes in through `clock` (src/cli passes the wall clock; tests a hand-moved one), so the
 * lines are a pure function of the updates and the clock's readings.
 * Without a total (a live audit whose work is not known ahead) the ETA is the time budget's end,
 * when one is given, shown as an upper bound.
 */
import type { Clock } from '../core/clock.ts';

export interface ProgressOptions {
  /** What is running, first on the line: `replay`. */
  readonly label: string;
  /** The unit of the count: `exchanges`. */
  readonly unit: string;
  /** The count at which the work is done; null when not known ahead. */
  readonly total: number | null;
  readonly write: (text: string) => void;
  readonly isTty: boolean;
  readonly quiet: boolean;
  readonly clock: Clock;
  /** Without a total: the time budget in ms (the ETA is then at most its end). */
  readonly budgetMs?: number;
  /** The count is a percentage (total 100): shown as `42% of <unit>`, the rate in %/s. */
  readonly percent?: boolean;
}

export const TTY_EVERY_MS = 200;
export const PLAIN_EVERY_MS = 10_000;

/** `1h 02m`, `3m 09s`, `12s`: whole seconds, two units at most. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1_000));
  const hours = Math.floor(seconds / 3_600);
  const minutes = Math.floor(seconds / 60) % 60;
  const rest = seconds % 60;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, '0')}m`;
  if (minutes > 0) return `${minutes}m ${String(rest).padStart(2, '0')}s`;
  return `${rest}s`;
}

function rateText(perSecond: number, unit: string): string {
  const digits = perSecond >= 100 ? 0 : perSecond >= 10 ? 1 : 2;
  return `${perSecond.toFixed(digits)} ${unit}/s`;
}

/**
 * The line for `done` units after `elapsedMs`: pure, so tests can check it exactly. `pace`: the
 * units done and the time passed since the first unit was seen; where given, the ETA goes by it
 * (none until some units came since), so a long set-up before the first unit (accounts funded, a
 * target probed) does not stretch the ETA of the rest. The rate shown stays the whole run's.
 */
export function progressText(
  options: Pick<ProgressOptions, 'label' | 'unit' | 'total' | 'budgetMs' | 'percent'>,
  done: number,
  elapsedMs: number,
  pace?: { readonly done: number; readonly elapsedMs: number },
): string {
  const { total } = options;
  const count =
    options.percent === true
      ? `${done}% of ${options.unit}`
      : total === null
        ? `${done} ${options.unit}`
        : `${done}/${total} ${options.unit} (${total === 0 ? 100 : Math.floor((done / total) * 100)}%)`;
  const parts = [`${options.label}: ${count}`, `elapsed ${formatElapsed(elapsedMs)}`];
  const perSecond = elapsedMs > 0 ? (done * 1_000) / elapsedMs : 0;
  if (elapsedMs > 0) parts.push(rateText(perSecond, options.percent === true ? '%' : options.unit));
  // With a pace, no ETA until units came after the first ones: one unit after a set-up tells nothing of the rest.
  const etaPerSecond =
    pace === undefined ? perSecond : pace.done > 0 && pace.elapsedMs > 0 ? (pace.done * 1_000) / pace.elapsedMs : 0;
  if (total !== null && done > 0 && etaPerSecond > 0)
    parts.push(`ETA ${formatElapsed(((total - done) / etaPerSecond) * 1_000)}`);
  else if (total === null && options.budgetMs !== undefined)
    parts.push(`ETA at most ${formatElapsed(options.budgetMs - elapsedMs)} (the time budget)`);
  return parts.join(' · ');
}

export class Progress {
  private readonly options: ProgressOptions;
  private readonly startMs: number;
  private shownAtMs: number | null = null;
  /** The length of the line drawn in place (0: none): the next one is padded over it, the end blanks it. */
  private drawnLength = 0;
  private done = 0;
  /** When units were first seen done, and how many: the ETA's pace is measured from there. */
  private first: { readonly atMs: number; readonly done: number } | null = null;

  constructor(options: ProgressOptions) {
    this.options = options;
    this.startMs = options.clock.nowMs();
  }

  /** The count is now `done`; draws a line when one is due. */
  update(done: number): void {
    this.done = done;
    const { options } = this;
    if (options.quiet) return;
    const nowMs = options.clock.nowMs();
    if (this.first === null && done > 0) this.first = { atMs: nowMs, done };
    const everyMs = options.isTty ? TTY_EVERY_MS : PLAIN_EVERY_MS;
    const lastMs = this.shownAtMs ?? this.startMs;
    if (nowMs - lastMs < everyMs && !(options.isTty && this.shownAtMs === null)) return;
    this.shownAtMs = nowMs;
    const first = this.first;
    const pace = first === null ? undefined : { done: done - first.done, elapsedMs: nowMs - first.atMs };
    const text = progressText(options, done, nowMs - this.startMs, pace);
    if (options.isTty) {
      options.write(`\r${text}${' '.repeat(Math.max(0, this.drawnLength - text.length))}`);
      this.drawnLength = text.length;
    } else options.write(`${text}\n`);
  }

  /** One more unit done. */
  step(count = 1): void {
    this.update(this.done + count);
  }

  /** The work ended: a redrawn line is cleared (a plain log keeps its lines). */
  finish(): void {
    if (this.drawnLength > 0) this.options.write(`\r${' '.repeat(this.drawnLength)}\r`);
    this.drawnLength = 0;
  }
}

/** The wall clock, for the commands (src/cli is a door for wall time). */
export const WALL_PROGRESS_CLOCK: Clock = { nowMs: () => Date.now() };

/** Progress on the process's stderr. */
export function stderrProgress(
  options: Pick<ProgressOptions, 'label' | 'unit' | 'total' | 'quiet' | 'budgetMs'>,
): Progress {
  return new Progress({
    ...options,
    write: (text) => process.stderr.write(text),
    isTty: process.stderr.isTTY,
    clock: WALL_PROGRESS_CLOCK,
  });
}
