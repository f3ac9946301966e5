/**
 * The plan a live house-edge audit prints before its first bet: how many bets each game variant
 * gets, the calls they take (batches of BATCH_BETS where the target offers a batch, single bets,
 * video-poker hands as a deal and a draw, a seed rotation and a seed list per phase), the target's
 * limits it paces under, and the ETA those limits give.
 * ETA: the audit plays phase after phase; within a phase every paced operation keeps its own slots
 * (LiveSession: one call per 60 s / N + 1 ms), so a phase lasts as long as its slowest operation,
 * and the phases add up. Unpaced operations count as instant: the ETA is then a lower bound the
 * target's own speed sets, and the text says so. Pure: a function of the plan and the limits.
 */
import type { PaceLimit } from '../../live.ts';
import {
  BATCH_BETS,
  groupBets,
  LIVE_BETS_MAX,
  PHASE_BETS,
  sentAlone,
  singleBetShare,
  VIDEO_POKER,
} from './edge-calls.ts';
import type { PlannedVariant } from './edge-plan.ts';

export interface AuditEta {
  /** Calls per operation over the whole audit. */
  readonly calls: Readonly<Record<string, number>>;
  /** The paced time in ms (0 when nothing is paced). */
  readonly pacedMs: number;
  /** The operation, or `bucket NAME` (operations the target counts together), whose limit paces the audit most; null when none is paced. */
  readonly slowest: string | null;
  readonly lines: readonly string[];
}

export interface EtaInput {
  readonly plan: readonly PlannedVariant[];
  readonly bets: number;
  /** Whether the target offers a batch call. */
  readonly batched: boolean;
  readonly limits: Readonly<Record<string, PaceLimit>>;
  /** The time budget, for saying when it ends the betting first. */
  readonly maxSeconds: number;
}

const spacingMs = (limit: PaceLimit): number => Math.floor(60_000 / limit.perMinute) + 1;

/** The pace an operation keeps: its own, or its bucket's (one pace for the operations the target counts together). */
const paceOf = (op: string, limit: PaceLimit): string => (limit.bucket === undefined ? op : `bucket ${limit.bucket}`);

function phaseCalls(input: EtaInput, first: number, count: number): Map<string, number> {
  const gameAt = (index: number): string => (input.plan[index % input.plan.length] as PlannedVariant).game;
  const calls = new Map<string, number>([
    ['casino.rotate', 1],
    ['casino.seeds', 1],
  ]);
  const bump = (op: string): void => void calls.set(op, (calls.get(op) ?? 0) + 1);
  const share = input.batched ? singleBetShare(input.limits) : 0;
  const alone = (index: number): boolean => !input.batched || gameAt(index) === VIDEO_POKER || sentAlone(index, share);
  for (const group of groupBets(first, count, alone)) {
    const index = group[0] as number;
    if (gameAt(index) === VIDEO_POKER) {
      bump('casino.deal');
      bump('casino.draw');
    } else bump(group.length === 1 && alone(index) ? 'casino.bet' : 'casino.batch');
  }
  return calls;
}

const minutes = (ms: number): string =>
  ms < 60_000 ? `${Math.max(1, Math.round(ms / 1_000))} s` : `${(ms / 60_000).toFixed(1)} minutes`;

export function auditEta(input: EtaInput): AuditEta {
  const bets = Math.min(input.bets, LIVE_BETS_MAX);
  const calls: Record<string, number> = { 'casino.balance': 2 };
  let pacedMs = 0;
  const pacedByPace = new Map<string, number>();
  for (let first = 0; first < bets; first += PHASE_BETS) {
    // Operations in one bucket share one pace: their calls queue behind each other.
    const byPace = new Map<string, number>();
    for (const [op, count] of phaseCalls(input, first, Math.min(PHASE_BETS, bets - first))) {
      calls[op] = (calls[op] ?? 0) + count;
      const limit = input.limits[op];
      if (limit === undefined) continue;
      const pace = paceOf(op, limit);
      byPace.set(pace, (byPace.get(pace) ?? 0) + count * spacingMs(limit));
    }
    for (const [pace, ms] of byPace) pacedByPace.set(pace, (pacedByPace.get(pace) ?? 0) + ms);
    pacedMs += Math.max(0, ...byPace.values());
  }
  const slowest = [...pacedByPace.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
  return { calls, pacedMs, slowest, lines: etaLines(input, bets, calls, { pacedMs, slowest }) };
}

function etaLines(
  input: EtaInput,
  bets: number,
  calls: Readonly<Record<string, number>>,
  paced: { pacedMs: number; slowest: string | null },
): string[] {
  const variants = input.plan.length;
  const low = variants === 0 ? 0 : Math.floor(bets / variants);
  const high = variants === 0 ? 0 : Math.ceil(bets / variants);
  const each = low === high ? `${low}` : `${low}–${high}`;
  const limits = limitsText(input.limits, Object.keys(calls));
  const callText = Object.entries(calls)
    .filter(([op]) => op !== 'casino.balance')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([op, count]) => `${count} ${op}`)
    .join(', ');
  const lines = [
    `plan: ${bets} bets, ${each} per game variant (${variants} variants) · ${limits}`,
    `plan: ${callText}${input.batched ? ` (batches of up to ${BATCH_BETS})` : ''}`,
  ];
  if (paced.slowest === null) lines.push('eta: not paced: as fast as the target answers');
  else
    lines.push(
      `eta: about ${minutes(paced.pacedMs)} (${paced.slowest} at ${perMinuteOf(input.limits, paced.slowest)}/min paces it most)`,
    );
  if (paced.pacedMs > input.maxSeconds * 1_000)
    lines.push(
      `eta: the time budget (${minutes(input.maxSeconds * 1_000)}) ends the betting first; raise --max-minutes or lower --bets to place them all`,
    );
  return lines;
}

/**
 * "paced under casino.batch 10/min, casino.bet + casino.deal + casino.draw 60/min together (bucket
 * games)": the limits of the operations the plan calls, those the target counts together as one.
 */
function limitsText(limits: Readonly<Record<string, PaceLimit>>, called: readonly string[]): string {
  const byPace = new Map<string, string[]>();
  for (const op of called.filter((name) => limits[name] !== undefined).sort()) {
    const pace = paceOf(op, limits[op] as PaceLimit);
    byPace.set(pace, [...(byPace.get(pace) ?? []), op]);
  }
  if (byPace.size === 0) return 'no limits to pace under (the target names none for these calls)';
  const texts = [...byPace].map(([pace, ops]) =>
    pace === ops[0]
      ? `${pace} ${perMinuteOf(limits, pace)}/min`
      : `${ops.join(' + ')} ${perMinuteOf(limits, pace)}/min together (${pace})`,
  );
  return `paced under ${texts.join(', ')}`;
}

/** The per-minute limit of a pace: an operation's, or its bucket's (one figure for all of them: target-file.ts checks it). */
function perMinuteOf(limits: Readonly<Record<string, PaceLimit>>, pace: string): number | undefined {
  const own = limits[pace];
  if (own !== undefined) return own.perMinute;
  return Object.entries(limits).find(([op, limit]) => paceOf(op, limit) === pace)?.[1].perMinute;
}
