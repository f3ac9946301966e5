/**
 * runDialectCheck: `afp check --target` through a target's dialects. Model-based sequences of the
 * commands in dialect-commands.ts, drawn by fast-check and shrunk on the first mismatch, sent
 * through one LiveSession (the target's dialects, paced under its limits) on accounts opened the
 * target's way (AccountPool: its registration and funding) once per invocation and shared by
 * every run; each run starts by reading their balances.
 *
 * A command whose operation the target's dialect does not offer, or that needs a second account
 * the target cannot give, is left out of the generated sequences; a note says which and why.
 * Outcome as data, like runCheck's: ok, or the failure with the shrunk sequence, seed, path and
 * the reproduce command; plus the findings (wire deviations and documented differences) every
 * run raised. A failure of kind 'mismatch' broke a model rule; 'unavailable' means the check could
 * not run against the target (no account, no answer, the time budget spent: CheckUnavailable);
 * 'error' is anything else, a bug.
 * Bounded: at most `maxCommands` commands per run, `runs` runs, the whole within `maxSeconds`.
 */
import { hash } from 'node:crypto';
import fc from 'fast-check';
import { checkProperty, splitPath, type CheckStop } from '../replay-path.ts';
import type { Deadline } from '../../core/deadline.ts';
import type { WaitClock } from '../../core/clock.ts';
import type { Micro } from '../../core/money.ts';
import { commandLine } from '../../core/shell-words.ts';
import {
  AccountPool,
  ACCOUNTS_MAX,
  deviationFinding,
  gatewayFinding,
  SHOWN_ROUNDING_MICRO,
  type LiveAccount,
  LiveSession,
  type CallOutcome,
  type SentRequest,
  type Target,
} from '../../live.ts';
import { FindingsCollector } from '../../report/findings/finding.ts';
import { DEFAULT_FAIL_ON, type FailOn } from '../../report/findings/fail-on.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { CheckUnavailable, unrepeatedFailureText } from '../check-unavailable.ts';
import type { CheckFailure, CheckResult } from '../run-check.ts';
import {
  DIALECT_COMMANDS,
  OPERATIONS_LEFT_OUT,
  TIME_PATHS_LEFT_OUT,
  type DialectCommand,
  type DialectCommandRow,
} from './dialect-commands.ts';
import { createDialectModel, newLearnedRules, type DialectModel, type DialectSystem } from './dialect-model.ts';
import { DOMAINS_EXTRA_COMMANDS } from './dialect-commands-domains.ts';
import { closeLeftPositions, SERVICE_COMMANDS } from './dialect-commands-services.ts';
import { TRADING_ORDER_COMMANDS } from './dialect-commands-trading.ts';
import { openWallet, WALLET_COMMANDS, walletModel, type OpenedWallet } from './wallet-commands.ts';
import { serviceAccount, type DialectDomainsModel, type DialectTradingModel } from './dialect-model-services.ts';
import { openDomainsAccounts, openTradingAccounts, type OpenedService } from './service-accounts.ts';
import { announcedOutages } from './target-outage.ts';

export const DIALECT_MAX_COMMANDS = 40;
/** What each registered account is funded with (admin deposits, funding commands; a faucet pays what it pays). */
export const DIALECT_FUND_MICRO: Micro = 5_000_000n;

export interface DialectCheckOptions {
  readonly target: Target;
  /** How the user named the target (`--target` as typed), for the reproduce command. */
  readonly targetSpec: string;
  readonly seed: number;
  readonly runs: number;
  readonly maxCommands?: number;
  /** A reported path (`<fast-check path>@<replayPath>`): replays that one failing case. */
  readonly path?: string;
  /** The severity at which a finding fails the check: it decides the verdict, so the reproduce command carries it. */
  readonly failOn?: FailOn;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
  readonly curlOf: (request: SentRequest) => string;
  readonly fundMicro?: Micro;
  readonly timeoutMs?: number;
  /** Called after every run of a command sequence (shrinking runs included): the CLI's progress line. */
  readonly onRun?: () => void;
  /** Once its signal is aborted (Ctrl-C), no further run starts (the one in flight finishes); the result says `interrupted`. */
  readonly stop?: CheckStop;
}

export interface DialectCheckResult extends CheckResult {
  readonly findings: FindingsCollector;
  /** The command rows the sequences were drawn from. */
  readonly commands: readonly string[];
}

interface Plan {
  readonly rows: readonly DialectCommandRow[];
  readonly notes: string[];
  readonly accounts: readonly LiveAccount[];
  /** The check's own accounts on trading and domains (service-accounts.ts), where rows need them. */
  readonly trading: OpenedService | null;
  readonly domains: OpenedService | null;
  /** The check's wallet agent and wallets (wallet-commands.ts), where wallet rows are offered. */
  readonly wallet: OpenedWallet | null;
}

/** The rows the target can take, the accounts they need, and a note per row or operation left out. */
async function plan(
  session: LiveSession,
  pool: AccountPool,
  clock: WaitClock,
  deadline: Deadline,
): Promise<Plan | string> {
  const notes: string[] = [];
  const offered = [
    ...DIALECT_COMMANDS,
    ...SERVICE_COMMANDS,
    ...TRADING_ORDER_COMMANDS,
    ...DOMAINS_EXTRA_COMMANDS,
    ...WALLET_COMMANDS,
  ].filter((row) => {
    const missing =
      row.operations.map((op) => session.offers(op)).find((reason) => reason !== null) ??
      row.applies?.(session.target) ??
      null;
    if (missing !== null) notes.push(`command ${row.name} left out of the sequences: ${missing}`);
    return missing === null;
  });
  const wanted = Math.min(ACCOUNTS_MAX, Math.max(1, ...offered.map((row) => row.accounts)));
  // Opened side by side: on a wall-clock serve each funding waits out a deposit's confirmation (a
  // minute), and one after the other they kept the check from its first run for three.
  const openers = [
    ['trading', openTradingAccounts],
    ['domains', openDomainsAccounts],
  ] as const;
  const [taken, opened, wallet] = await Promise.all([
    pool.take(wanted),
    Promise.all(
      openers.map(([service, open]) =>
        offered.some((row) => row.service === service) ? open({ session, clock, deadline }) : Promise.resolve(null),
      ),
    ),
    offered.some((row) => row.service === 'wallet') ? openWallet(session) : Promise.resolve(null),
  ]);
  let accounts = taken;
  if (typeof accounts === 'string' && wanted > 1) {
    const reason = accounts;
    accounts = await pool.take(1);
    for (const row of offered)
      if (row.accounts > 1)
        notes.push(`command ${row.name} left out of the sequences: it needs ${row.accounts} accounts, and ${reason}`);
  }
  if (typeof accounts === 'string') return `no account to check with: ${accounts}`;
  const count = accounts.length;
  const services: Record<'trading' | 'domains', OpenedService | null> = { trading: null, domains: null };
  openers.forEach(([service], index) => {
    const outcome = opened[index] ?? null;
    if (typeof outcome !== 'string') {
      services[service] = outcome;
      return;
    }
    for (const row of offered)
      if (row.service === service) notes.push(`command ${row.name} left out of the sequences: ${outcome}`);
  });
  if (typeof wallet === 'string')
    for (const row of offered)
      if (row.service === 'wallet') notes.push(`command ${row.name} left out of the sequences: ${wallet}`);
  const opens = { ...services, wallet: typeof wallet === 'string' ? null : wallet };
  for (const [op, why] of Object.entries(OPERATIONS_LEFT_OUT))
    notes.push(`operation ${op} is sent by no command: ${why}`);
  notes.push(...TIME_PATHS_LEFT_OUT);
  const rows = offered.filter(
    (row) => row.accounts <= count && (row.service === undefined || opens[row.service] !== null),
  );
  return { rows, notes, accounts, ...opens };
}

export async function runDialectCheck(options: DialectCheckOptions): Promise<DialectCheckResult> {
  const findings = new FindingsCollector();
  const { session, pool } = dialectSession(options, findings);
  const planned = await plan(session, pool, options.clock, options.deadline);
  const base = { seed: options.seed, target: targetDescription(options.target), findings };
  if (typeof planned === 'string') return unplanned(options, base, planned);
  const outages = await announcedOutages(options.target, planned.notes);
  const system: DialectSystem = {
    session,
    raise: (finding) => findings.add(finding),
    curlOf: options.curlOf,
    ...outages.system,
  };
  const newRun = runMaker(options, session, planned, system);
  const replay = options.path === undefined ? null : splitPath(options.path);
  const commands = fc.commands(
    planned.rows.map((row) => row.arbitrary),
    {
      maxCommands: options.maxCommands ?? DIALECT_MAX_COMMANDS,
      size: 'max',
      ...(replay === null || replay.replayPath === '' ? {} : { replayPath: replay.replayPath }),
    },
  );
  let first: FirstFailure | null = null;
  let commandsRun = 0;
  const property = fc.asyncProperty(commands, async (drawn) => {
    const run = await newRun();
    try {
      await fc.asyncModelRun(() => run, drawn);
    } catch (error) {
      // The first failure, before shrinking: a target's state outlives a run, so the shrunk
      // sequence may fail on what the first left behind (a balance short since a release) and
      // name another command; the first names where it happened.
      first ??= { error };
      throw error;
    } finally {
      commandsRun += run.model.commandsRun;
      await closeLeftPositions(run.model, run.real);
    }
    options.onRun?.();
  });
  const details = await checkProperty(property, options.seed, options.runs, replay, options.stop);
  const result = {
    ...base,
    runs: details.numRuns,
    commandsRun,
    shrinks: details.numShrinks,
    ...(details.interrupted && options.stop?.signal.aborted === true ? { interrupted: true } : {}),
    notes: [...planned.notes, ...outages.summary()],
    commands: planned.rows.map((row) => row.name),
  };
  if (!details.failed) return { ...result, ok: true, reproduce: checkReproduceCommand(options, null) };
  const failure = await describeFailure(details, options, newRun, session);
  return { ...result, ok: false, failure: withFirstFailure(failure, first) };
}

/** The check's session through the target's dialects (deviations and gateway answers filed as findings) and its account pool. */
function dialectSession(
  options: DialectCheckOptions,
  findings: FindingsCollector,
): { readonly session: LiveSession; readonly pool: AccountPool } {
  const session = new LiveSession({
    target: options.target,
    clock: options.clock,
    deadline: options.deadline,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    onDeviation: (call) => findings.add(deviationFinding(call, options.curlOf)),
    onGateway: (meeting) => findings.add(gatewayFinding(meeting, options.curlOf)),
  });
  const pool = new AccountPool({
    session,
    clock: options.clock,
    deadline: options.deadline,
    fundMicro: options.fundMicro ?? DIALECT_FUND_MICRO,
  });
  return { session, pool };
}

/** The target and its services' dialects, as the result names it. */
function targetDescription(target: Target): string {
  return `${target.name} (${target.source}) through its dialects: ${Object.entries(target.services)
    .map(([service, entry]) => `${service} ${entry.dialect}`)
    .sort()
    .join(', ')}`;
}

/** No run could be planned (accounts not opened, nothing to send): the check is unavailable, with why. */
function unplanned(
  options: DialectCheckOptions,
  base: { readonly seed: number; readonly target: string; readonly findings: FindingsCollector },
  why: string,
): DialectCheckResult {
  return {
    ...base,
    ok: false,
    runs: 0,
    commandsRun: 0,
    shrinks: 0,
    notes: [],
    commands: [],
    failure: {
      kind: 'unavailable',
      counterexample: '(no run)',
      commands: [],
      seed: options.seed,
      path: '',
      error: why,
      reproduce: checkReproduceCommand(options, null),
    },
  };
}

/** A fresh (model, system) pair per run: the model starts from the accounts' balances read now. */
function runMaker(
  options: DialectCheckOptions,
  session: LiveSession,
  planned: Plan,
  system: DialectSystem,
): () => Promise<{ model: DialectModel; real: DialectSystem }> {
  const roundingMicro = SHOWN_ROUNDING_MICRO[options.target.services.casino?.dialect ?? 'A'];
  let runsStarted = 0;
  const learned = newLearnedRules();
  return async () => {
    const balances: Micro[] = [];
    for (const account of planned.accounts) {
      balances.push(
        startBalance(
          await session.call('casino.balance', {}, account.apiKey),
          `reading the balance of ${account.agentId} at the start of a run`,
        ).balanceMicro,
      );
    }
    return {
      model: createDialectModel(
        planned.accounts,
        balances,
        roundingMicro,
        {
          trading: await tradingModel(session, planned.trading),
          domains: await domainsModel(session, planned.domains, (runsStarted += 1)),
          wallet: walletModel(planned.wallet),
        },
        learned,
      ),
      real: system,
    };
  };
}

interface FirstFailure {
  readonly error: unknown;
}

/** The failure, with the first one seen before shrinking where another command failed first. */
function withFirstFailure(failure: CheckFailure, first: FirstFailure | null): CheckFailure {
  if (first === null) return failure;
  const message = first.error instanceof Error ? first.error.message : String(first.error);
  // The same command failing again (another escrow's release) says nothing the shrunk one does not.
  const command = (text: string): string => /^[A-Za-z]+/.exec(text)?.[0] ?? text;
  if (command(message) === command(failure.error)) return failure;
  return { ...failure, firstError: message };
}

/**
 * A balance a run starts from. What the target answered and afp could not use (a refusal, an
 * answer without a readable balance: its deviations are already findings, with a curl line) is a
 * check failure (exit 3), never a crash; a target that does not answer, or time running out, is
 * CheckUnavailable (exit 4).
 */
function startBalance<R>(outcome: CallOutcome<R>, label: string): R {
  switch (outcome.kind) {
    case 'ok':
      return outcome.value;
    case 'refused':
      throw new CheckMismatch(
        `${label}: refused ${outcome.refusal.status} ${outcome.refusal.name} (${outcome.request.method} ${outcome.request.url})`,
      );
    case 'unreadable':
      throw new CheckMismatch(
        `${label}: ${outcome.status} answer without a readable balance (${outcome.request.method} ${outcome.request.url}): ${JSON.stringify(outcome.body).slice(0, 200)}`,
      );
    case 'unsupported':
      throw new Error(`${label}: ${outcome.reason}`);
    case 'unreachable':
      throw new CheckUnavailable(`${label}: ${outcome.message}`);
    case 'deadline':
      throw new CheckUnavailable(`${label}: the time budget ran out`);
  }
}

/** A run's trading model: the account's balance and margin in use read at its start. */
async function tradingModel(session: LiveSession, opened: OpenedService | null): Promise<DialectTradingModel | null> {
  const account = opened?.accounts[0];
  if (account === undefined) return null;
  const value = startBalance(
    await session.call('trading.balance', {}, account.apiKey),
    `reading the trading balance of ${account.agentId} at the start of a run`,
  );
  return {
    account: serviceAccount(account, value.balanceMicro),
    positions: [],
    baseMarginMicro: value.marginMicro ?? 0n,
  };
}

/** A run's domains model: both accounts' balances read at its start, names tagged by the invocation (its account) and the run. */
async function domainsModel(
  session: LiveSession,
  opened: OpenedService | null,
  run: number,
): Promise<DialectDomainsModel | null> {
  const [first, second] = opened?.accounts ?? [];
  if (first === undefined || second === undefined) return null;
  const balances: bigint[] = [];
  for (const account of [first, second]) {
    balances.push(
      startBalance(
        await session.call('domains.balance', {}, account.apiKey),
        `reading the domains balance of ${account.agentId} at the start of a run`,
      ).balanceMicro,
    );
  }
  const tag = `${hash('sha256', first.agentId).slice(0, 8)}-${run}`;
  return {
    accounts: [serviceAccount(first, balances[0] ?? 0n), serviceAccount(second, balances[1] ?? 0n)],
    tag,
    held: new Map(),
  };
}

/** The `afp check` line that runs this check again: the target as typed, the seed, the runs or the path, and every flag that changes the verdict. */
export function checkReproduceCommand(
  options: Pick<DialectCheckOptions, 'targetSpec' | 'seed' | 'runs' | 'maxCommands' | 'failOn'>,
  path: string | null,
): string {
  const words = ['npx', 'afp', 'check', '--target', options.targetSpec, '--seed', `${options.seed}`];
  words.push(...(path === null ? ['--runs', `${options.runs}`] : ['--path', path]));
  if (options.maxCommands !== undefined && options.maxCommands !== DIALECT_MAX_COMMANDS)
    words.push('--max-commands', `${options.maxCommands}`);
  if (options.failOn !== undefined && options.failOn !== DEFAULT_FAIL_ON) words.push('--fail-on', options.failOn);
  return commandLine(words);
}

/** The shrunk sequence, replayed once more to print exactly what ran and failed. */
async function describeFailure(
  details: fc.RunDetails<[Iterable<DialectCommand>]>,
  options: DialectCheckOptions,
  newRun: () => Promise<{ model: DialectModel; real: DialectSystem }>,
  session: LiveSession,
): Promise<CheckFailure> {
  const drawn = details.counterexample?.[0];
  const replayPath = drawn === undefined ? '' : (/\/\*replayPath="([^"]*)"\*\//.exec(String(drawn))?.[1] ?? '');
  const ran: string[] = [];
  let error: unknown = details.errorInstance;
  let confirmed = false;
  if (drawn !== undefined) {
    try {
      const run = await newRun();
      for (const command of drawn) {
        if (!command.check(run.model)) continue;
        ran.push(String(command));
        await command.run(run.model, run.real);
      }
    } catch (replayed) {
      error = replayed;
      confirmed = true;
    }
  }
  const path = `${details.counterexamplePath ?? ''}@${replayPath}`;
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: error instanceof CheckMismatch ? 'mismatch' : error instanceof CheckUnavailable ? 'unavailable' : 'error',
    counterexample:
      drawn === undefined
        ? '(no counterexample: the run was interrupted)'
        : `${ran.join(',')} /*replayPath=${JSON.stringify(replayPath)}*/`,
    commands: ran,
    seed: options.seed,
    path,
    error: confirmed ? message : unrepeatedFailureText(error, message),
    reproduce: checkReproduceCommand(options, path),
    // Only a replay that failed again ends at the failing step's request.
    ...(confirmed && session.lastSent !== null ? { request: session.lastSent } : {}),
  };
}
