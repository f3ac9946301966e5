/**
 * The replay loop: every recorded exchange, in recorded order, one at a time — wait for its turn
 * (pacing and clock sync, supplied by the caller), rebind, send, diff. Transport trouble that
 * the caller's retries could not overcome arrives as a `LivenessError` and stops the loop with
 * the seq it stopped at (exit 4); any other throw is a bug and propagates.
 * After an exchange whose recorded answer issued the key of an agent the record lists in `tiers`,
 * `applyTier` tells the target that agent's tier before the next exchange, and `applyDeposit`
 * gives it its casino starting deposit when the record lists one (replay-setup.ts); after an
 * exchange that created a wallet the harness funded, `applyMint` mints each of those funds.
 * No timers or clocks here: `beforeSend`, `send`, `applyTier`, `applyDeposit` and `applyMint` are injected (src/cli/replay.ts, tests).
 */
import type { TransportRequest, TransportResponse } from '../client/transport.ts';
import type { RecordedExchange } from './record-format.ts';
import type { DepositCall, MintCall, SetupOutcome, TierCall, TierOutcome } from './replay-setup.ts';
import type { ReplaySession } from './replay-session.ts';

/** The target stopped answering (after bounded retries), or its clock could not be moved. */
export class LivenessError extends Error {
  override readonly name = 'LivenessError';
}

export interface ReplayDeps {
  /** Pacing and clock sync before the exchange is sent; throws LivenessError when the target is gone. */
  beforeSend(exchange: RecordedExchange): Promise<void>;
  /** Sends one request; throws LivenessError when the target does not answer. */
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Sets an agent's tier on the target; absent: tier calls are not sent. Throws LivenessError when the target does not answer. */
  applyTier?(call: TierCall): Promise<TierOutcome>;
  /** Makes an agent's casino starting deposit on the target; absent: not sent. Throws LivenessError when the target does not answer. */
  applyDeposit?(call: DepositCall): Promise<SetupOutcome>;
  /** Mints a wallet's starting fund on the target; absent: not sent. Throws LivenessError when the target does not answer. */
  applyMint?(call: MintCall): Promise<SetupOutcome>;
}

export type ReplayStop = { readonly seq: number; readonly reason: string } | null;

export async function runReplay(
  exchanges: AsyncIterable<RecordedExchange> | Iterable<RecordedExchange>,
  session: ReplaySession,
  deps: ReplayDeps,
): Promise<ReplayStop> {
  for await (const exchange of exchanges) {
    try {
      await deps.beforeSend(exchange);
      const request = session.prepare(exchange);
      const answer = await deps.send(request);
      session.observe(exchange, answer);
      const call = deps.applyTier === undefined ? null : session.tierCallAfter(exchange);
      if (call !== null && deps.applyTier !== undefined) session.observeTier(call, await deps.applyTier(call));
      const deposit = deps.applyDeposit === undefined ? null : session.depositCallAfter(exchange);
      if (deposit !== null && deps.applyDeposit !== undefined)
        session.observeDeposit(deposit, await deps.applyDeposit(deposit));
      if (deps.applyMint !== undefined)
        for (const mint of session.mintCallsAfter(exchange)) session.observeMint(mint, await deps.applyMint(mint));
    } catch (error) {
      if (error instanceof LivenessError) return { seq: exchange.seq, reason: error.message };
      throw error;
    }
  }
  return null;
}
