/**
 * `afp export k6 --url URL …`: the URL run `afp load URL …` makes, as a k6 script — the same
 * `load:` section (src/cli/url-flags.ts) through the same k6-options.ts as a scenario's (a
 * constant-arrival-rate scenario with maxVUs from --max-vus, or constant-vus), the thresholds as
 * written, the method, headers and body afp sends (its default `accept` and `content-type`
 * included), and every request tagged `endpoint: METHOD /path` (afp's endpoint name, so a
 * `{endpoint:…}` threshold and a dashboard mean the same in both).
 * `http_req_failed` counts what afp counts (no answer, 429, 5xx): the responseCallback expects
 * every other status. AFP_URL overrides the URL at run time.
 * The body goes byte for byte: a UTF-8 text as a string literal, anything else (a binary
 * --body-file) as base64 that k6's `encoding.b64decode(…, 'std')` turns back into an ArrayBuffer
 * (a string would go out as UTF-8, every byte 0x80-0xFF a U+FFFD). A URL's credentials reach the
 * script as afp sends them, an explicit `authorization: Basic …` header (url-flags.ts), the URL
 * without them. No redirect is followed (`maxRedirects: 0`, k6-options.ts), as afp load follows none.
 * Under --rate the script carries afp load's arrival count and an iteration past it sends nothing:
 * k6 1.3 sometimes starts one more arrival at the end (a race at its stop; 20/s for 2 s gave 40 or
 * 41 in 8 runs even one ms short), and afp load never does. So a threshold on `iterations` (a
 * count==N that afp load passes) is judged on `afp_iterations`, a counter of the iterations within
 * afp load's arrivals: on k6's own `iterations` it failed one run in four (count=601 of 600).
 * Pure and byte-stable: the same flags and version give the same bytes.
 */
import type { LoadSection } from '../../sim/load-schema.ts';
import type { UrlRequest } from '../../load/url-source.ts';
import { urlEndpointName } from '../../load/url-source.ts';
import { jsComment, jsLiteral, jsString, type JsValue } from './js-literal.ts';
import { resolveLoadPlan } from '../../load/executors.ts';
import { arrivalSchedule } from '../../load/executors-arrival.ts';
import { k6Duration, k6Options, type K6Options } from './k6-options.ts';

export interface K6UrlExport {
  readonly request: UrlRequest;
  readonly section: LoadSection;
  readonly timeoutMs: number;
  readonly afpVersion: string;
  /** The command line shown in the header. */
  readonly command: string;
}

export type K6UrlResult =
  | { readonly ok: true; readonly text: string; readonly endpoint: string }
  | { readonly ok: false; readonly errors: readonly string[] };

/** The headers afp's sender puts on the request (load-run-transport.ts): accept, and content-type with a body; the user's win. */
/** The body as a JavaScript expression: a string literal when the bytes are UTF-8 text, else bytes decoded from base64. */
function bodyExpression(body: Uint8Array | undefined): { readonly expression: string; readonly binary: boolean } {
  if (body === undefined) return { expression: 'null', binary: false };
  const bytes = Buffer.from(body);
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(bytes)) return { expression: jsString(text), binary: false };
  return { expression: `encoding.b64decode(${jsString(bytes.toString('base64'))}, 'std')`, binary: true };
}

/** The arrivals afp load schedules for an open-model section (null for a closed loop, --vus). */
function arrivalsOf(section: LoadSection): number | null {
  const planned = resolveLoadPlan({ load: section, scenarioDurationMs: section.duration ?? 0 });
  if (!planned.ok || planned.plan.kind === 'vus') return null;
  return arrivalSchedule(planned.plan).countBefore(planned.plan.durationMs + 1);
}

function sentHeaders(request: UrlRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return { ...headers, ...request.headers };
}

/** `thresholds` with the one on `iterations` (afp takes it without a tag filter) moved to `afp_iterations`. */
function scheduledIterations(thresholds: K6Options['thresholds']): K6Options['thresholds'] {
  return Object.fromEntries(
    Object.entries(thresholds).map(([key, list]) => [key === 'iterations' ? 'afp_iterations' : key, list]),
  );
}

export function exportK6UrlScript(input: K6UrlExport): K6UrlResult {
  const { request } = input;
  const endpoint = urlEndpointName(request);
  const k6 = k6Options({
    name: 'url',
    load: input.section,
    scenarioDurationMs: input.section.duration ?? 0,
    endpoints: [endpoint],
  });
  if (!k6.ok) return { ok: false, errors: k6.errors };
  const body = bodyExpression(request.body);
  const arrivals = arrivalsOf(input.section);
  const counted = arrivals !== null && k6.options.thresholds['iterations'] !== undefined;
  const options: K6Options = counted
    ? { ...k6.options, thresholds: scheduledIterations(k6.options.thresholds) }
    : k6.options;
  const text = [
    `// k6 script exported by afp ${input.afpVersion}: the URL run of \`afp load\`, request for request.`,
    `// Written by \`${jsComment(input.command)}\`: do not edit, export again.`,
    '// Run: k6 run --no-usage-report [-e AFP_URL=<another URL>] <this file>',
    `// Every request is tagged endpoint=${jsComment(jsString(endpoint))} (afp's endpoint name); http_req_failed counts`,
    '// what afp load counts: no answer, a 429 or a 5xx.',
    "import http from 'k6/http';",
    ...(arrivals === null ? [] : ["import exec from 'k6/execution';"]),
    ...(counted ? ["import { Counter } from 'k6/metrics';"] : []),
    ...(body.binary ? ["import encoding from 'k6/encoding';"] : []),
    '',
    `export const options = ${jsLiteral(options as unknown as JsValue)};`,
    '',
    `const URL = __ENV.AFP_URL || ${jsString(request.url)};`,
    `const METHOD = ${jsString(request.method)};`,
    `const BODY = ${body.expression};`,
    `const PARAMS = {`,
    `  headers: ${jsLiteral(sentHeaders(request), 1)},`,
    `  tags: { endpoint: ${jsString(endpoint)} },`,
    `  timeout: '${k6Duration(input.timeoutMs)}',`,
    '  responseCallback: http.expectedStatuses({ min: 100, max: 428 }, { min: 430, max: 499 }),',
    '};',
    '',
    ...(arrivals === null
      ? []
      : [
          `// afp load's arrivals: k6 may start one more at the end (a race at its stop); it sends nothing.`,
          `const ARRIVALS = ${arrivals};`,
          ...(counted
            ? [
                '// The iterations within them: the thresholds written on `iterations` judge this count.',
                "const ITERATIONS = new Counter('afp_iterations');",
              ]
            : []),
          '',
        ]),
    'export default function () {',
    ...(arrivals === null ? [] : ['  if (exec.scenario.iterationInTest >= ARRIVALS) return;']),
    ...(counted ? ['  ITERATIONS.add(1);'] : []),
    '  http.request(METHOD, URL, BODY, PARAMS);',
    '}',
    '',
  ].join('\n');
  return { ok: true, text, endpoint };
}
