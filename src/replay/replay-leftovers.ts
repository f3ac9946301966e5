/**
 * What a replayed exchange leaves the recording's view of: where the replay did not send an
 * exchange the recording accepted, or the target answered it otherwise, the escrow it settled, the
 * addresses its send moved and its caller's balance are no longer the recording's
 * (replay-divergence.ts), so later differences in them are that cause's consequences, not findings
 * of their own. Split out of operation-replay.ts: the replay loop decides, this file remembers.
 */
import type { OperationInput, OperationName, ReadOutcome } from '../live.ts';
import type { Bindings } from './bindings.ts';
import type { ResultDifference } from './operation-diff.ts';
import type { RecordedExchange } from './record-format.ts';
import type { ReplayDivergence } from './replay-divergence.ts';
import { bearerOf } from './replay-exchange-parts.ts';

/** An exchange the replay sent and both answers of it. */
export interface LeftAnswer {
  readonly op: OperationName;
  readonly input: OperationInput<OperationName>;
  readonly recorded: ReadOutcome<unknown>;
  readonly live: ReadOutcome<unknown>;
}

export class ReplayLeftovers {
  private readonly divergence: ReplayDivergence;
  private readonly bindings: Bindings;

  constructor(divergence: ReplayDivergence, bindings: Bindings) {
    this.divergence = divergence;
    this.bindings = bindings;
  }

  /**
   * A drawn outcome (a bet, a batch) sent across dialects: from it on the agent's balance is the
   * target's own draws', not the recording's (drawn-outcomes.ts).
   */
  drawnBy(exchange: RecordedExchange, routeId: string, liveKey: string | null): void {
    this.divergence.leaveBalance(liveKey, `seq ${exchange.seq} (${routeId}: the target draws its own outcomes)`);
  }

  /**
   * A recorded exchange the recording accepted and the replay did not send: the escrow it settled,
   * the addresses its send moved, and its caller's balance leave the recording's (replay-divergence.ts).
   */
  bySkip(
    exchange: RecordedExchange,
    routeId: string,
    op: OperationName,
    input: OperationInput<OperationName> | null,
    why: string,
  ): void {
    if (exchange.response.status >= 300) return;
    const cause = `seq ${exchange.seq} (${routeId} not replayed: ${why})`;
    const recordedKey = bearerOf(exchange);
    const liveKey = recordedKey === null ? null : (this.bindings.live(recordedKey) ?? recordedKey);
    this.divergence.leaveBalance(liveKey, cause);
    this.leave(exchange, op, input, cause);
  }

  /** A replayed exchange answered otherwise than recorded: what it settled or moved leaves the recording's. */
  byAnswer(
    exchange: RecordedExchange,
    routeId: string,
    sent: LeftAnswer,
    differences: readonly ResultDifference[],
  ): void {
    if (sent.op === 'wallet.swap' && sent.recorded.kind === 'ok') {
      const swap = sent.input as OperationInput<'wallet.swap'>;
      this.divergence.leaveAddress(
        swap.toChain,
        swap.toAddress,
        `seq ${exchange.seq} (${routeId}: a swap pays out at the market rate of its instant, which a replay does not reproduce)`,
      );
    }
    const accepted = differences.find((difference) => difference.field === 'accepted');
    if (accepted === undefined || sent.recorded.kind !== 'ok') return;
    this.leave(exchange, sent.op, sent.input, `seq ${exchange.seq} (${routeId}: ${accepted.note})`);
  }

  private leave(
    exchange: RecordedExchange,
    op: OperationName,
    input: OperationInput<OperationName> | null,
    cause: string,
  ): void {
    const escrowId = (input as { escrowId?: unknown } | null)?.escrowId;
    if (op.startsWith('escrow.') && typeof escrowId === 'string') this.divergence.leaveEscrow(escrowId, cause);
    if (op !== 'wallet.send') return;
    const body = exchange.response.body as { chain?: unknown; from?: unknown; to?: unknown } | null;
    if (body === null || typeof body !== 'object' || typeof body.chain !== 'string') return;
    for (const address of [body.from, body.to])
      if (typeof address === 'string')
        this.divergence.leaveAddress(body.chain, this.bindings.live(address) ?? address, cause);
  }
}
