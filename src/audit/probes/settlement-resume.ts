/**
 * The slow probes across two runs (issue 68 part 7): `afp audit money --include-slow --resume-file
 * FILE` runs the settlement probes (settlement-probes.ts: an escrow at the shortest expiry, one
 * disputed) whose wait fits, and opens the first that does not and leaves it, writing what judging
 * it needs to FILE (resume-file.ts);
 * `afp audit money --resume FILE`, run once they are due (a CI schedule 48 h later), reads each
 * escrow and the balances and judges them exactly as a run that waited does (settlement-probes.ts
 * judgeSettlement, raiseUnsettled). Why: a deployment's dispute window is two days; no CI job holds it.
 * An escrow not yet due is skipped with its due instant (the run ends with exit 4, as a probe its
 * budget could not hold); the resumed run must be given the accounts that opened them (their ids
 * are checked, their keys are never stored).
 */
import type { WaitClock } from '../../core/clock.ts';
import { renderResume, writeResumeFile, type DueClock, type LeftEscrow, type ResumeDocument } from './resume-file.ts';
import {
  duration,
  judgeSettlement,
  openEscrow,
  plansOf,
  raiseUnsettled,
  settled,
  skipped,
  waitAndJudge,
  type SlowPlan,
  type SettlementContext,
  type SettlementResult,
  type Watched,
} from './settlement-probes.ts';
import { callCounts, skipCauseOf } from './probe-context.ts';

export interface LeaveContext extends SettlementContext {
  readonly clock: WaitClock;
  /** The resume file to write. */
  readonly resumeFile: string;
  /** The casino's origin and dialect: the resumed run must point at the same target. */
  readonly target: string;
  readonly dialect: string;
  /** The wall clock, beside `clock` (the target's: a manual afp serve's own, else the wall's itself). */
  readonly wall: { nowMs(): number };
  readonly dueClock: DueClock;
  /** The command line that resumes the file (keys as placeholders): written in it and said. */
  readonly command: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** When an escrow is due, on the clock its file counts on (and the wall's, where that is the serve's). */
const dueText = (escrow: LeftEscrow, clock: DueClock): string =>
  clock === 'wall'
    ? iso(escrow.dueAtMs)
    : `${iso(escrow.dueAtMs)} on the afp serve's clock (${iso(escrow.dueAtWallMs)} on the wall's, if it is not moved)`;

function leftOf(item: Watched, nowMs: number, wallMs: number): LeftEscrow {
  return {
    name: item.name,
    escrowId: item.escrowId,
    dueAtMs: nowMs + item.dueMs,
    dueAtWallMs: wallMs + item.dueMs,
    waitMs: item.dueMs,
    awaited: item.awaited,
    creatorBefore: item.creatorBefore,
    secondBefore: item.secondBefore,
    fee: item.fee,
    statedFeeMicro: item.statedFeeMicro,
    reproduce: item.reproduce,
    openStatuses: [...item.openStatuses],
  };
}

/**
 * The probes whose wait fits --max-minutes run as they do without a resume file (waited for, or
 * travelled on an afp serve); the first that does not is opened and left, and written to the resume file. At
 * most ONE escrow is left per run: its judgement rests on the two balances moving by it alone
 * between the runs, and a second escrow settling in the same interval would mix into them (a later
 * probe then says so and is skipped).
 */
export async function leaveSettlementProbes(context: LeaveContext): Promise<SettlementResult[]> {
  const results: SettlementResult[] = [];
  const unsettled: Watched[] = [];
  let left: LeftEscrow | null = null;
  let leftMs = context.maxMinutes * 60_000;
  const second = context.second;
  for (const plan of plansOf(context, true)) {
    // What fits --max-minutes is waited for (or travelled, on an afp serve); the rest is left.
    const fits = plan.waitMs <= leftMs;
    context.say(planLine(plan, fits, left !== null, context.resumeFile));
    if (plan.skip !== null || second === null) results.push(skipped(plan.name, plan.skip ?? ''));
    else if (fits) {
      const probed = await waitAndJudge(context, second, plan, unsettled);
      leftMs -= probed.passedMs;
      results.push(probed.result);
    } else if (left !== null) results.push(skipped(plan.name, ONE_LEFT));
    else {
      const opened = await leaveOne(context, second, plan);
      if ('result' in opened) results.push(opened.result);
      else {
        left = opened.left;
        results.push(opened.note);
      }
    }
  }
  return written(context, raiseUnsettled(context, unsettled, results), left);
}

const ONE_LEFT =
  'an escrow is already left for the resume file, and one more settling between the runs would mix into its balances: run it from a run of its own';

function planLine(plan: SlowPlan, fits: boolean, oneLeft: boolean, file: string): string {
  if (plan.skip !== null) return `plan: ${plan.name} skipped: ${plan.skip}`;
  if (fits) return `plan: ${plan.name} waits for ${plan.awaited}: at most ${duration(plan.waitMs)}`;
  return oneLeft
    ? `plan: ${plan.name} skipped: ${ONE_LEFT}`
    : `plan: ${plan.name} opens its escrow and leaves it for --resume ${file}: ${plan.awaited}, due in ${duration(plan.waitMs)}`;
}

async function leaveOne(
  context: LeaveContext,
  second: { readonly apiKey: string; readonly agentId: string },
  plan: SlowPlan,
): Promise<{ readonly result: SettlementResult } | { readonly left: LeftEscrow; readonly note: SettlementResult }> {
  const before = callCounts(context.session);
  const opened = await openEscrow(context, second, plan);
  if (typeof opened === 'string')
    return { result: { ...skipped(plan.name, opened), ...skipCauseOf('skipped', before, context.session) } };
  const left = leftOf(opened, context.clock.nowMs(), context.wall.nowMs());
  return {
    left,
    note: {
      name: plan.name,
      status: 'ran',
      note: `escrow ${left.escrowId} opened and left: due ${dueText(left, context.dueClock)}; afp audit money --resume ${context.resumeFile} judges it then (use neither account until then)`,
      findingIds: [],
    },
  };
}

/** The resume file written for the escrow left; where it cannot be, the probe says so and is not a pass. */
function written(context: LeaveContext, results: SettlementResult[], left: LeftEscrow | null): SettlementResult[] {
  const second = context.second;
  if (left === null || second === null) return results;
  const document: ResumeDocument = {
    target: context.target,
    dialect: context.dialect,
    dueClock: context.dueClock,
    command: context.command,
    agentId: context.agentId,
    secondAgentId: second.agentId,
    writtenAtMs: context.clock.nowMs(),
    escrows: [left],
  };
  const failed = writeResumeFile(context.resumeFile, renderResume(document));
  if (failed === null) {
    context.say(`resume: ${context.command}   (once due: ${dueText(left, context.dueClock)})`);
    return results;
  }
  return results.map((result) =>
    result.name === left.name
      ? skipped(result.name, `${result.note}; but ${context.resumeFile} could not be written: ${failed}`)
      : result,
  );
}

export interface ResumeContext extends SettlementContext {
  readonly clock: WaitClock;
}

/** A resumed run's results; `notDue` names the escrows whose wait has not ended yet. */
export interface Resumed {
  readonly results: SettlementResult[];
  readonly notDue: readonly string[];
}

/** Judges every escrow of `document` that is due, as a run that waited judges it. */
export async function resumeSettlement(context: ResumeContext, document: ResumeDocument): Promise<Resumed> {
  const second = context.second;
  const results: SettlementResult[] = [];
  const notDue: string[] = [];
  const unsettled: Watched[] = [];
  const nowMs = context.clock.nowMs();
  for (const escrow of document.escrows) {
    if (nowMs < escrow.dueAtMs || second === null) {
      if (second !== null) notDue.push(escrow.name);
      results.push(
        skipped(
          escrow.name,
          second === null
            ? `escrow ${escrow.escrowId}: the second account (${document.secondAgentId}) is needed: --second-key`
            : `escrow ${escrow.escrowId} is not due until ${iso(escrow.dueAtMs)} (now ${iso(nowMs)}${document.dueClock === 'serve' ? " on the afp serve's clock" : ''}): run --resume again then`,
        ),
      );
      continue;
    }
    const item: Watched = { ...escrow, dueMs: escrow.waitMs, openStatuses: new Set(escrow.openStatuses), view: null };
    results.push(await judgeSettlement(context, second, item));
    if (!settled(item)) unsettled.push(item);
  }
  return { results: raiseUnsettled(context, unsettled, results), notDue };
}
