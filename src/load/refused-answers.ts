/**
 * How many of a run's answers were refusals — 429 (rate-limited) or 5xx (the server failed or shed
 * the request) — so that a run that mostly measured a target saying no says so first, and does not
 * pass on figures of refusals (both engines: load-view.ts, load-autocannon.ts).
 * Counted among answers only: a request with no answer (status 0) is the unanswered check's
 * (exit 4). Other 4xx are not refusals: a 400, 404 or 409 is the target's answer about the request
 * (the agents send bad input and double claims on purpose), served as fast as a 200.
 * "Mostly": more than half of the answers. Pure.
 */
import type { LoadSnapshot } from './load-recorder.ts';

export interface RefusedAnswers {
  /** Requests that got an answer (any status but 0). */
  readonly answers: number;
  readonly rateLimited: number;
  readonly serverErrors: number;
}

export function refusedAnswers(snapshot: Pick<LoadSnapshot, 'endpoints'>): RefusedAnswers {
  let answers = 0;
  let rateLimited = 0;
  let serverErrors = 0;
  for (const endpoint of snapshot.endpoints)
    for (const [status, count] of Object.entries(endpoint.statuses)) {
      const code = Number(status);
      if (code === 0) continue;
      answers += count;
      if (code === 429) rateLimited += count;
      else if (code >= 500 && code <= 599) serverErrors += count;
    }
  return { answers, rateLimited, serverErrors };
}

/** More than half of the answers were 429 or 5xx. */
export function mostlyRefused(refused: RefusedAnswers): boolean {
  return (refused.rateLimited + refused.serverErrors) * 2 > refused.answers;
}

/** The summary's first line when the run mostly measured refusals; null otherwise. */
export function refusedLine(refused: RefusedAnswers): string | null {
  if (!mostlyRefused(refused)) return null;
  const count = refused.rateLimited + refused.serverErrors;
  const share = ((count / refused.answers) * 100).toFixed(1);
  const kinds = [
    ...(refused.rateLimited > 0 ? [`${refused.rateLimited} × 429`] : []),
    ...(refused.serverErrors > 0 ? [`${refused.serverErrors} × 5xx`] : []),
  ].join(', ');
  return `mostly refused: ${count} of ${refused.answers} answers (${share}%) were 429 or 5xx (${kinds}): the rate and latency below are of the target refusing, not serving (a key of a higher tier, or a slower rate, measures it serving)`;
}

/** The exit line of a run without thresholds that mostly measured refusals (exit 5). */
export function refusedFailure(refused: RefusedAnswers): string {
  const count = refused.rateLimited + refused.serverErrors;
  return `FAILED: ${count} of ${refused.answers} answers were refused (429 or 5xx), more than half, and no threshold says that is expected (a threshold, e.g. http_req_failed: rate<1, judges such a run instead)`;
}
