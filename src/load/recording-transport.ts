/**
 * Each agent's Transport in a scenario load run: it sends through the run's LoadSender
 * (load-run-transport.ts) and records one sample per request, so the agents' own AfpClient drives
 * the live target unchanged while every request lands in the LoadRecorder.
 * A sample: endpoint = the afp route id the request addresses (`escrow.B.create`), found through
 * the route table as the replay report names endpoints (src/replay/endpoint-name.ts); intended
 * start = the iteration's scheduled instant for its first request, the actual send time for the
 * next ones; status 0 when no answer came. Requests cut by the generator after the graceful stop
 * are not samples. Why its own file: `afp load URL` has no agents and need not load the route table.
 */
import type { Transport, TransportRequest, TransportResponse } from '../client/transport.ts';
import type { WaitClock } from '../core/clock.ts';
import { endpointName } from '../replay/endpoint-name.ts';
import type { LoadSample } from './load-recorder.ts';
import { clientErrorText, Interrupted, requestFailed, type LoadSender } from './load-run-transport.ts';

export interface RecordingOptions {
  readonly sender: LoadSender;
  readonly clock: WaitClock;
  readonly onSample: (sample: LoadSample) => void;
  /** The iteration's intended start, handed out once (to its first request); null afterwards. */
  readonly takeIntendedStartMs: () => number | null;
  /** What to await before each request (an agent's own set-up calls still under way), or null when nothing is. */
  readonly before?: () => Promise<void> | null;
}

/**
 * A Transport that sends through the sender and records one sample per request. Its promise is the
 * only one between an answer and the agent's code: the sample is recorded and the promise settled
 * in the turn the answer is read.
 */
export function recordingTransport(options: RecordingOptions): Transport {
  const { sender, clock, onSample } = options;
  const send = (request: TransportRequest): Promise<TransportResponse> => {
    const sentMs = clock.nowMs();
    const intendedStartMs = Math.min(options.takeIntendedStartMs() ?? sentMs, sentMs);
    const endpoint = endpointName(request);
    return new Promise<TransportResponse>((resolve, reject) =>
      sender.dispatch(request, (outcome) => {
        if (outcome.ok) {
          onSample({
            endpoint,
            intendedStartMs,
            sentMs,
            endMs: clock.nowMs(),
            status: outcome.response.status,
            failed: requestFailed(outcome.response.status),
          });
          resolve(outcome.response);
          return;
        }
        if (!(outcome.error instanceof Interrupted))
          onSample({
            endpoint,
            intendedStartMs,
            sentMs,
            endMs: clock.nowMs(),
            status: 0,
            failed: true,
            error: clientErrorText(outcome.error),
          });
        reject(outcome.error);
      }),
    );
  };
  return (request) => {
    // Only waited for when there is something to wait for: the intended start is taken in the caller's turn.
    const waiting = options.before?.() ?? null;
    return waiting === null ? send(request) : waiting.then(() => send(request));
  };
}
