/**
 * Operation cases: conformance cases written over afp's operations (src/live/operations.ts) and
 * sent through the target's dialects by a LiveSession, so that they run on any target whose
 * dialects offer the operations — afp serve in the documents' style A, or a deployment. The
 * documents' cases (rejection and script cases) address the documents' endpoints and stay as they
 * are; these are what a deployment is held to.
 *
 * A case names the operations it sends and how many funded accounts it needs (opened the target's
 * way: its registration and funding, account-pool.ts), and is skipped, with the reason, where the
 * target lacks one. It reports through its context: `expect` for a semantic rule (a mismatch fails
 * the case), `judge` for a value a dialect may document otherwise (src/live/documented-rules.ts:
 * the dialect's documented value is a finding, not a failure). Every wire deviation a call shows
 * (a renamed or unknown field) is a finding of the case that sent it.
 * Invariants: a case only uses accounts it was given or registered itself; amounts are tiny
 * (minimum bets, escrows of 0.10), so a case costs cents on a real deployment.
 */
import type { ServiceName } from '../platform/platform.ts';
import type {
  RuleName,
  LiveAccount,
  LiveSession,
  SentRequest,
  OperationInput,
  OperationName,
  OperationResult,
  DialectName,
  Target,
} from '../live.ts';

/** The target could not be asked (unreachable, or rate limited past the time budget): the case is skipped with the message. */
export class TargetTrouble extends Error {
  override readonly name = 'TargetTrouble';
}

export interface OperationCaseContext {
  readonly session: LiveSession;
  /** The funded accounts the case asked for, in order. */
  readonly accounts: readonly LiveAccount[];
  /** The dialect `service` speaks (a case's operations guarantee the service is listed). */
  dialectOf(service: ServiceName): DialectName;
  /** A freshly registered account without funds; a SetupError when the target cannot register one. */
  freshAccount(): Promise<LiveAccount>;
  /** Sends `op`; its value when it succeeded, else the case stops, failed (refused, unreadable) or skipped (no answer). */
  ok<O extends OperationName>(
    label: string,
    op: O,
    input: OperationInput<O>,
    apiKey: string | null,
  ): Promise<{ readonly value: OperationResult<O>; readonly request: SentRequest }>;
  /** Sends `op` expecting a refusal; the refusal's `<status> <name>`, or a recorded problem and null when it was accepted. */
  refused<O extends OperationName>(
    label: string,
    op: O,
    input: OperationInput<O>,
    apiKey: string | null,
  ): Promise<{ readonly text: string; readonly request: SentRequest } | null>;
  /** Records a problem unless `actual` equals `expected` (compared as JSON text, bigints as decimals). */
  expect(label: string, actual: unknown, expected: unknown): void;
  /** Judges a value against a documented rule for the dialect of `op`'s service. */
  judge(rule: RuleName, op: OperationName, seen: string, request: SentRequest | null): void;
  problem(text: string): void;
}

export interface OperationCase {
  readonly kind: 'operations';
  readonly name: string;
  readonly operations: readonly OperationName[];
  /** Funded accounts the case needs (at most ACCOUNTS_MAX). */
  readonly accounts: number;
  /** Why `target` cannot run the case beyond its operations and accounts, or null. */
  readonly applies?: (target: Target) => string | null;
  run(context: OperationCaseContext): Promise<void>;
}
