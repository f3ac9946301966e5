/**
 * What a money probe of `afp audit money` is given: the session, the accounts, where findings go.
 * Why a file of its own: the probes of each service (domain-probes.ts, trading-probes.ts, …) take
 * it and money-probes.ts runs them, so with the type there each probe file and the runner named
 * each other.
 */
import { refusalWords, type LiveOutcome, type CallOutcome, type LiveSession, type SentRequest } from '../../live.ts';
import type { FindingInput, FindingsCollector } from '../../report/findings/finding.ts';
import type { WaitClock } from '../../core/clock.ts';
import { displayRoundingMicro, fromMicro, shownPlaces } from '../../core/live-amount.ts';
import type { Micro } from '../../core/money.ts';

export interface ProbeContext {
  readonly session: LiveSession;
  readonly apiKey: string;
  /** A second account with a small balance (about 1 USDC), for the double spend; null when none. */
  readonly second: { readonly apiKey: string; readonly agentId: string } | null;
  readonly agentId: string;
  /** Where a withdrawal that is not refused would go; null: only an afp serve is probed. */
  readonly withdrawAddress: string | null;
  readonly findings: FindingsCollector;
  readonly curlOf: (request: SentRequest) => string;
  /** The command's clock: a target's now where it cannot be read (an afp serve's is read, GET /_afp/clock). */
  readonly clock: WaitClock;
  /**
   * Funds a fresh account of a service that keeps its own accounts (the deployment's trading and
   * domains), the target's way (domain-probes.ts, the liquidation probe); absent: it cannot.
   */
  readonly fundOwnAccount?: (
    service: 'trading' | 'domains',
    agentId: string,
    apiKey: string,
  ) => Promise<LiveOutcome<string>>;
}

/** Money as some targets write it (2 decimals on a display field): half a cent per figure read. */
export const DISPLAY_ROUNDING_MICRO = 5_000n;
/** The decimals the documents publish for the casino's display fields (DEPLOYED.md §2.4). */
export const DISPLAY_PLACES = 2;

/**
 * The rounding the shown casino figures may carry together: half a unit of each one's last place,
 * DISPLAY_PLACES' or fewer where the figure shows fewer (core/live-amount.ts displayRoundingMicro):
 * a target that rounds its display fields to fewer places is measured, not called wrong. A shown 0
 * is taken at `zeroPlaces`: the most places the answer's other figures show (answerPlaces).
 */
export function shownRoundingMicro(shown: readonly Micro[], zeroPlaces = 0): Micro {
  return shown.reduce((total, figure) => total + displayRoundingMicro(figure, DISPLAY_PLACES, zeroPlaces), 0n);
}

/** The most decimals the answer's nonzero display figures show, at most DISPLAY_PLACES (0 when all are 0). */
export function answerPlaces(figures: readonly (Micro | null)[]): number {
  let most = 0;
  for (const figure of figures)
    if (figure !== null && figure !== 0n)
      most = Math.max(most, Math.min(DISPLAY_PLACES, shownPlaces(fromMicro(figure))));
  return most;
}

/** A finding's `reproduce`: the curl line of the request an outcome sent, where it sent one. */
export function reproduceOf(context: ProbeContext, outcome: CallOutcome<unknown>): { reproduce?: string } {
  return 'request' in outcome ? { reproduce: context.curlOf(outcome.request) } : {};
}

/** The session's counts a probe's skip is told by, taken before it runs (skipCauseOf after). */
export interface CallCounts {
  readonly outOfTime: number;
  readonly unreachable: number;
}

export function callCounts(session: LiveSession): CallCounts {
  return { outOfTime: session.outOfTimeCalls, unreachable: session.unreachableCalls };
}

/**
 * Why a skipped probe was skipped, where the run's end must say so: calls of the session ended for
 * time while it ran (LiveSession.outOfTimeCalls: `outOfTime`), or calls the target did not answer
 * (LiveSession.unreachableCalls: `unreachable`, the latest such call's message). Either ends the
 * command with exit 4: a probe that could not run is no pass. Nothing for a probe that ran, or one
 * skipped for what the target answered or its dialect lacks.
 */
export function skipCauseOf(
  status: 'ran' | 'skipped',
  before: CallCounts,
  session: LiveSession,
): { outOfTime?: true; unreachable?: string } {
  if (status !== 'skipped') return {};
  const unreachable = session.unreachableCalls > before.unreachable ? session.lastUnreachable : null;
  return {
    ...(session.outOfTimeCalls > before.outOfTime ? { outOfTime: true as const } : {}),
    ...(unreachable === null ? {} : { unreachable }),
  };
}

/** The line naming the probes the target's silence skipped (skipCauseOf) and its last unanswered call; null when none. */
export function unansweredLine(
  probes: readonly { readonly name: string; readonly unreachable?: string }[],
): string | null {
  const skipped = probes.filter((probe) => probe.unreachable !== undefined);
  const last = skipped[skipped.length - 1];
  return last === undefined
    ? null
    : `the target did not answer, so these could not run: ${skipped.map((probe) => probe.name).join(', ')} (last: ${last.unreachable ?? ''})`;
}

/** What an answer was, for notes and evidence (a refusal in the target's own words: refusal-text.ts). */
export function answerText(outcome: CallOutcome<unknown>): string {
  switch (outcome.kind) {
    case 'ok':
      return `accepted (${outcome.status})`;
    case 'refused':
      return `refused ${refusalWords(outcome.refusal)}`;
    case 'unreadable':
      return `answered ${outcome.status} without the fields needed`;
    case 'unsupported':
      return `not sent: ${outcome.reason}`;
    case 'unreachable':
      return `no answer: ${outcome.message}`;
    case 'deadline':
      return 'not sent: the time budget ran out';
  }
}

/** A probe's result: its ids of the findings raised (a JUnit test case each), and whether the budget skipped it. */
export interface ProbeResult {
  readonly name: string;
  readonly status: 'ran' | 'skipped';
  readonly note: string;
  /** The ids of the findings this probe raised (for the JUnit test case). */
  readonly findingIds: readonly string[];
  /** Skipped because the time budget could not hold one of its calls (the command then exits 4 naming it). */
  readonly outOfTime?: true;
  /** Skipped because the target did not answer one of its calls: that call's message (the command then exits 4 naming it). */
  readonly unreachable?: string;
}

/**
 * Runs one probe of any family (money, pot, replay): what it raises goes to `findings`, its ids to
 * the result, and a skip the budget or the target's silence caused is marked (skipCauseOf).
 */
export async function runProbe<C>(
  name: string,
  run: (context: C, raise: (finding: FindingInput) => void) => Promise<{ status: 'ran' | 'skipped'; note: string }>,
  context: C & { readonly session: LiveSession; readonly findings: FindingsCollector },
): Promise<ProbeResult> {
  const raised: string[] = [];
  const before = callCounts(context.session);
  const outcome = await run(context, (finding) => {
    raised.push(finding.id);
    context.findings.add(finding);
  });
  return {
    name,
    status: outcome.status,
    note: outcome.note,
    findingIds: [...new Set(raised)],
    ...skipCauseOf(outcome.status, before, context.session),
  };
}
