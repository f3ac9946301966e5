/**
 * The steps of one replayed exchange and what each hands the next (operation-replay.ts): the gate
 * (its route and operation), the recorded exchange read, the exchange sent, both answers. A step
 * that ends the exchange hands back `Finished` instead. Types only, so the loop reads as its steps.
 */
import type { Dialect, SentRequest, OperationInput, OperationName, OperationResult, ReadOutcome } from '../live.ts';
import type { ServiceName } from '../platform/service-names.ts';
import type { AccountService } from '../check.ts';
import type { Bindings } from './bindings.ts';
import type { RecordedCall, RouteOperation } from './route-operations-types.ts';

/** An exchange past the gate: what replaying it needs to know. */
export interface Gate {
  readonly routeId: string;
  readonly row: RouteOperation<OperationName>;
  readonly dialect: Dialect;
  readonly call: RecordedCall;
  readonly service: ServiceName;
  readonly recordedKey: string | null;
}

/** An exchange's step that ended it: the replay's result for it (a stop's reason, or null). */
export interface Finished {
  readonly finished: string | null;
}

/** A recorded exchange read: its input, its recorded outcome, and the service's own accounts on the target. */
export interface Prepared {
  readonly input: OperationInput<OperationName>;
  readonly recorded: ReadOutcome<OperationResult<OperationName>>;
  readonly own: AccountService | null;
  readonly ownAccounts: boolean;
  readonly ownBindings: Bindings | null;
}

/** An exchange sent and answered: the key it went with, the live outcome and the request (for curl). */
export interface Sent {
  readonly liveKey: string | null;
  readonly live: ReadOutcome<OperationResult<OperationName>>;
  readonly request: SentRequest | null;
}

/** Both answers of an exchange, for following what they leave. */
export interface Answered {
  readonly op: OperationName;
  readonly input: OperationInput<OperationName>;
  readonly recorded: ReadOutcome<OperationResult<OperationName>>;
  readonly live: ReadOutcome<OperationResult<OperationName>>;
  readonly liveKey: string | null;
  readonly sameDialect: boolean;
}
