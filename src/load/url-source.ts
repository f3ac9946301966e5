/**
 * UrlSource: the generator's IterationSource for `afp load URL` — each iteration sends the URL
 * test's requests in order (one for a URL, each item of a --requests file: k6's default function
 * with several http calls), each after the one before has its answer, through the load senders
 * (one per origin, load-run-transport.ts: the lean keep-alive client for http://, node:https for
 * https://), each measured in the LoadRecorder like an agent's request: the first's latency from
 * the iteration's INTENDED start (the generator's schedule), so a stalled target shows its stall
 * instead of slowing the schedule down; the later ones' from when they were sent.
 *
 * No agent, scenario, target file or key: the same generator, recorder, thresholds and reports as
 * the scenario run, with a source that needs nothing but the requests. A request's name in every
 * report and metric label is its `name` (a URL's: `METHOD /path`, the query left out, so one URL
 * is one endpoint). Each answer is judged by the request's checks (url-checks.ts), counted in the
 * recorder as k6 counts `check()` results, and handed to `onCheck` (the k6 JSON output's points).
 * Failures are counted, never thrown: an answer is a sample with its status (`requestFailed`: no
 * answer, 429, 5xx), no answer a sample with status 0 whose checks fail, and the iteration goes on
 * to its next request as k6's does; only the generator's cut (Interrupted) records nothing and ends
 * the iteration, as the scenario run does. The source is never busy: the in-flight cap is the
 * generator's (max_in_flight / --max-vus), and each sender has that many connections.
 */
import type { WireMethod } from '../client/transport.ts';
import type { IterationEnd, IterationSource } from './generator.ts';
import type { WaitClock } from '../core/clock.ts';
import type { LoadSample } from './load-recorder.ts';
import { checkName, passes, type UrlCheck } from './url-checks.ts';
import {
  clientErrorText,
  Interrupted,
  requestFailed,
  type LoadSender,
  type SendOutcome,
} from './load-run-transport.ts';

export interface UrlRequest {
  /** An absolute http(s) URL, path and query included. */
  readonly url: string;
  readonly method: WireMethod;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's bytes, sent as they are (a --body-file may be binary). */
  readonly body: Uint8Array | undefined;
  /** The request's name in reports and metrics (k6's `name` tag); a URL's is `METHOD /path` (urlEndpointName). */
  readonly name: string;
  readonly checks: readonly UrlCheck[];
}

/** The sender's one mount for `url`: its origin (the path goes with each request). */
export function urlMount(url: string): { readonly api: string } {
  return { api: new URL(url).origin };
}

/** A request as the source sends it: its path (the sender appends it to its origin) and its checks' names. */
interface Prepared {
  readonly request: UrlRequest;
  readonly sender: LoadSender;
  readonly path: string;
  readonly checkNames: readonly string[];
}

export interface UrlSourceOptions {
  readonly requests: readonly UrlRequest[];
  /** The sender of each request's origin. */
  readonly senderOf: (origin: string) => LoadSender;
  readonly clock: WaitClock;
  readonly onSample: (sample: LoadSample) => void;
  readonly onCheck: (name: string, ok: boolean, atMs: number) => void;
}

export class UrlSource implements IterationSource {
  private readonly prepared: readonly Prepared[];
  private readonly clock: WaitClock;
  private readonly onSample: (sample: LoadSample) => void;
  private readonly onCheck: UrlSourceOptions['onCheck'];

  constructor(options: UrlSourceOptions) {
    this.clock = options.clock;
    this.onSample = options.onSample;
    this.onCheck = options.onCheck;
    this.prepared = options.requests.map((request) => {
      const parsed = new URL(request.url);
      return {
        request,
        sender: options.senderOf(parsed.origin),
        path: parsed.pathname + parsed.search,
        checkNames: request.checks.map((check) => checkName(request.name, check)),
      };
    });
  }

  start(intendedStartMs: number, ended: (end: IterationEnd) => void): boolean {
    let returned = false;
    const next = (index: number, intendedMs: number): void => {
      const prepared = this.prepared[index];
      if (prepared === undefined) return ended(null);
      const sentMs = this.clock.nowMs();
      const startMs = Math.min(intendedMs, sentMs);
      this.send(prepared, (outcome) => {
        // An iteration ends after `start` returned (IterationSource): a failure the sender reports at once waits a microtask.
        const settle = (): void => {
          if (!outcome.ok && outcome.error instanceof Interrupted) return ended({ error: outcome.error });
          this.settle(prepared, { startMs, sentMs }, outcome);
          next(index + 1, this.clock.nowMs());
        };
        if (returned) settle();
        else queueMicrotask(settle);
      });
    };
    next(0, intendedStartMs);
    returned = true;
    return true;
  }

  private send(prepared: Prepared, done: (outcome: SendOutcome) => void): void {
    const { request } = prepared;
    // The path goes as given (query included, its encoding untouched): the sender appends it to the origin.
    prepared.sender.dispatch(
      {
        mount: 'api',
        method: request.method,
        path: prepared.path,
        headers: request.headers,
        ...(request.body === undefined ? {} : { bodyBytes: request.body }),
      },
      done,
    );
  }

  /** One answer (or none): its sample, then its checks. */
  private settle(
    prepared: Prepared,
    times: { readonly startMs: number; readonly sentMs: number },
    outcome: SendOutcome,
  ): void {
    const endMs = this.clock.nowMs();
    const endpoint = prepared.request.name;
    const status = outcome.ok ? outcome.response.status : 0;
    this.onSample({
      endpoint,
      intendedStartMs: times.startMs,
      sentMs: times.sentMs,
      endMs,
      status,
      failed: outcome.ok ? requestFailed(status) : true,
      ...(outcome.ok ? {} : { error: clientErrorText(outcome.error) }),
    });
    if (prepared.checkNames.length === 0) return;
    const answer = { status, text: () => (outcome.ok ? (outcome.response.rawText ?? '') : '') };
    prepared.request.checks.forEach((check, index) =>
      this.onCheck(prepared.checkNames[index] ?? '', passes(check, answer), endMs),
    );
  }
}
