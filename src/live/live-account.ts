/**
 * The account a live command plays with, got the way the target says (its target file's `funding`):
 *   - `--key KEY` given: that account as it is (its agent id from the balance answer);
 *   - `keys`: the first pre-funded key of the file;
 *   - `admin-deposit` (afp serve only): register, lift the tier to enterprise (POST /_afp/tier, so
 *     the audit measures the casino, not afp's limiter), deposit by a simulated Solana deposit
 *     (POST /_afp/casino/deposit) and bring a manual serve clock to the credit instant;
 *   - `faucet`: register, then claim the target's faucet (small: 1 USDC on a deployment);
 *     on an afp serve that trusts this caller's X-Forwarded-For both announce one new client
 *     address (LiveSession.freshClientAddress), so a second invocation's claim is not refused
 *     as this host's second of the day;
 *   - `command`: register, then run the user's command (in the user's environment, PATH without
 *     afp's own Node: funding-environment.ts) with AFP_AGENT_ID, AFP_API_KEY, AFP_AMOUNT and
 *     AFP_SERVICE (the service whose account it funds: casino, trading or domains, each keeping
 *     its own balance on a deployment) in its environment (bounded to COMMAND_TIMEOUT_MS), and
 *     wait for that service's balance.
 * Registration and funding go through the LiveSession (the target's dialect); only the afp serve
 * admin doors are called directly. Every wait is bounded by the deadline.
 * Failures are returned with the exit kind the CLI maps: 'invalid' (flags, a given key the target
 * refuses: exit 2), 'trouble' (the target refused a set-up step: registration, funding), 'deadline'
 * and 'unreachable' (the target did not answer): exit 4, like every live command whose target
 * cannot be worked with; never 1, which says afp has a bug.
 */
import { execFile } from 'node:child_process';
import type { Deadline } from '../core/deadline.ts';
import type { WaitClock } from '../core/clock.ts';
import { formatAmount } from '../core/live-amount.ts';
import { formatDecimal, type Micro } from '../core/money.ts';
import type { CallOptions, LiveSession } from './live-session.ts';
import { fundingEnvironment } from './funding-environment.ts';

export const FUNDING_CHAIN = 'solana';
const POLL_MS = 1_000;
/** A balance below the funding amount that stands still this long (wall time) ends the wait: a deposit on a wall clock lands within minutes. */
export const FUNDING_STALL_MS = 5 * 60_000;
const COMMAND_TIMEOUT_MS = 120_000;
/** Bytes of the funding command's output kept (only its first 300 characters are reported). */
const COMMAND_OUTPUT_MAX = 1_000_000;

export type LiveFailure = {
  readonly ok: false;
  readonly kind: 'invalid' | 'trouble' | 'deadline' | 'unreachable';
  readonly message: string;
};
export type LiveOutcome<T> = { readonly ok: true; readonly value: T } | LiveFailure;

export interface LiveAccount {
  readonly apiKey: string;
  readonly agentId: string;
  /** How the account came to be, for the report. */
  readonly note: string;
}

export interface AccountOptions {
  readonly session: LiveSession;
  readonly key: string | null;
  readonly fundMicro: Micro;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
  /** Per call (the client address a replay announces for the agent); none by default. */
  readonly callOptions?: CallOptions;
  /** Where the funded balance is read (default the casino's; a service with its own accounts names its own). */
  readonly balanceOperation?: 'casino.balance' | 'domains.balance' | 'trading.balance';
  /** Told once the registration was answered, before the funding (and its wait) starts (account-pool.ts orders registrations by it). */
  readonly onRegistered?: () => void;
}

/** A failed call: 'unreachable' when the target did not answer it, 'trouble' otherwise. */
const trouble = (message: string, outcome?: { kind: string }): LiveFailure => ({
  ok: false,
  kind: outcome?.kind === 'unreachable' ? 'unreachable' : 'trouble',
  message,
});

export async function openLiveAccount(options: AccountOptions): Promise<LiveOutcome<LiveAccount>> {
  const { session } = options;
  const funding = session.target.funding;
  const key = options.key ?? (funding.method === 'keys' ? (funding.keys[0] ?? null) : null);
  if (key !== null) return existing(options, key);
  if (funding.method === 'keys')
    return {
      ok: false,
      kind: 'invalid',
      message: `${session.target.name} is funded by pre-funded keys and none was given: pass --key KEY`,
    };
  if (session.target.register === null)
    return {
      ok: false,
      kind: 'invalid',
      message: `${session.target.name} offers no registration: pass --key KEY of a funded account`,
    };
  // On a serve that counts announced client addresses, the account registers and claims from one
  // new address of its own, as an agent would: a second run's faucet claim is then not this host's second of the day.
  const forwardedFor = options.callOptions?.forwardedFor ?? session.freshClientAddress();
  const callOptions: CallOptions = forwardedFor === undefined ? {} : { forwardedFor };
  const registered = await session.call('casino.register', {}, null, callOptions);
  options.onRegistered?.();
  if (registered.kind === 'deadline')
    return {
      ok: false,
      kind: 'deadline',
      message:
        'registration could not be sent within the time budget (spent on rate limits or on calls the target did not answer)',
    };
  if (registered.kind !== 'ok') return trouble(`registration failed: ${describe(registered)}`, registered);
  const { agentId, apiKey } = registered.value;
  const funded = await fundLiveAccount({ ...options, callOptions }, agentId, apiKey);
  if (!funded.ok) return funded;
  return {
    ok: true,
    value: { apiKey, agentId, note: `registered ${agentId} on ${session.target.name}, ${funded.value}` },
  };
}

function describe(outcome: {
  kind: string;
  refusal?: { status: number; name: string; message: string };
  message?: string;
  reason?: string;
  status?: number;
  why?: string;
}): string {
  if (outcome.refusal !== undefined)
    return `${outcome.refusal.status} ${outcome.refusal.name}: ${outcome.refusal.message}`;
  return (
    outcome.message ??
    outcome.reason ??
    `${outcome.kind}${outcome.status === undefined ? '' : ` (${outcome.status})`}${outcome.why === undefined ? '' : `: ${outcome.why}`}`
  );
}

async function existing(options: AccountOptions, apiKey: string): Promise<LiveOutcome<LiveAccount>> {
  const balance = await options.session.call('casino.balance', {}, apiKey);
  if (balance.kind === 'deadline')
    return {
      ok: false,
      kind: 'deadline',
      message:
        'the balance read could not be sent within the time budget (spent on rate limits or on calls the target did not answer)',
    };
  // An answer without a readable balance is a finding (the session reported its deviations); the audit goes on.
  if (balance.kind === 'unreadable')
    return {
      ok: true,
      value: {
        apiKey,
        agentId: '(agent id not read)',
        note: `the account of the given key on ${options.session.target.name} (its balance answer could not be read: ${describe(balance)})`,
      },
    };
  // A key the target refuses (401, 403) is the user's input, not the target's trouble.
  if (balance.kind === 'refused' && (balance.refusal.status === 401 || balance.refusal.status === 403))
    return {
      ok: false,
      kind: 'invalid',
      message: `the given key is refused by ${options.session.target.name}: ${describe(balance)}`,
    };
  if (balance.kind !== 'ok')
    return trouble(`the balance of the given key could not be read: ${describe(balance)}`, balance);
  const agentId = balance.value.agentId ?? '(agent id not shown)';
  // The balance as the target wrote it, where the dialect kept that (a deployment's double), else afp's micro.
  const shown =
    balance.value.balance === undefined
      ? formatDecimal(balance.value.balanceMicro)
      : formatAmount(balance.value.balance, 2);
  return {
    ok: true,
    value: {
      apiKey,
      agentId,
      note: `the account of the given key (${agentId}, balance ${shown} USDC) on ${options.session.target.name}`,
    },
  };
}

/** Funds a registered account the target's way (`fundMicro` is what admin-deposit and command funding bring); says how. */
export async function fundLiveAccount(
  options: AccountOptions,
  agentId: string,
  apiKey: string,
): Promise<LiveOutcome<string>> {
  const funding = options.session.target.funding;
  switch (funding.method) {
    case 'admin-deposit':
      return adminDeposit(options, agentId, apiKey);
    case 'faucet': {
      const forwardedFor = options.callOptions?.forwardedFor ?? options.session.freshClientAddress();
      const claimed = await options.session.call(
        'faucet.claim',
        { agentId },
        apiKey,
        forwardedFor === undefined ? {} : { forwardedFor },
      );
      if (claimed.kind === 'refused') {
        // A deployment's registration claims the faucet itself (DEPLOYED.md §2.2): the agent may hold the grant already.
        const balance = await options.session.call(
          options.balanceOperation ?? 'casino.balance',
          {},
          apiKey,
          options.callOptions,
        );
        if (balance.kind === 'ok' && balance.value.balanceMicro > 0n)
          return {
            ok: true,
            value: `funded by the faucet (the claim answered ${claimed.refusal.name}; the balance is ${formatDecimal(balance.value.balanceMicro)} USDC)`,
          };
      }
      if (claimed.kind === 'refused')
        return trouble(
          `the faucet claim failed: ${describe(claimed)} — ${options.session.target.name} funds new accounts only through its faucet, which refused${claimed.refusal.status === 429 ? " (a deployment's faucet credits an IP once a day)" : ''}; give funded accounts instead: their keys in the target file (funding: { method: keys, keys: [...] } or keys_env), or a funding command (funding: { method: command })`,
        );
      if (claimed.kind !== 'ok') return trouble(`the faucet claim failed: ${describe(claimed)}`, claimed);
      return {
        ok: true,
        value: `funded by the faucet (${claimed.value.creditedMicro === null ? 'amount not shown' : `${formatDecimal(claimed.value.creditedMicro)} USDC`})`,
      };
    }
    case 'command': {
      // The user's environment, without afp's own Node on PATH (funding-environment.ts).
      const env = fundingEnvironment(process.env, process.execPath, {
        AFP_AGENT_ID: agentId,
        AFP_API_KEY: apiKey,
        AFP_AMOUNT: formatDecimal(options.fundMicro),
        AFP_SERVICE: (options.balanceOperation ?? 'casino.balance').split('.')[0] ?? 'casino',
      });
      const ran = await runCommand(funding.command, env);
      if (ran.status !== 0)
        return trouble(
          `the funding command exited ${ran.status ?? ran.signal ?? 'abnormally'}: ${(ran.stderr || ran.stdout).slice(0, 300)}`,
        );
      const waited = await waitForBalance(options, apiKey);
      return waited.ok ? { ok: true, value: `funded by the target file's command` } : waited;
    }
    case 'keys':
      return { ok: false, kind: 'invalid', message: 'pre-funded keys are used as they are' };
  }
}

interface CommandRun {
  readonly status: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the funding command without blocking the event loop (the target may be served by this very
 * process, as in tests: a blocking spawn would starve it), bounded to COMMAND_TIMEOUT_MS.
 */
function runCommand(command: string, env: NodeJS.ProcessEnv): Promise<CommandRun> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      { env, timeout: COMMAND_TIMEOUT_MS, encoding: 'utf8', maxBuffer: COMMAND_OUTPUT_MAX },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({
          status: code,
          signal: error?.signal ?? null,
          stdout,
          stderr: stderr || (error !== null && code === null ? error.message : ''),
        });
      },
    );
  });
}

async function adminDeposit(options: AccountOptions, agentId: string, apiKey: string): Promise<LiveOutcome<string>> {
  const admin = options.session.admin();
  if (admin === null)
    return { ok: false, kind: 'invalid', message: 'admin-deposit funding needs an afp serve (its /_afp doors)' };
  const tier = await admin.setTier(agentId, 'enterprise');
  if (!tier.ok) return trouble(tier.message);
  // On a manual clock the deposit arrives confirmed: moving the clock to its confirmation (a
  // minute on solana) ran a replay's serve ahead of the record, one funding after another.
  const clock = await admin.clock();
  const manual = clock.ok && clock.value.mode === 'manual';
  const asked = { agentId, chain: FUNDING_CHAIN, amount: formatDecimal(options.fundMicro) };
  let deposit = await admin.casinoDeposit(manual ? { ...asked, confirmed: true } : asked);
  // An afp serve older than the door's `confirmed` refuses the field: its deposit confirms later.
  if (!deposit.ok && manual) deposit = await admin.casinoDeposit(asked);
  if (!deposit.ok) return trouble(deposit.message);
  const confirmAtMs = deposit.value.confirmAtMs;
  if (manual && clock.value.nowMs < confirmAtMs) {
    const moved = await admin.moveClock({ toMs: confirmAtMs });
    if (!moved.ok) return trouble(moved.message);
  }
  const waited = await waitForBalance(options, apiKey);
  return waited.ok
    ? {
        ok: true,
        value: `tier enterprise, funded ${formatDecimal(options.fundMicro)} USDC by a simulated ${FUNDING_CHAIN} deposit`,
      }
    : waited;
}

/**
 * Polls the balance until it reaches the funding amount; at least one look, however late. It gives
 * up at the deadline, or once the balance has stood still below the amount for FUNDING_STALL_MS of
 * the deadline's (wall) time: a funding that credited less than asked (a faucet paying 1.00 where
 * 5.00 was needed) polled silently until the run's whole budget (15 minutes for a check) was spent.
 */
async function waitForBalance(options: AccountOptions, apiKey: string): Promise<LiveOutcome<null>> {
  let seenMicro: Micro | null = null;
  let changedAtRemainingMs = options.deadline.remainingMs();
  const shortOf = (): string =>
    seenMicro === null
      ? ''
      : `: the balance is ${formatDecimal(seenMicro)} USDC of the ${formatDecimal(options.fundMicro)} needed`;
  for (;;) {
    const balance = await options.session.call(
      options.balanceOperation ?? 'casino.balance',
      {},
      apiKey,
      options.callOptions,
    );
    if (balance.kind === 'ok' && balance.value.balanceMicro >= options.fundMicro) return { ok: true, value: null };
    if (balance.kind === 'refused' || balance.kind === 'unreachable')
      return trouble(`the balance could not be read: ${describe(balance)}`, balance);
    if (balance.kind === 'ok' && balance.value.balanceMicro !== seenMicro) {
      seenMicro = balance.value.balanceMicro;
      changedAtRemainingMs = options.deadline.remainingMs();
    }
    if (options.deadline.passed()) break;
    if (changedAtRemainingMs - options.deadline.remainingMs() >= FUNDING_STALL_MS)
      return trouble(
        `the funds stopped arriving${shortOf()}, unchanged for ${FUNDING_STALL_MS / 60_000} minutes (the funding credits less than the run needs?)`,
      );
    await options.clock.sleep(Math.min(POLL_MS, options.deadline.remainingMs()));
  }
  return { ok: false, kind: 'deadline', message: `the funds did not arrive within the time budget${shortOf()}` };
}
