/**
 * The shapes of the conformance suite (STYLE rule 8): cases are data, a target is what they run
 * against, results are plain data. Nothing here knows vitest, so a future `afp conform --target`
 * can run the same cases and print the same results.
 *
 * Two kinds of case:
 *   - 'rejection': one bad request sent by a fresh caller (registered with its own id and its own
 *     X-Forwarded-For IP, beside a fresh counterparty), expected to answer exactly `expect` with a
 *     string `error` and `code`, `_info` and the X-RateLimit-* headers, and to leave both agents'
 *     balances as they were;
 *   - 'script': a short happy path (or a time-dependent rule) written as steps over the client,
 *     reporting each mismatch as a problem instead of throwing.
 * A third kind, 'operations' (operation-case.ts), speaks afp's operations through a target's
 * dialect, so it runs on deployments too.
 * Invariants: every case uses only agents it registered itself, so it is safe on a shared target;
 * a case names the capabilities it needs and is skipped, with the reason, where they are missing;
 * a set-up that cannot be done (a SetupError) skips the case with the reason, it never fails it.
 */
import type { CasinoEndpointId } from '../client/casino-client.ts';
import type { TradingEndpointId } from '../client/trading-client.ts';
import type { AfpClient, EndpointId } from '../client/client.ts';
import type { DomainsEndpointId } from '../client/domains-client.ts';
import type { Mount, TransportRequest } from '../client/transport.ts';
import type { WalletEndpointId } from '../client/wallet-client.ts';

/** A fresh agent of one case: its id, key and originating IP. */
export interface CaseAgent {
  readonly agentId: string;
  readonly apiKey: string;
  readonly ip: string;
}

/** What a rejection case's setup produced. */
export interface CaseWorld {
  readonly caller: CaseAgent;
  readonly counterparty: CaseAgent;
  /** A locked escrow from caller to counterparty (setup 'escrow'), else null. */
  readonly escrowId: string | null;
}

export interface ExpectedRejection {
  readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422;
  readonly code: string;
}

export interface RejectionCase {
  readonly kind: 'rejection';
  readonly name: string;
  /** The endpoint the request is aimed at; null for an unknown route. */
  readonly endpoint: EndpointId | CasinoEndpointId | TradingEndpointId | DomainsEndpointId | WalletEndpointId | null;
  readonly setup: 'pair' | 'escrow';
  /** 'caller': sent with the caller's key; 'none': without a key (the request may still carry its own header). */
  readonly auth: 'caller' | 'none';
  readonly expect: ExpectedRejection;
  request(world: CaseWorld): TransportRequest;
}

/** Moves a target's clock forward (POST /_afp/clock on a served target, the VirtualClock in-process). */
export interface ClockControl {
  advance(deltaMs: number): Promise<void>;
}

/** What a script case gets: a client, unique names and a place to report mismatches. */
export interface ScriptSession {
  readonly client: AfpClient;
  /** The clock, when the case declared `needsClock` (else null). */
  readonly clock: ClockControl | null;
  agentId(slot: number): string;
  freshIp(): string;
  /** Records a problem unless `actual` equals `expected` (compared as JSON text). */
  expectEqual(label: string, actual: unknown, expected: unknown): void;
  /** Records a problem (a step that cannot go on). */
  problem(text: string): void;
}

export interface ScriptCase {
  readonly kind: 'script';
  readonly name: string;
  /** The endpoints the script exercises (coverage). */
  readonly endpoints: ReadonlyArray<
    EndpointId | CasinoEndpointId | TradingEndpointId | DomainsEndpointId | WalletEndpointId
  >;
  readonly needsClock: boolean;
  run(session: ScriptSession): Promise<void>;
}

export type ConformanceCase = RejectionCase | ScriptCase;

export interface ConformanceTarget {
  readonly description: string;
  /** A client over the target's transport, without key or IP. */
  client(): AfpClient;
  /** The mounts the target serves (style A needs 'faucet' and 'escrow'). */
  readonly mounts: readonly Mount[];
  /** null when the target's clock cannot be moved exactly; `clockNote` says why. */
  readonly clock: ClockControl | null;
  readonly clockNote: string | null;
  /** Why a mount the target lacks is missing (a target file's dialects say it); default: not announced. */
  readonly mountNotes?: Partial<Readonly<Record<Mount, string>>>;
  /** Why the target cannot register the fresh agents these cases set up (its file says `register: none`); null or absent: it can. */
  readonly registrationNote?: string | null;
}

/** A set-up step (registering agents, funding, locking an escrow) that could not be done: the case is skipped with the message. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

export type CaseResult =
  | { readonly name: string; readonly outcome: 'passed' }
  /** Passed, and the target answered in a shape or by a rule its dialect documents otherwise than the documents: `findingIds` say what. */
  | { readonly name: string; readonly outcome: 'finding'; readonly findingIds: readonly string[] }
  | {
      readonly name: string;
      readonly outcome: 'failed';
      readonly problems: readonly string[];
      readonly findingIds?: readonly string[];
    }
  | { readonly name: string; readonly outcome: 'skipped'; readonly reason: string };
