/**
 * The shapes of a route → operation row (route-operations.ts and its per-service files): the
 * recorded call a row reads, the translation of recorded identifiers to the target's, and the row.
 * A file of its own so the per-service row files and the table that joins them share it.
 */
import type { OperationInput, OperationName } from '../live.ts';

/** A recorded request as a row reads it. */
export interface RecordedCall {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** The JSON body; undefined when there was none (or only a raw one). */
  readonly body: unknown;
  /** The recorded answer's JSON body (a bet's client seed when its request sent none); undefined when none. */
  readonly answer: unknown;
  /** The recorded caller's agent id (found by its key), null when the request carried none. */
  readonly callerId: string | null;
}

/** Recorded identifiers → the target's. */
export interface IdTranslation {
  /** An agent by its id, address or referral code → the live agent id (the reference itself when unknown). */
  agent(reference: string): string;
  escrow(escrowId: string): string;
  /** A recorded bet id → the target's (the bet id itself when unbound). */
  bet(betId: string): string;
  /** A recorded order id → the target's (the order id itself when unbound). */
  order(orderId: string): string;
  /** A recorded tournament id → the target's (the id itself when unbound). */
  tournament(tournamentId: string): string;
  /** A recorded transaction hash → the target's (the hash itself when unbound). */
  tx(txHash: string): string;
  /** A domain name → the live domain id the target issued when the replay registered it (null when none). */
  domain(name: string): string | null;
  /** A recorded wallet address → the live one the replay's created wallet has (the address itself when unbound). */
  address(recorded: string): string;
  /** The live sender's key for a recorded wallet send body (ReplayKeyring, in memory only); null when none is known. */
  walletKey(body: unknown): string | null;
  /** The view and spend keys of a live monero address the replay created (in memory only); null when none is known. */
  moneroKeys(liveAddress: string): { readonly viewKey: string; readonly spendKey: string } | null;
}

export interface RouteOperation<O extends OperationName> {
  readonly route: string;
  readonly op: O;
  input(call: RecordedCall, ids: IdTranslation): OperationInput<O> | null;
  /** Why a well-formed recorded request still expresses no operation any target offers (a limit order), or null. */
  readonly notReplayed?: (call: RecordedCall, ids: IdTranslation) => string | null;
  /** Recorded agent references besides the caller the operation names (a transfer's receiver). */
  readonly agents?: (call: RecordedCall) => readonly string[];
  /** Where one route performs several operations (an order: market or limit), whether this row's is the call's. */
  readonly when?: (call: RecordedCall) => boolean;
  /** The recorded answer as the operation's answer reads it, where the route answers in another shape (a read by hash as a list of one). */
  readonly recordedAs?: (answer: unknown) => unknown;
}

export type AnyRouteOperation = { [O in OperationName]: RouteOperation<O> }[OperationName];
