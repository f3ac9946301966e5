/**
 * AccountPool: the few funded accounts a live suite shares, opened the target's way (its
 * registration and funding method, live-account.ts) once, on first need, and in order: the
 * registrations one after the other (account i is the i-th registered, so a serve's seeded ids
 * follow the same order every time), the fundings side by side (on a wall-clock afp serve each
 * waits out a deposit's confirmation, about a minute: two in turn made `afp check --target`
 * wait two minutes before its first run). Opening
 * accounts is what a deployment limits most (registrations per IP, one faucet claim per IP a
 * day), so a suite opens at most ACCOUNTS_MAX and every case or run that needs one reuses them.
 *   - funding `keys`: account i is the i-th pre-funded key (never a registration);
 *   - funding `faucet` where the faucet pays one claim per IP address a day (the deployment's,
 *     FAUCET_CLAIM_LIMIT): the first account is registered and funded, the others only registered
 *     (a counterparty needs no funds; a second claim would meet a 429 until the time budget ends);
 *   - any other funding: a registration, then the funding (openLiveAccount).
 * A failure is kept and answered again (the reason), never retried: a suite goes on with the cases
 * that need fewer accounts, and the others are skipped with that reason.
 * Non-goals: choosing amounts per case (every account is funded with `fundMicro`).
 */
import type { Deadline } from '../core/deadline.ts';
import type { WaitClock } from '../core/clock.ts';
import type { Micro } from '../core/money.ts';
import { FAUCET_CLAIM_LIMIT } from './documented-rules.ts';
import { openLiveAccount, type LiveAccount } from './live-account.ts';
import type { LiveSession } from './live-session.ts';
import { refusalWords } from './refusal-text.ts';

export const ACCOUNTS_MAX = 2;

export interface AccountPoolOptions {
  readonly session: LiveSession;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
  /** What each registered account is funded with (admin deposits and funding commands; a faucet pays what it pays). */
  readonly fundMicro: Micro;
}

export class AccountPool {
  private readonly options: AccountPoolOptions;
  private readonly opened: LiveAccount[] = [];
  private failure: string | null = null;

  constructor(options: AccountPoolOptions) {
    this.options = options;
  }

  /** The first `count` accounts, opening the missing ones; or why they cannot be had. */
  async take(count: number): Promise<readonly LiveAccount[] | string> {
    if (count > ACCOUNTS_MAX) return `a case needs at most ${ACCOUNTS_MAX} accounts (asked for ${count})`;
    if (this.failure === null && this.opened.length < count) {
      let turn: Promise<void> = Promise.resolve();
      const opening: Promise<LiveAccount | string>[] = [];
      for (let index = this.opened.length; index < count; index++) {
        const registeredBefore = turn;
        let registered = (): void => undefined;
        turn = new Promise((resolve) => (registered = resolve));
        opening.push(registeredBefore.then(() => this.open(index, registered)).finally(registered));
      }
      for (const opened of await Promise.all(opening)) {
        if (typeof opened === 'string') this.failure ??= opened;
        else if (this.failure === null) this.opened.push(opened);
      }
    }
    return this.opened.length >= count ? this.opened.slice(0, count) : (this.failure ?? 'no account was opened');
  }

  /** Account `index`; `registered` is called once its registration is answered (the next may register then). */
  private async open(index: number, registered: () => void): Promise<LiveAccount | string> {
    const { session } = this.options;
    const target = session.target;
    const funding = target.funding;
    let key: string | null = null;
    if (funding.method === 'keys') {
      key = funding.keys[index] ?? null;
      if (key === null)
        return `account ${index + 1} is needed and ${target.name} gives ${funding.keys.length} pre-funded key(s) (funding: keys; accounts are not registered there)`;
    }
    const faucet = target.services.faucet;
    const claimLimit = funding.method === 'faucet' && faucet !== undefined ? FAUCET_CLAIM_LIMIT[faucet.dialect] : null;
    if (index > 0 && claimLimit !== null) return this.registerOnly(claimLimit);
    const outcome = await openLiveAccount({
      session,
      key,
      fundMicro: this.options.fundMicro,
      clock: this.options.clock,
      deadline: this.options.deadline,
      onRegistered: registered,
    });
    return outcome.ok ? outcome.value : `account ${index + 1} could not be opened: ${outcome.message}`;
  }

  private async registerOnly(why: string): Promise<LiveAccount | string> {
    const forwardedFor = this.options.session.freshClientAddress();
    const outcome = await this.options.session.call(
      'casino.register',
      {},
      null,
      forwardedFor === undefined ? {} : { forwardedFor },
    );
    if (outcome.kind === 'ok')
      return { ...outcome.value, note: `registered ${outcome.value.agentId}, not funded: ${why}` };
    return `a second account could not be registered: ${outcome.kind === 'refused' ? refusalWords(outcome.refusal) : outcome.kind}`;
  }
}
