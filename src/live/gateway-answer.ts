/**
 * A gateway's answer: what a reverse proxy (nginx, a load balancer, a CDN) sends when the service
 * behind it did not answer: any 502 or 504 (HTTP's own "bad gateway" and "gateway timeout", JSON
 * or not: API gateways write JSON ones), a CDN's 520 to 530, and a 503 whose body is not JSON (a
 * page; the API's own 503 is JSON, as afp serve's outages are).
 * Why it is its own thing: a deployment is served behind such a proxy (DEPLOYED.md §1.1: nginx in
 * front of the MCP doors), and its page is not the API's answer. Read as one, every occasional 502
 * became a major `shape:<op>:not-json` finding ("the answer is not JSON"), an audit trail "refused
 * (http_502)" that failed `afp audit fairness`, and an `afp check` that ended "an answer differs from
 * the model" (exit 3): a working API called broken for a hiccup in front of it.
 * What afp does with one (live-session.ts): a GET (nothing changes on the target) is sent again
 * after 1, 2, then 4 s (GATEWAY_RETRIES, never past the deadline); a write is not, since the
 * target may have taken it before the proxy gave up: the call ends `unreachable` with `gateway` set,
 * its outcome unknown, as when no answer came. Each gateway answer is a minor finding (an availability
 * problem the user should see, not a wrong API) with the page's first characters as evidence
 * (deviation-findings.ts `gatewayFinding`).
 * A 500, and a JSON 503, are the API's own answers and are judged as before. afp serve itself never
 * answers 502 or 504.
 */

/** Times a GET met by a gateway's answer is sent again. */
export const GATEWAY_RETRIES = 3;
const GATEWAY_FIRST_WAIT_MS = 1_000;
/** Characters of the gateway's page kept as evidence. */
const PAGE_CHARS = 120;

/** Whether an answer of `status` (its body JSON or not) came from a proxy in front of the service, not from the service. */
export function isGatewayAnswer(status: number, json: boolean): boolean {
  if (status === 503) return !json;
  return status === 502 || status === 504 || (status >= 520 && status <= 530);
}

/** The wait before the GET's `retry`-th sending again (0-based): 1 s, 2 s, 4 s. */
export function gatewayWaitMs(retry: number): number {
  return GATEWAY_FIRST_WAIT_MS * 2 ** retry;
}

/** What became of the call, for a message: sent again, or its outcome unknown. */
export function gatewayFate(meeting: {
  readonly method: string;
  readonly sentAgain: boolean;
  readonly retries: number;
}): string {
  if (meeting.sentAgain) return 'sent again';
  if (meeting.method !== 'GET') return 'not sent again: whether the target took it is unknown';
  return meeting.retries === 0 ? 'the time budget left no time to send it again' : `sent ${meeting.retries} more times`;
}

/** The page's first characters on one line (a JSON body as JSON). */
export function pageText(body: unknown): string {
  const raw = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text === '') return '(empty body)';
  return text.length > PAGE_CHARS ? `${text.slice(0, PAGE_CHARS)}…` : text;
}
