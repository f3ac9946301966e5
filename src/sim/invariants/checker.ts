/**
 * The shape of an invariant checker: a small observer with hooks the runner calls at fixed
 * points. Each hook returns the violation it saw, or null; the monitor (src/sim/invariants/
 * monitor.ts) counts every hook call as one check and keeps the first violation.
 *
 * Hooks and when they run:
 *   onEvent     every domain event, as the platform emits it (inside the request or timer);
 *   onTransfer  every ledger transfer, as it happens;
 *   onExchange  after every request/response through the simulator's transport;
 *   onTick      after every scheduler event (agent step, platform timer), clock at that instant;
 *   onHour      every virtual hour, for checks too costly to run per event;
 *   atEnd       once, after the platform was advanced to the end of the run.
 * Non-goals: checkers never change the platform; they read it.
 */
import type { Transfer } from '../../core/ledger.ts';
import type { ApiRequest, ApiResponse } from '../../http/dispatcher.ts';
import type { Route } from '../../http/route.ts';
import type { Platform } from '../../platform/platform.ts';
import type { Violation } from '../../report/run-record.ts';
import type { DomainEvent } from '../../services/shared/events.ts';
import { jsonText } from '../json-text.ts';

export type { Violation } from '../../report/run-record.ts';

/** One request and its answer, as the dispatcher saw them. */
export interface Exchange {
  readonly atMs: number;
  readonly agentId: string;
  readonly request: ApiRequest;
  readonly response: ApiResponse;
  /** The row that answered (from `response.routeId`), or null for unmatched requests. */
  readonly route: Route | null;
}

export interface CheckerContext {
  readonly platform: Platform;
  /** The current virtual time (for hooks that carry no time of their own). */
  nowMs(): number;
}

export interface InvariantChecker {
  onEvent?(event: DomainEvent): Violation | null;
  onTransfer?(transfer: Transfer): Violation | null;
  onExchange?(exchange: Exchange): Violation | null;
  onTick?(nowMs: number): Violation | null;
  onHour?(nowMs: number): Violation | null;
  atEnd?(endMs: number): Violation | null;
}

export interface InvariantDefinition {
  readonly name: string;
  readonly description: string;
  create(context: CheckerContext): InvariantChecker;
}

/** The violation `event` shows: at its instant, the event itself (as bounded JSON text) and what it breaks. */
export function eventViolation(event: DomainEvent, message: string): Violation {
  return { atMs: event.atMs, event: jsonText(event), message };
}
