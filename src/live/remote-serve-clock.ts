/**
 * The clock a live command paces and waits on when its target is an afp serve whose clock stands
 * still (`--clock manual`). Why: the target's rate-limit windows (the deployed stand-in's fixed
 * 60-second windows, reset_at) run on the serve's clock, not the wall's. Waiting on the wall for
 * a window that closes only when the serve's clock moves never ends: the check paced its calls
 * seconds apart in wall time while every call fell in one serve instant, met 429 once a window's
 * count was spent, and backed off until the time budget ended. So here `sleep(ms)` moves the
 * serve's clock forward by `ms` (POST /_afp/clock), and `nowMs()` is the serve's time as last
 * answered. Only ever forward, and only by what a pace or a window asks; the caller's time budget
 * (its Deadline) stays on the wall clock.
 * Non-goals: wall-clock serves (they and deployments keep the system clock); moving the serve's
 * clock for anything but a wait.
 */
import type { WaitClock } from '../core/clock.ts';
import { AdminClient } from '../client/admin-client.ts';

export class RemoteServeClock implements WaitClock {
  private readonly admin: AdminClient;
  private readonly adminUrl: string;
  private lastMs = 0;

  private constructor(admin: AdminClient, adminUrl: string, nowMs: number) {
    this.admin = admin;
    this.adminUrl = adminUrl;
    this.lastMs = nowMs;
  }

  /** The serve's clock when it is manual; null for a wall clock or an admin door that does not answer as afp serve's. */
  static async ofManualServe(adminUrl: string): Promise<RemoteServeClock | null> {
    const admin = AdminClient.ofUrl(adminUrl);
    const view = await admin.clock();
    return !view.ok || view.value.mode !== 'manual' ? null : new RemoteServeClock(admin, adminUrl, view.value.nowMs);
  }

  /** The serve's time as last answered (a move by someone else shows on the next wait). */
  nowMs(): number {
    return this.lastMs;
  }

  /** The serve's clock was moved to `nowMs` by another door (a replay's clock sync): later waits start there. */
  movedTo(nowMs: number): void {
    this.lastMs = Math.max(this.lastMs, nowMs);
  }

  /** Moves the serve's clock `ms` forward (none for 0 or less); an unreadable answer is an Error. */
  async sleep(ms: number): Promise<void> {
    const advanceMs = Math.ceil(ms);
    if (!(advanceMs > 0)) return;
    const view = await this.admin.moveClock({ advanceMs });
    if (!view.ok) throw new Error(`POST ${this.adminUrl}/_afp/clock did not move the serve's clock`);
    this.lastMs = Math.max(this.lastMs, view.value.nowMs);
  }
}

/** The clock to pace and wait on for `target`: a manual afp serve's own clock, else `wall`. */
export async function waitClockOf(
  target: { readonly afpServe: boolean; readonly adminUrl: string | null },
  wall: WaitClock,
): Promise<WaitClock> {
  if (!target.afpServe || target.adminUrl === null) return wall;
  return (await RemoteServeClock.ofManualServe(target.adminUrl)) ?? wall;
}
