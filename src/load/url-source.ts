/**
 * UrlSource: the generator's IterationSource for `afp load URL` — each iteration is one request to
 * one URL (method, headers, body fixed), sent through the load sender (load-run-transport.ts: the
 * lean keep-alive client for http://, node:https for https://) and measured in the LoadRecorder
 * like an agent's request: latency from the iteration's INTENDED start (the generator's schedule),
 * so a stalled target shows its stall instead of slowing the schedule down.
 *
 * No agent, scenario, target file or key: the same generator, recorder, thresholds and reports as
 * the scenario run, with a source that needs nothing but the URL. The endpoint's name in every
 * report and metric label is `METHOD /path` (the query left out, so one URL is one endpoint).
 * Failures are counted, never thrown: an answer is a sample with its status (`requestFailed`: no
 * answer, 429, 5xx), no answer a sample with status 0; only the generator's cut (Interrupted)
 * records nothing, as the scenario run does. The source is never busy: the in-flight cap is the
 * generator's (max_in_flight / --max-vus), and the sender has that many connections.
 */
import type { WireMethod } from '../client/transport.ts';
import type { IterationEnd, IterationSource } from './generator.ts';
import type { WaitClock } from '../core/clock.ts';
import type { LoadSample } from './load-recorder.ts';
import {
  clientErrorText,
  Interrupted,
  requestFailed,
  type LoadSender,
  type SendOutcome,
} from './load-run-transport.ts';

export { URL_METHODS, urlMethodOf } from './url-method.ts';

export interface UrlRequest {
  /** An absolute http(s) URL, path and query included. */
  readonly url: string;
  readonly method: WireMethod;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's bytes, sent as they are (a --body-file may be binary). */
  readonly body: Uint8Array | undefined;
}

/** `METHOD /path`: the endpoint's name in reports, thresholds (`{endpoint:GET /}`), k6 tags and metric labels. */
export function urlEndpointName(request: { readonly url: string; readonly method: string }): string {
  return `${request.method} ${new URL(request.url).pathname}`;
}

/** The sender's one mount for `url`: its origin (the path goes with each request). */
export function urlMount(url: string): { readonly api: string } {
  return { api: new URL(url).origin };
}

export class UrlSource implements IterationSource {
  readonly endpoint: string;
  private readonly path: string;
  private readonly request: UrlRequest;
  private readonly sender: LoadSender;
  private readonly clock: WaitClock;
  private readonly onSample: (sample: LoadSample) => void;

  constructor(options: {
    request: UrlRequest;
    sender: LoadSender;
    clock: WaitClock;
    onSample: (sample: LoadSample) => void;
  }) {
    this.request = options.request;
    this.sender = options.sender;
    this.clock = options.clock;
    this.onSample = options.onSample;
    this.endpoint = urlEndpointName(options.request);
    const parsed = new URL(options.request.url);
    this.path = parsed.pathname + parsed.search;
  }

  start(intendedStartMs: number, ended: (end: IterationEnd) => void): boolean {
    const { request, clock, endpoint } = this;
    const sentMs = clock.nowMs();
    const startMs = Math.min(intendedStartMs, sentMs);
    let returned = false;
    const settle = (outcome: SendOutcome): void => {
      if (outcome.ok) {
        this.onSample({
          endpoint,
          intendedStartMs: startMs,
          sentMs,
          endMs: clock.nowMs(),
          status: outcome.response.status,
          failed: requestFailed(outcome.response.status),
        });
        ended(null);
      } else if (outcome.error instanceof Interrupted) {
        ended({ error: outcome.error });
      } else {
        this.onSample({
          endpoint,
          intendedStartMs: startMs,
          sentMs,
          endMs: clock.nowMs(),
          status: 0,
          failed: true,
          error: clientErrorText(outcome.error),
        });
        ended(null);
      }
    };
    // The path goes as given (query included, its encoding untouched): the sender appends it to the origin.
    this.sender.dispatch(
      {
        mount: 'api',
        method: request.method,
        path: this.path,
        headers: request.headers,
        ...(request.body === undefined ? {} : { bodyBytes: request.body }),
      },
      (outcome) => {
        // An iteration ends after `start` returned (IterationSource): a failure the sender reports at once waits a microtask.
        if (returned) settle(outcome);
        else queueMicrotask(() => settle(outcome));
      },
    );
    returned = true;
    return true;
  }
}
