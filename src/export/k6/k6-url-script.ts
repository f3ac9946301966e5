/**
 * `afp export k6 URL …` (or `--url URL`, or `--requests FILE`): the URL test `afp load` runs, as a
 * k6 script — the same `load:` section (src/cli/url-flags.ts) through the same k6-options.ts as a
 * scenario's (a constant-arrival-rate scenario with maxVUs from --max-vus, or constant-vus), the
 * thresholds as written (`checks: rate>0.99` included), the requests in order with the method,
 * headers and body afp sends, each tagged `endpoint` and `name` with afp's name for it (so a
 * `{endpoint:…}` threshold and a dashboard mean the same in both), and their checks as k6
 * `check()` calls (k6-url-requests.ts) named and judged as afp's. `--tag` goes as k6's
 * `options.tags` (a tag on every metric, as afp load's outputs carry it), and
 * --insecure-skip-tls-verify as `insecureSkipTLSVerify: true`.
 * `http_req_failed` counts what afp counts (no answer, 429, 5xx). AFP_URL overrides the URL of a
 * one-request test at run time.
 * A URL's credentials reach the script as afp sends them, an explicit `authorization: Basic …`
 * header (url-flags.ts), the URL without them. No redirect is followed (`maxRedirects: 0`,
 * k6-options.ts), as afp load follows none.
 * Under --rate the script carries afp load's arrival count and an iteration past it sends nothing:
 * k6 1.3 sometimes starts one more arrival at the end (a race at its stop; 20/s for 2 s gave 40 or
 * 41 in 8 runs even one ms short), and afp load never does. So a threshold on `iterations` (a
 * count==N that afp load passes) is judged on `afp_iterations`, a counter of the iterations within
 * afp load's arrivals: on k6's own `iterations` it failed one run in four (count=601 of 600).
 * Pure and byte-stable: the same flags and version give the same bytes.
 */
import type { LoadSection } from '../../scenario/load-schema.ts';
import { type UrlRequest, resolveLoadPlan, arrivalSchedule } from '../../load.ts';
import { jsComment, jsLiteral, jsString, type JsValue } from './js-literal.ts';
import { k6Options, type K6Options } from './k6-options.ts';
import { anyBinaryBody, anyJsonCheck, JSON_AT_FUNCTION, requestCalls, requestsDeclaration } from './k6-url-requests.ts';

export interface K6UrlExport {
  /** Sent in order every iteration (at least one). */
  readonly requests: readonly UrlRequest[];
  readonly section: LoadSection;
  readonly timeoutMs: number;
  /** --tag NAME=VALUE: k6's options.tags. */
  readonly tags?: Readonly<Record<string, string>>;
  readonly insecureSkipTlsVerify?: boolean;
  readonly afpVersion: string;
  /** The command line shown in the header. */
  readonly command: string;
}

export type K6UrlResult =
  | { readonly ok: true; readonly text: string; readonly endpoint: string }
  | { readonly ok: false; readonly errors: readonly string[] };

/** The arrivals afp load schedules for an open-model section (null for a closed loop, --vus). */
function arrivalsOf(section: LoadSection): number | null {
  const planned = resolveLoadPlan({ load: section, scenarioDurationMs: section.duration ?? 0 });
  if (!planned.ok || planned.plan.kind === 'vus') return null;
  return arrivalSchedule(planned.plan).countBefore(planned.plan.durationMs + 1);
}

/** `thresholds` with the one on `iterations` (afp takes it without a tag filter) moved to `afp_iterations`. */
function scheduledIterations(thresholds: K6Options['thresholds']): K6Options['thresholds'] {
  return Object.fromEntries(
    Object.entries(thresholds).map(([key, list]) => [key === 'iterations' ? 'afp_iterations' : key, list]),
  );
}

/** k6's options: the profile's, then the run's tags and TLS choice. */
function scriptOptions(input: K6UrlExport, options: K6Options, counted: boolean): JsValue {
  const tags = input.tags ?? {};
  return {
    ...(counted ? { ...options, thresholds: scheduledIterations(options.thresholds) } : options),
    ...(Object.keys(tags).length === 0 ? {} : { tags }),
    ...(input.insecureSkipTlsVerify === true ? { insecureSkipTLSVerify: true } : {}),
  } as unknown as JsValue;
}

function header(input: K6UrlExport, names: readonly string[]): string[] {
  return [
    `// k6 script exported by afp ${input.afpVersion}: the URL test of \`afp load\`, request for request.`,
    `// Written by \`${jsComment(input.command)}\`: do not edit, export again.`,
    `// Run: k6 run --no-usage-report${input.requests.length === 1 ? ' [-e AFP_URL=<another URL>]' : ''} <this file>`,
    `// Every request is tagged endpoint and name with afp's name for it (${jsComment(names.map(jsString).join(', ')).slice(0, 300)});`,
    "// http_req_failed counts what afp load counts: no answer, a 429 or a 5xx; checks are afp's, name for name.",
  ];
}

export function exportK6UrlScript(input: K6UrlExport): K6UrlResult {
  const names = [...new Set(input.requests.map((request) => request.name))];
  const k6 = k6Options({
    name: 'url',
    load: input.section,
    scenarioDurationMs: input.section.duration ?? 0,
    endpoints: names,
    guarded: ['dropped_iterations'],
  });
  if (!k6.ok) return { ok: false, errors: k6.errors };
  if (k6.options.thresholds['afp_late_agent_steps'] !== undefined)
    return {
      ok: false,
      errors: [
        "--threshold afp_late_agent_steps: a scenario script's metric (its agents' late steps); a URL run has no agents",
      ],
    };
  const arrivals = arrivalsOf(input.section);
  const counted = arrivals !== null && k6.options.thresholds['iterations'] !== undefined;
  const checked = input.requests.some((request) => request.checks.length > 0);
  const text = [
    ...header(input, names),
    `import http from 'k6/http';`,
    ...(checked ? ["import { check } from 'k6';"] : []),
    ...(arrivals === null ? [] : ["import exec from 'k6/execution';"]),
    ...(counted ? ["import { Counter } from 'k6/metrics';"] : []),
    ...(anyBinaryBody(input.requests) ? ["import encoding from 'k6/encoding';"] : []),
    '',
    `export const options = ${jsLiteral(scriptOptions(input, k6.options, counted))};`,
    '',
    ...requestsDeclaration(input.requests, input.timeoutMs),
    ...(anyJsonCheck(input.requests) ? JSON_AT_FUNCTION : []),
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
    ...requestCalls(input.requests),
    '}',
    '',
  ].join('\n');
  return { ok: true, text, endpoint: names.join(', ') };
}
