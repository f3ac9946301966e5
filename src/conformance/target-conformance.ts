/**
 * The conformance suite against a Target (`--target URL|FILE`, src/live/target.ts): every case is
 * reported as passed, finding, failed or skipped, and the run never aborts at set-up.
 *   - The documents' cases (rejection and script cases) address the documents' endpoints; they run
 *     where the target's dialects serve them: a service in dialect A is its style-A mount, the
 *     style-B api is a service in dialect B or short, or the api (admin URL) of an afp serve of the
 *     documents' styles. They
 *     register their own agents through the documents' registration, which they check too, so a
 *     target offering no registration skips them with that reason.
 *   - The operation cases (operation-cases.ts) go through a LiveSession in the target's dialects,
 *     on accounts opened the target's way (AccountPool); a case whose operation a dialect does not
 *     offer, or whose accounts cannot be opened, is skipped with the reason. Each wire deviation a
 *     case's calls show is a finding of that case, and so is a value its dialect documents.
 * Results come in the suite's order; findings in one collector (the findings report's input).
 * Bounded: the whole run within `maxSeconds` (pacing and 429 waits stop there), requests within
 * `timeoutMs` each.
 */
import type { Mount, MountUrls } from '../client/transport.ts';
import type { Deadline } from '../core/deadline.ts';
import type { WaitClock } from '../core/clock.ts';
import type { Micro } from '../core/money.ts';
import type { ServiceName } from '../platform/platform.ts';
import {
  AccountPool,
  deviationFinding,
  gatewayFinding,
  judge,
  type RuleName,
  type LiveAccount,
  LiveSession,
  type CallOutcome,
  type SentRequest,
  type OperationName,
  type DialectName,
  type Target,
} from '../live.ts';
import { FindingsCollector, type FindingInput } from '../report/findings/finding.ts';
import { SetupError, type CaseResult, type ConformanceCase, type ConformanceTarget } from './conformance-case.ts';
import { runCase } from './conformance-runner.ts';
import { CONFORMANCE_TIMEOUT_MS, servedConformanceTarget } from './conformance-target.ts';
import { TargetTrouble, type OperationCase, type OperationCaseContext } from './operation-case.ts';

export type SuiteCase = ConformanceCase | OperationCase;

/** What each account of the operation cases is funded with (admin deposits, funding commands). */
export const CONFORMANCE_FUND_MICRO: Micro = 5_000_000n;
const DOCUMENT_MOUNTS: readonly Mount[] = ['api', 'faucet', 'escrow', 'casino', 'trading', 'domains'];

export interface TargetConformanceOptions {
  readonly target: Target;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
  /** Keeps this run's agent ids and IPs apart from earlier runs on the same target (8 hex). */
  readonly session: string;
  readonly curlOf: (request: SentRequest) => string;
  readonly fundMicro?: Micro;
  readonly timeoutMs?: number;
}

export interface TargetConformanceRun {
  readonly results: readonly CaseResult[];
  readonly findings: FindingsCollector;
}

/** The documents' cases' view of a target: the documents' mounts its dialects serve, and why the others are missing. */
export async function documentsView(target: Target, timeoutMs = CONFORMANCE_TIMEOUT_MS): Promise<ConformanceTarget> {
  const urls: MountUrls = {};
  const mountNotes: Partial<Record<Mount, string>> = {};
  for (const [service, entry] of Object.entries(target.services) as Array<
    [ServiceName, Target['services'][ServiceName]]
  >) {
    if (entry === undefined) continue;
    if (entry.dialect === 'A') urls[service] = entry.url;
    else if ((entry.dialect === 'B' || entry.dialect === 'short') && urls.api === undefined) urls.api = entry.url;
  }
  // An afp serve of the documents' styles answers style B (and /_afp) on its admin URL; one speaking another dialect does not.
  const documentsServe = Object.values(target.services).every((entry) => entry.dialect !== 'deployed');
  if (urls.api === undefined && target.afpServe && documentsServe && target.adminUrl !== null)
    urls.api = target.adminUrl;
  for (const mount of DOCUMENT_MOUNTS) {
    if (urls[mount] !== undefined) continue;
    const entry = mount === 'api' ? undefined : target.services[mount];
    mountNotes[mount] =
      mount === 'api'
        ? `${target.name} serves no documents' style-B api (no service in dialect B or short, and it is not an afp serve)`
        : entry === undefined
          ? `${target.name} names no ${mount} service`
          : `${target.name}'s ${mount} speaks dialect ${entry.dialect}, not the documents' style A this case sends`;
  }
  const served = await servedConformanceTarget(urls, `${target.name} (${target.source})`, timeoutMs);
  const registrationNote =
    target.register === null
      ? `${target.name} offers no registration (register: none), and this case registers fresh agents`
      : null;
  return { ...served, mountNotes, registrationNote };
}

/** Runs `cases` against `target`, in order. */
export async function runTargetConformance(
  options: TargetConformanceOptions,
  cases: readonly SuiteCase[],
): Promise<TargetConformanceRun> {
  const findings = new FindingsCollector();
  const sink: { ids: Set<string> | null } = { ids: null };
  const raise = (finding: FindingInput): void => {
    findings.add(finding);
    sink.ids?.add(finding.id);
  };
  const session = new LiveSession({
    target: options.target,
    clock: options.clock,
    deadline: options.deadline,
    timeoutMs: options.timeoutMs ?? CONFORMANCE_TIMEOUT_MS,
    onDeviation: (call) => raise(deviationFinding(call, options.curlOf)),
    onGateway: (meeting) => raise(gatewayFinding(meeting, options.curlOf)),
  });
  const pool = new AccountPool({
    session,
    clock: options.clock,
    deadline: options.deadline,
    fundMicro: options.fundMicro ?? CONFORMANCE_FUND_MICRO,
  });
  const needsView = cases.some((kase) => kase.kind !== 'operations');
  const view = needsView ? await documentsView(options.target, options.timeoutMs) : null;
  const results: CaseResult[] = [];
  for (const [index, kase] of cases.entries()) {
    if (kase.kind !== 'operations') {
      results.push(
        view === null
          ? { name: kase.name, outcome: 'skipped', reason: 'no documents view' }
          : await runCase(view, kase, index, options.session),
      );
      continue;
    }
    const ids = new Set<string>();
    sink.ids = ids;
    const outcome = await runOperationCase({ session, pool, raise, curlOf: options.curlOf }, kase);
    sink.ids = null;
    results.push(withFindings(outcome, [...ids].sort()));
  }
  return { results, findings };
}

function withFindings(result: CaseResult, findingIds: readonly string[]): CaseResult {
  if (findingIds.length === 0) return result;
  if (result.outcome === 'passed') return { name: result.name, outcome: 'finding', findingIds };
  if (result.outcome === 'failed') return { ...result, findingIds };
  return result;
}

interface OperationEnv {
  readonly session: LiveSession;
  readonly pool: AccountPool;
  readonly raise: (finding: FindingInput) => void;
  readonly curlOf: (request: SentRequest) => string;
}

/** Why `session`'s target cannot run `kase`, or null. */
export function operationSkipReason(session: LiveSession, kase: OperationCase): string | null {
  for (const op of kase.operations) {
    const missing = session.offers(op);
    if (missing !== null) return missing;
  }
  return kase.applies?.(session.target) ?? null;
}

async function runOperationCase(env: OperationEnv, kase: OperationCase): Promise<CaseResult> {
  const reason = operationSkipReason(env.session, kase);
  if (reason !== null) return { name: kase.name, outcome: 'skipped', reason };
  const problems: string[] = [];
  try {
    const accounts = await env.pool.take(kase.accounts);
    if (typeof accounts === 'string')
      return { name: kase.name, outcome: 'skipped', reason: `set-up could not be done: ${accounts}` };
    await kase.run(caseContext(env, accounts, problems));
  } catch (error) {
    if (error instanceof SetupError)
      return { name: kase.name, outcome: 'skipped', reason: `set-up could not be done: ${error.message}` };
    if (error instanceof TargetTrouble)
      return { name: kase.name, outcome: 'skipped', reason: `the target did not answer: ${error.message}` };
    problems.push(`stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
  return problems.length === 0
    ? { name: kase.name, outcome: 'passed' }
    : { name: kase.name, outcome: 'failed', problems };
}

function jsonText(value: unknown): string {
  return (
    JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)) ??
    'undefined'
  );
}

/** A call that got no usable answer, as the error that stops the case. */
function stopOf(label: string, outcome: Exclude<CallOutcome<unknown>, { kind: 'ok' } | { kind: 'refused' }>): Error {
  switch (outcome.kind) {
    case 'unreadable':
      return new Error(
        `${label}: the answer (${outcome.status}) lacks what the operation needs (see the shape findings)`,
      );
    case 'unsupported':
      return new Error(`${label}: ${outcome.reason}`);
    case 'unreachable':
      return new TargetTrouble(`${label}: ${outcome.message}`);
    case 'deadline':
      return new TargetTrouble(`${label}: rate limited past the time budget`);
  }
}

function caseContext(env: OperationEnv, accounts: readonly LiveAccount[], problems: string[]): OperationCaseContext {
  const { session } = env;
  const dialectOf = (service: ServiceName): DialectName => session.target.services[service]?.dialect ?? 'A';
  const serviceOf = (op: OperationName): ServiceName => op.split('.')[0] as ServiceName;
  return {
    session,
    accounts,
    dialectOf,
    freshAccount: async () => {
      if (session.target.register === null)
        throw new SetupError(`${session.target.name} offers no registration (register: none)`);
      const outcome = await session.call('casino.register', {}, null);
      if (outcome.kind === 'ok') return { ...outcome.value, note: `registered ${outcome.value.agentId}` };
      throw new SetupError(
        `registering a fresh account: ${outcome.kind === 'refused' ? `${outcome.refusal.status} ${outcome.refusal.name}` : stopOf('registration', outcome).message}`,
      );
    },
    ok: async (label, op, input, apiKey) => {
      const outcome = await session.call(op, input, apiKey);
      if (outcome.kind === 'ok') return { value: outcome.value, request: outcome.request };
      if (outcome.kind === 'refused')
        throw new Error(
          `${label} was refused: ${outcome.refusal.status} ${outcome.refusal.name}: ${outcome.refusal.message}`,
        );
      throw stopOf(label, outcome);
    },
    refused: async (label, op, input, apiKey) => {
      const outcome = await session.call(op, input, apiKey);
      if (outcome.kind === 'refused')
        return { text: `${outcome.refusal.status} ${outcome.refusal.name}`, request: outcome.request };
      if (outcome.kind === 'ok' || outcome.kind === 'unreadable') {
        problems.push(`${label} was accepted (${outcome.status}), expected a refusal`);
        return null;
      }
      throw stopOf(label, outcome);
    },
    expect: (label, actual, expected) => {
      const [actualText, expectedText] = [jsonText(actual), jsonText(expected)];
      if (actualText !== expectedText) problems.push(`${label}: ${actualText}, expected ${expectedText}`);
    },
    judge: (rule: RuleName, op, seen, request) => {
      const evidence =
        request === null ? `${op} answered ${seen}` : `${request.method} ${request.url} answered ${seen}`;
      const verdict = judge(rule, dialectOf(serviceOf(op)), seen, {
        endpoint: op,
        evidence,
        ...(request === null ? {} : { reproduce: env.curlOf(request) }),
      });
      if (verdict.verdict === 'documented') env.raise(verdict.finding);
      else if (verdict.verdict === 'fail') problems.push(verdict.detail);
    },
    problem: (text) => problems.push(text),
  };
}
