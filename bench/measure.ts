/**
 * Measuring one timed round: wall time (monotonic high-resolution clock), operations done, heap
 * used before and after. A garbage collection runs before each round when the runtime lets us
 * force one (`--expose-gc`, or switched on here through V8 flags), so a round does not pay for
 * the previous round's garbage; the phase tables say whether it could.
 * Rounds aggregate into best (most mix requests per second) and median, plain data only.
 *
 * Each phase keeps what its previous round built (`PreviousRound`) until its next round has been
 * measured. Why: the forced collection before a round would otherwise find the last platform
 * garbage, and V8 then drops the hidden classes that no live object uses any more, and with them
 * the optimized code of the request path that depends on them: every round would start with cold
 * code (14-16% of an in-process round, measured by alternating the two in one process). A run of
 * afp never loses them (its platform lives as long as the run); the bench must not either.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface RoundResult {
  /** Operations the phase performed (requests sent, or domain calls made). */
  readonly ops: number;
  /** Requests of the mix this round covered: rates are per mix request, so phases compare. */
  readonly requests: number;
  readonly wallMs: number;
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
}

export interface PhaseSummary {
  readonly rounds: readonly RoundResult[];
  readonly best: RoundResult;
  readonly median: RoundResult;
  readonly bestRequestsPerSecond: number;
  readonly medianRequestsPerSecond: number;
}

let forceGc: (() => void) | null | undefined;

/** A full collection, when one can be forced; false otherwise. */
export function collectGarbage(): boolean {
  if (forceGc === undefined) forceGc = findGc();
  if (forceGc === null) return false;
  forceGc();
  return true;
}

function findGc(): (() => void) | null {
  const global = (globalThis as { gc?: () => void }).gc;
  if (typeof global === 'function') return global;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/** What a phase's previous round built, kept reachable until the phase's next round has run (see the header). */
export class PreviousRound {
  private kept: object | null = null;

  /** Keeps `built` (the round just measured) in place of the round before. */
  replace(built: object): void {
    this.kept = built;
  }

  get held(): boolean {
    return this.kept !== null;
  }
}

export function heapUsedBytes(): number {
  return process.memoryUsage().heapUsed;
}

/** Runs `round` (which reports what it did) between two heap readings. */
export async function measureRound(round: () => Promise<{ ops: number; requests: number }>): Promise<RoundResult> {
  collectGarbage();
  const heapBeforeBytes = heapUsedBytes();
  const startNs = process.hrtime.bigint();
  const done = await round();
  const wallMs = Number(process.hrtime.bigint() - startNs) / 1e6;
  return { ...done, wallMs, heapBeforeBytes, heapAfterBytes: heapUsedBytes() };
}

export function requestsPerSecond(round: RoundResult): number {
  return round.wallMs > 0 ? (round.requests * 1000) / round.wallMs : 0;
}

/** Best and median by mix requests per second (time-bounded rounds may cover fewer requests). */
export function summarize(rounds: readonly RoundResult[]): PhaseSummary {
  if (rounds.length === 0) throw new Error('a phase summary needs at least one round');
  const sorted = [...rounds].sort((a, b) => requestsPerSecond(b) - requestsPerSecond(a));
  const best = sorted[0] as RoundResult;
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as RoundResult;
  return {
    rounds,
    best,
    median,
    bestRequestsPerSecond: requestsPerSecond(best),
    medianRequestsPerSecond: requestsPerSecond(median),
  };
}
