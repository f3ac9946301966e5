/**
 * How a slow probe lets time pass on a live target: an afp serve (it names its admin doors,
 * Target.adminUrl) has its clock moved forward (POST /_afp/clock { advance_ms }: time travel, so a
 * 48-hour window takes seconds; a wall-clock serve keeps running from the moved instant); any
 * other target is waited on, on the wall clock. Only forward, only by what the probe asks.
 * Non-goals: moving a target's clock back (time-travel reverts are a user's tool, not an audit's).
 */
import type { WaitClock } from '../../core/clock.ts';
import type { Deadline } from '../../core/deadline.ts';
import { type LiveSession, RemoteServeClock } from '../../live.ts';
import type { TimePassage } from './settlement-probes.ts';

/** `deadline`: once it passed (the run's time limit, or Ctrl-C), no more time is let pass. */
export function timePassageOf(session: LiveSession, clock: WaitClock, deadline: Deadline): TimePassage {
  const adminUrl = session.target.adminUrl;
  const admin = session.admin();
  if (admin !== null) {
    return {
      mode: 'travel',
      how: `time travel: the afp serve's clock is moved forward (POST ${adminUrl ?? ''}/_afp/clock), no waiting`,
      pass: async (ms) => {
        if (deadline.passed()) return false;
        const moved = await admin.moveClock({ advanceMs: Math.ceil(ms) });
        // The run's paces read the serve's time from its wait clock: it learns of the move here.
        if (moved.ok && clock instanceof RemoteServeClock) clock.movedTo(moved.value.nowMs);
        return moved.ok;
      },
    };
  }
  return {
    mode: 'wait',
    how: 'waiting on the wall clock (the target is not an afp serve: its clock cannot be moved), polling every 15 s',
    pass: async (ms) => {
      if (deadline.passed()) return false;
      await clock.sleep(Math.min(ms, deadline.remainingMs()));
      return !deadline.passed();
    },
  };
}
