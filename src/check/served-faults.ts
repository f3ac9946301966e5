/**
 * The outages an afp serve was started with (`--scenario`: fault windows, casino game closures), as
 * GET /_afp/platform lists them, read as the check's model faults. Why its own file: both checks
 * read them — the documents' model (check-target.ts) judges an answer inside one as the fault, not a
 * mismatch, and the check through a target's dialects (run-dialect-check.ts) skips a command whose
 * answer was one (a 500 or 503 the serve was told to answer changed nothing).
 * Limits: at most SERVED_FAULTS_MAX windows of each kind are read (a scenario lists a handful).
 */
import { closureFault, type ModelFault } from './check-model.ts';

export const SERVED_FAULTS_MAX = 1_000;

/** The fault windows (`faults`) and game closures (`casino_closures`) of a GET /_afp/platform view; none where it lists none. */
export function servedFaults(view: Readonly<Record<string, unknown>>): ModelFault[] {
  return [...faultsOf(view['faults']), ...closuresOf(view['casino_closures'])];
}

/** Whether a fault window of `service` answering `status` is open at `nowMs` (a closure is not one: it is a 409). */
export function serviceFaultAt(faults: readonly ModelFault[], service: string, status: number, nowMs: number): boolean {
  return faults.some(
    (fault) =>
      fault.game === undefined &&
      fault.service === service &&
      fault.status === status &&
      nowMs >= fault.fromMs &&
      nowMs < fault.untilMs,
  );
}

/** Casino game closures: a bet on the game inside the window is refused 409 GAME_CLOSED. */
function closuresOf(listed: unknown): ModelFault[] {
  if (!Array.isArray(listed)) return [];
  const closures: ModelFault[] = [];
  for (const item of listed.slice(0, SERVED_FAULTS_MAX) as unknown[]) {
    const { game, from_ms: fromMs, until_ms: untilMs } = (item ?? {}) as Record<string, unknown>;
    if (typeof game === 'string' && typeof fromMs === 'number' && typeof untilMs === 'number')
      closures.push(closureFault({ game, fromMs, untilMs }));
  }
  return closures;
}

function faultsOf(listed: unknown): ModelFault[] {
  if (!Array.isArray(listed)) return [];
  const faults: ModelFault[] = [];
  for (const item of listed.slice(0, SERVED_FAULTS_MAX) as unknown[]) {
    const { service, from_ms: fromMs, until_ms: untilMs, status } = (item ?? {}) as Record<string, unknown>;
    if (
      typeof service === 'string' &&
      typeof fromMs === 'number' &&
      typeof untilMs === 'number' &&
      typeof status === 'number'
    )
      faults.push({ service, fromMs, untilMs, status });
  }
  return faults;
}
