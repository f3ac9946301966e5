/**
 * What every command of `afp check --target` is built from (dialect-commands.ts and its service
 * files): the command row and class, sending an operation and reading it as accepted, refused or
 * judged against the documented rules, a figure near its expected value, the account slot drawn,
 * and a minimum learned from a refusal (a game's minimum bet, the escrow's minimum).
 */
import fc from 'fast-check';
import { formatDecimal, type Micro } from '../../core/money.ts';
import {
  findingOf,
  judge,
  type RuleName,
  type CallOutcome,
  type SentRequest,
  type OperationInput,
  type OperationName,
  type OperationResult,
  type Refusal,
  minimumRefusal,
  type Target,
} from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import type { ServiceName } from '../../platform/platform.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { CheckUnavailable } from '../check-unavailable.ts';
import { TargetOutage, throwIfOutage } from './target-outage.ts';
import type { DialectModel, DialectSystem } from './dialect-model.ts';

export type DialectCommand = fc.AsyncCommand<DialectModel, DialectSystem>;

export interface DialectCommandRow {
  readonly name: string;
  readonly operations: readonly OperationName[];
  /** Accounts the command needs (escrows need two). */
  readonly accounts: number;
  /** Why the command cannot be sent to `target` beyond its operations, or null. */
  readonly applies?: (target: Target) => string | null;
  /** A service keeping accounts of its own (trading, domains, wallet): the row needs the check's accounts there. */
  readonly service?: 'trading' | 'domains' | 'wallet';
  readonly weight: number;
  readonly arbitrary: fc.Arbitrary<DialectCommand>;
}

export class Command implements DialectCommand {
  readonly label: string;
  private readonly applicable: (model: Readonly<DialectModel>) => boolean;
  private readonly body: (model: DialectModel, system: DialectSystem) => Promise<void>;

  constructor(
    label: string,
    applicable: (model: Readonly<DialectModel>) => boolean,
    body: (model: DialectModel, system: DialectSystem) => Promise<void>,
  ) {
    this.label = label;
    this.applicable = applicable;
    this.body = body;
  }

  check(model: Readonly<DialectModel>): boolean {
    return this.applicable(model);
  }

  async run(model: DialectModel, system: DialectSystem): Promise<void> {
    model.commandsRun += 1;
    try {
      await this.body(model, system);
    } catch (error) {
      // An announced outage's answer changed nothing: the command is skipped, not judged.
      if (!(error instanceof TargetOutage)) throw error;
      system.outageMet?.(this.label);
    }
  }

  toString(): string {
    return this.label;
  }
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);
const text = (micro: Micro): string => formatDecimal(micro);

/**
 * Sends `op`; a call that got no answer, or was paced past the time budget, means the check cannot
 * go on (CheckUnavailable: exit 4), never a mismatch; an operation the dialect cannot send is a bug
 * (the rows were filtered by what the session offers).
 */
export async function send<O extends OperationName>(
  system: DialectSystem,
  label: string,
  op: O,
  input: OperationInput<O>,
  apiKey: string | null,
): Promise<CallOutcome<OperationResult<O>>> {
  const outcome = await system.session.call(op, input, apiKey);
  await throwIfOutage(system, label, op, outcome);
  if (outcome.kind === 'unreachable') throw new CheckUnavailable(`${label}: ${outcome.message}`);
  if (outcome.kind === 'deadline') throw new CheckUnavailable(`${label}: rate limited past the time budget`);
  if (outcome.kind === 'unsupported') throw new Error(`${label}: ${outcome.reason}`);
  return outcome;
}

export async function accepted<O extends OperationName>(
  system: DialectSystem,
  label: string,
  op: O,
  input: OperationInput<O>,
  apiKey: string | null,
): Promise<{ value: OperationResult<O>; request: SentRequest }> {
  return acceptedOutcome(label, await send(system, label, op, input, apiKey));
}

/** An outcome `send` gave back, which must be an accepted answer. */
export function acceptedOutcome<R>(label: string, outcome: CallOutcome<R>): { value: R; request: SentRequest } {
  if (outcome.kind === 'ok') return { value: outcome.value, request: outcome.request };
  if (outcome.kind === 'refused')
    throw new CheckMismatch(
      `${label}: refused ${outcome.refusal.status} ${outcome.refusal.name} (${outcome.refusal.message}), expected it accepted`,
    );
  throw new CheckMismatch(`${label}: the answer could not be read (${outcome.kind}; see the shape findings)`);
}

export async function refused<O extends OperationName>(
  system: DialectSystem,
  label: string,
  op: O,
  input: OperationInput<O>,
  apiKey: string | null,
): Promise<{ text: string; request: SentRequest }> {
  const outcome = await send(system, label, op, input, apiKey);
  if (outcome.kind === 'refused')
    return { text: `${outcome.refusal.status} ${outcome.refusal.name}`, request: outcome.request };
  throw new CheckMismatch(
    `${label}: accepted (${outcome.kind === 'ok' || outcome.kind === 'unreadable' ? outcome.status : outcome.kind}), expected a refusal`,
  );
}

export function judged(
  system: DialectSystem,
  label: string,
  rule: RuleName,
  op: OperationName,
  seen: string,
  request: SentRequest,
): void {
  const dialect = system.session.target.services[op.split('.')[0] as ServiceName]?.dialect ?? 'A';
  const context = {
    endpoint: op,
    evidence: `${label}: ${request.method} ${request.url} answered ${seen}`,
    reproduce: system.curlOf(request),
  };
  const verdict = judge(rule, dialect, seen, context);
  // Another state of the same record (an escrow still held shown released) contradicts the run.
  if (verdict.verdict === 'fail' && verdict.contradicts) throw new CheckMismatch(`${label}: ${verdict.detail}`);
  // Any other value neither the documents nor the dialect give is the target's own rule (minor), not a broken run.
  const finding = findingOf(verdict, rule, seen, context);
  if (finding !== null) system.raise(finding);
}

export function near(label: string, seen: Micro | null, expected: Micro, slack: Micro): void {
  if (seen !== null && abs(seen - expected) > slack)
    throw new CheckMismatch(
      `${label}: ${text(seen)}, expected ${text(expected)}${slack > 0n ? ` (± ${text(slack)})` : ''}`,
    );
}

export const slot = fc.constantFrom(0, 0, 1);

/**
 * What a minimum bet stated with no amount is learned as: the refused stake plus one cent (the
 * documents' smallest bet and the step of their amounts), so later bets of the game climb to the
 * target's minimum a cent at a time instead of being refused at the same stake again.
 */
const UNSTATED_MINIMUM_STEP_MICRO: Micro = 10_000n;

/**
 * A refusal below the target's own minimum for `key` (a game, or ESCROW_MINIMUM): one that states
 * it above `sentMicro` (stated-minimum.ts), or, where `unstated` allows it, one named as the
 * minimum rule that states no amount (learned as `sentMicro` + UNSTATED_MINIMUM_STEP_MICRO), unless
 * a bet of `key` at or below `sentMicro` was already placed (model.placedMinimums: the target's own
 * answers then contradict the refusal). Learned in `model.minimums` (later bets or escrows go out
 * at it) with `finding` raised each time it rises (its `statedMicro` null for an unstated one),
 * and true; the refusal moved nothing. Any other refusal: false.
 */
export function learnedMinimum(
  system: DialectSystem,
  model: DialectModel,
  key: string,
  sentMicro: Micro,
  refusal: Refusal,
  unstated: boolean,
  finding: (statedMicro: Micro | null, learnedMicro: Micro) => FindingInput,
): boolean {
  const read = minimumRefusal(refusal, sentMicro);
  if (read === null) return false;
  if (read.kind === 'unstated') {
    const placed = model.placedMinimums.get(key);
    if (!unstated || (placed !== undefined && placed <= sentMicro)) return false;
  }
  const learned = read.kind === 'stated' ? read.micro : sentMicro + UNSTATED_MINIMUM_STEP_MICRO;
  const known = model.minimums.get(key);
  if (known === undefined || learned > known) {
    model.minimums.set(key, learned);
    system.raise(finding(read.kind === 'stated' ? read.micro : null, learned));
  }
  return true;
}
