/**
 * The requests of a URL test as k6 code (k6-url-script.ts writes the rest): the REQUESTS list, one
 * entry per request with the method, URL, body and params afp sends (its default `accept` and
 * `content-type` included, tagged `endpoint` and `name` with the request's name), and the default
 * function's calls, in order, each with its checks as one k6 `check()` whose keys are afp's check
 * names (url-checks.ts) and whose functions judge what afp's judge: so k6's per-check passes and
 * fails are afp load's, name for name. An answer that never came (k6's status 0) fails every
 * check, as in afp. Pure.
 */
import { type UrlRequest, checkName, type UrlCheck } from '../../load.ts';
import { jsLiteral, jsString, type JsValue } from './js-literal.ts';
import { k6Duration } from './k6-options.ts';

/** The body as a JavaScript expression: a string literal when the bytes are UTF-8 text, else bytes decoded from base64. */
function bodyExpression(body: Uint8Array | undefined): { readonly expression: string; readonly binary: boolean } {
  if (body === undefined) return { expression: 'null', binary: false };
  const bytes = Buffer.from(body);
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(bytes)) return { expression: jsString(text), binary: false };
  return { expression: `encoding.b64decode(${jsString(bytes.toString('base64'))}, 'std')`, binary: true };
}

/** The headers afp's sender puts on the request (load-run-transport.ts): accept, and content-type with a body; the user's win. */
function sentHeaders(request: UrlRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return { ...headers, ...request.headers };
}

/** Whether any request's body is binary (the script then imports k6/encoding). */
export function anyBinaryBody(requests: readonly UrlRequest[]): boolean {
  return requests.some((request) => bodyExpression(request.body).binary);
}

/**
 * `const REQUESTS = [...]`: with one request (a URL run), its URL may be replaced at run time by
 * AFP_URL. `http_req_failed` counts what afp counts (no answer, 429, 5xx): EXPECTED (the
 * responseCallback) takes every other status.
 */
export function requestsDeclaration(requests: readonly UrlRequest[], timeoutMs: number): string[] {
  const overridable = requests.length === 1;
  const entries = requests.flatMap((request) => [
    '  {',
    `    method: ${jsString(request.method)},`,
    `    url: ${overridable ? '__ENV.AFP_URL || ' : ''}${jsString(request.url)},`,
    `    body: ${bodyExpression(request.body).expression},`,
    '    params: {',
    `      headers: ${jsLiteral(sentHeaders(request), 3)},`,
    `      tags: { endpoint: ${jsString(request.name)}, name: ${jsString(request.name)} },`,
    `      timeout: '${k6Duration(timeoutMs)}',`,
    '      responseCallback: EXPECTED,',
    '    },',
    '  },',
  ]);
  return [
    'const EXPECTED = http.expectedStatuses({ min: 100, max: 428 }, { min: 430, max: 499 });',
    'const REQUESTS = [',
    ...entries,
    '];',
    '',
    '/** One request of REQUESTS, as afp load sends it. */',
    'function send(index) {',
    '  const request = REQUESTS[index];',
    '  return http.request(request.method, request.url, request.body, request.params);',
    '}',
  ];
}

/** The JSON checks' reader, in the script when a request has one: the value at a path of the parsed body. */
export const JSON_AT_FUNCTION: readonly string[] = [
  '',
  "/** The value at `steps` of the body read as JSON (undefined where there is none), as afp's json check reads it. */",
  'function jsonAt(response, steps) {',
  '  let value;',
  '  try {',
  '    value = JSON.parse(response.body);',
  '  } catch (error) {',
  '    return undefined;',
  '  }',
  '  for (const step of steps) {',
  "    if (value === null || typeof value !== 'object') return undefined;",
  "    if (typeof step === 'number' ? !Array.isArray(value) : Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, step))",
  '      return undefined;',
  '    value = value[step];',
  '  }',
  '  return value;',
  '}',
];

export function anyJsonCheck(requests: readonly UrlRequest[]): boolean {
  return requests.some((request) => request.checks.some((check) => check.kind === 'json'));
}

/** A check's function, judging a k6 response as afp judges an answer (url-checks.ts `passes`). */
function checkFunction(check: UrlCheck): string {
  switch (check.kind) {
    case 'status':
      return `(r) => r.status === ${check.status}`;
    case 'status_in':
      return `(r) => ${jsLiteral(check.statuses as unknown as JsValue)}.includes(r.status)`;
    case 'body_contains':
      return `(r) => r.status !== 0 && typeof r.body === 'string' && r.body.includes(${jsString(check.text)})`;
    case 'json':
      return `(r) => r.status !== 0 && jsonAt(r, ${jsLiteral(check.steps as unknown as JsValue)}) === ${jsLiteral(check.equals)}`;
  }
}

/** The default function's calls: each request in order, its checks judged on its answer. */
export function requestCalls(requests: readonly UrlRequest[]): string[] {
  return requests.flatMap((request, index) => {
    if (request.checks.length === 0) return [`  send(${index});`];
    return [
      `  check(send(${index}), {`,
      ...request.checks.map((check) => `    ${jsString(checkName(request.name, check))}: ${checkFunction(check)},`),
      '  });',
    ];
  });
}
