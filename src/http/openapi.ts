/**
 * The OpenAPI 3.1 document of one mount, generated from the route table (docs/design.md: route tables
 * are data; the OpenAPI documents are derived from them). Every response's `_info.docs` points
 * to `/openapi.json`, which `afp serve` answers on each mount with that mount's document.
 *
 * What comes from the rows: paths (`:id` → `{id}`), operationId (the row id), summary and
 * description, tags [service, style], security (auth 'optional' lists both anonymous and bearer),
 * and the success status (`successStatus`, the same field the dispatcher answers with). What the
 * rows do not carry lives in tables beside them, keyed by row id, each held to the real rows by
 * tests: the request (body, query and path parameters: openapi-requests.ts, zod), the success
 * body (openapi-responses*.ts, zod), the domain error codes (DOMAIN_ERRORS, openapi-errors.ts)
 * and the examples (openapi-examples.json, answers of a fixed-seed tour of every row written by
 * scripts/gen-openapi-examples.ts). The zod definitions become JSON Schema 2020-12 (OpenAPI 3.1's
 * dialect) through `z.toJSONSchema`, in `components.schemas`: shared shapes under their names,
 * each operation's own as `<row id>.request` / `<row id>.response`.
 * Derived for every row: 400 (every row parses its input; unknown body fields are refused),
 * 401 unless auth is 'none', 429 (every request counts), and `default` for what any request may
 * meet (405, 413, 415, 500, 503 in a fault window). Every response documents the X-RateLimit-*
 * headers; 429 adds Retry-After.
 *
 * Invariants: pure and deterministic — the same rows give the same bytes whatever their order
 * (paths sorted, methods in a fixed order, schemas sorted by name, keys in insertion order);
 * JSON values only; a schema is listed only when the mount's document refers to it. The parts
 * that cost (the zod conversion) are computed once per route table and mount, deeply frozen.
 * Tests: test/http/openapi.test.ts (structure, statuses against the dispatcher),
 * openapi-contract.test.ts (request definitions against each row's parse), openapi-responses
 * .test.ts (every success body of a full tour against its schema; examples fresh),
 * openapi-validator.test.ts (a real OpenAPI 3.1 validator; an openapi-typescript client against
 * afp's own client).
 * The deployed dialect's rows (`afp serve --dialect deployed`) take their definitions from
 * openapi-deployed.ts and answer the deployment's wire: errors `{ error, message }`
 * (DeployedError), statuses and names per row from DEPLOYED_ERRORS, no X-RateLimit-* headers.
 * Every deployed row has its definitions there (test/http/openapi-contract.test.ts holds it).
 * The `default` response carries real answers of the tour as examples (405, 415, 500 and 503 from
 * a fault window), keyed by `_info.service` and status.
 * The shared components (error bodies, headers, security) are openapi-components.ts.
 * Non-goals: the serve-only endpoints (/health, /_afp/*, /mcp, /openapi.json).
 */
import { assert } from '../core/assert.ts';
import { ERROR_STATUS, type ErrorCode, type JsonObject, type JsonValue } from '../core/errors.ts';
import * as z from 'zod';
import EXAMPLES from './openapi-examples.json' with { type: 'json' };
import type { RequestContract } from './openapi-fields.ts';
import { SchemaSet } from './openapi-schema-set.ts';
import { DOMAIN_ERRORS, MEANING } from './openapi-errors.ts';
import { components } from './openapi-components.ts';
import { REQUESTS } from './openapi-requests.ts';
import { RESPONSES } from './openapi-responses.ts';
import { DEPLOYED_ERRORS, DEPLOYED_REQUESTS, DEPLOYED_RESPONSES } from './openapi-deployed.ts';
import { deployedInfo } from './deployed/deployed-info.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { HttpMethod, Mount, Route } from './route.ts';

export const OPENAPI_VERSION = '3.1.0';

export interface OpenApiOptions {
  readonly mount: Mount;
  /** The mount's base URL, when known (a listening server); omitted: no `servers`. */
  readonly serverUrl?: string;
}

/** The order of operations within one path item (the OpenAPI convention). */
const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE'];
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const ref = (section: string, name: string): JsonObject => ({ $ref: `#/components/${section}/${name}` });

/** `/escrow/:id/release` → `/escrow/{id}/release`. */
export function openApiPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
    .join('/');
}

export function openApiDocument(routes: readonly Route[], options: OpenApiOptions): JsonObject {
  const rows = routes.filter((route) => route.mount === options.mount);
  const document: JsonObject = {
    openapi: OPENAPI_VERSION,
    info: {
      title: `Agent Financial Platform (afp stand-in) — ${options.mount}`,
      version: options.mount === 'casino' ? '1.0.0' : 'v1',
      description:
        `Generated from afp's route table: the rows served on the '${options.mount}' mount. ` +
        'Every JSON response carries `_info` and the X-RateLimit-* headers; errors are `{ error, code }`.',
    },
  };
  if (options.serverUrl !== undefined) document['servers'] = [{ url: options.serverUrl }];
  const body = bodyOf(routes, rows, options.mount);
  document['paths'] = body.paths;
  document['components'] = body.components;
  document['tags'] = body.tags;
  return document;
}

interface DocumentBody {
  readonly paths: JsonObject;
  readonly components: JsonObject;
  readonly tags: JsonValue;
}

/**
 * Paths, components and tags of a mount, computed once per route table and mount (the zod
 * conversion takes ~100 ms for the casino, and any peer may ask for /openapi.json) and deeply
 * frozen, so the documents that share them cannot change them.
 */
const BODIES = new WeakMap<readonly Route[], Map<Mount, DocumentBody>>();

function bodyOf(routes: readonly Route[], rows: readonly Route[], mount: Mount): DocumentBody {
  const byMount = BODIES.get(routes) ?? new Map<Mount, DocumentBody>();
  BODIES.set(routes, byMount);
  const cached = byMount.get(mount);
  if (cached !== undefined) return cached;
  const schemas = new SchemaSet();
  const body: DocumentBody = deepFreeze({
    paths: paths(rows, schemas),
    components: components(schemas),
    tags: tags(rows),
  });
  byMount.set(mount, body);
  return body;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function paths(rows: readonly Route[], schemas: SchemaSet): JsonObject {
  const byPath = new Map<string, Route[]>();
  for (const route of rows) {
    const path = openApiPath(route.path);
    const list = byPath.get(path) ?? [];
    assert(
      !list.some((other) => other.method === route.method),
      `one row per method and path: ${route.method} ${route.path}`,
    );
    list.push(route);
    byPath.set(path, list);
  }
  const result: JsonObject = {};
  for (const path of [...byPath.keys()].sort()) {
    const item: JsonObject = {};
    const list = byPath.get(path) ?? [];
    for (const method of METHOD_ORDER) {
      const route = list.find((candidate) => candidate.method === method);
      if (route !== undefined) item[method.toLowerCase()] = operation(route, schemas);
    }
    result[path] = item;
  }
  return result;
}

function operation(route: Route, schemas: SchemaSet): JsonObject {
  const contract: RequestContract = REQUESTS[route.id] ?? DEPLOYED_REQUESTS[route.id] ?? {};
  const result: JsonObject = {
    operationId: route.id,
    summary: route.summary,
    description: description(route, contract),
    tags: [route.service, route.style],
    security: security(route.auth),
  };
  const parameters = [...pathParameters(route, contract, schemas), ...queryParameters(route, contract, schemas)];
  if (parameters.length > 0) result['parameters'] = parameters;
  if (contract.body !== undefined) {
    const example = exampleOf(EXAMPLES.requests, route.id);
    const media: JsonObject = { schema: schemas.use(contract.body, `${route.id}.request`) };
    if (example !== undefined && example !== null) media['example'] = example;
    result['requestBody'] = { required: contract.bodyOptional !== true, content: { 'application/json': media } };
  } else {
    // A deployed write row without a body definition would be documented as taking nothing.
    assert(
      route.style !== 'deployed' || route.method === 'GET' || route.method === 'DELETE',
      `${route.id} has its body definition in openapi-deployed.ts`,
    );
  }
  result['responses'] = responses(route, schemas);
  return result;
}

/** The summary, then what the row needs that the summary does not say. */
function description(route: Route, contract: RequestContract): string {
  const lines = [route.summary];
  lines.push(AUTH_TEXT[route.auth]);
  if (contract.body === undefined && route.style !== 'deployed' && (route.method === 'POST' || route.method === 'PUT'))
    lines.push('Takes no body (an empty object is accepted).');
  if (contract.body !== undefined)
    lines.push(
      route.style === 'deployed'
        ? 'Body fields the deployment does not read are ignored.'
        : 'Unknown body fields are refused with 400.',
    );
  return lines.join('\n\n');
}

const AUTH_TEXT: Readonly<Record<Route['auth'], string>> = {
  none: 'No API key needed.',
  bearer: 'Needs the API key: `Authorization: Bearer <api_key>`.',
  optional:
    'The API key is used when sent (`Authorization: Bearer <api_key>`); the first claim of a new agent needs none.',
};

function pathParameters(route: Route, contract: RequestContract, schemas: SchemaSet): JsonObject[] {
  const shape = contract.params?.shape ?? {};
  return route.path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment): JsonObject => {
      const name = segment.slice(1);
      const schema = shape[name];
      return {
        name,
        in: 'path',
        required: true,
        schema: schema === undefined ? { type: 'string' } : schemas.inline(schema as z.ZodType),
      };
    });
}

function queryParameters(route: Route, contract: RequestContract, schemas: SchemaSet): JsonObject[] {
  const shape = contract.query?.shape ?? {};
  const sent = (exampleOf(EXAMPLES.queries, route.id) ?? {}) as Readonly<Record<string, string>>;
  return Object.entries(shape).map(([name, field]): JsonObject => {
    const schema = field as z.ZodType;
    const optional = schema instanceof z.ZodOptional;
    const inner = optional ? (schema.unwrap() as z.ZodType) : schema;
    const parameter: JsonObject = { name, in: 'query', required: !optional, schema: schemas.inline(inner) };
    const example = sent[name];
    // The example as its type reads it (the tour sends text on the wire).
    if (example !== undefined) parameter['example'] = inner instanceof z.ZodNumber ? Number(example) : example;
    return parameter;
  });
}

function security(auth: Route['auth']): JsonValue {
  switch (auth) {
    case 'none':
      return [];
    case 'bearer':
      return [{ bearer: [] }];
    case 'optional':
      return [{ bearer: [] }, {}];
  }
}

/** Success, the error statuses that apply (ascending), then `default`. */
function responses(route: Route, schemas: SchemaSet): JsonObject {
  if (route.style === 'deployed') return deployedResponses(route, schemas);
  const codes: ErrorCode[] = ['BAD_REQUEST'];
  if (route.auth !== 'none') codes.push('UNAUTHORIZED');
  codes.push(...(DOMAIN_ERRORS[route.id] ?? []));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const status = route.successStatus;
  const result: JsonObject = {
    [String(status)]: {
      description: status === 201 ? 'Created' : 'OK',
      headers: rateLimitHeaders(false),
      content: { 'application/json': successMedia(route, schemas) },
    },
  };
  for (const [errorStatus, list] of [...byStatus].sort((a, b) => a[0] - b[0]))
    result[String(errorStatus)] = errorResponse(route.service, list, 'Error', false);
  result['429'] = errorResponse(route.service, ['RATE_LIMIT'], 'RateLimitError', true);
  result['default'] = {
    description:
      'Any request may also meet 405 (method not allowed), 413, 415, 500 INTERNAL_ERROR or 503 SERVICE_UNAVAILABLE (a fault window, or afp serve shedding load: with Retry-After).',
    headers: rateLimitHeaders(false),
    content: { 'application/json': defaultMedia('Error', route.service) },
  };
  return result;
}

/** The `default` response's media: its schema and the tour's answers for the statuses it stands for. */
function defaultMedia(schema: string, service: string): JsonObject {
  const media: JsonObject = { schema: ref('schemas', schema) };
  const examples: JsonObject = {};
  for (const status of DEFAULT_STATUSES) {
    const example = exampleOf(EXAMPLES.defaults, `${service} ${status}`);
    if (example !== undefined) examples[String(status)] = { summary: DEFAULT_TEXT[status], value: example };
  }
  if (Object.keys(examples).length > 0) media['examples'] = examples;
  return media;
}

const DEFAULT_STATUSES = [405, 413, 415, 500, 503] as const;
const DEFAULT_TEXT: Readonly<Record<(typeof DEFAULT_STATUSES)[number], string>> = {
  405: 'method not allowed on this path',
  413: 'request body too large',
  415: 'request body not sent as application/json',
  500: 'server error (a fault window)',
  503: 'service unavailable (a fault window)',
};

/**
 * A deployed row's responses (spec/DEPLOYED.md): the success, the deployment's refusals by status
 * (DEPLOYED_ERRORS, plus 400 `invalid_json` and 401 every row may meet), 429 `rate_limited`, then
 * `default` (500/503 fault windows, 413). No rate-limit headers: the deployment sends none.
 */
function deployedResponses(route: Route, schemas: SchemaSet): JsonObject {
  const byStatus = new Map<number, string[]>();
  const add = (status: number, names: readonly string[]): void => {
    const list = byStatus.get(status) ?? [];
    for (const name of names) if (!list.includes(name)) list.push(name);
    byStatus.set(status, list);
  };
  add(400, ['invalid_json']);
  if (route.auth !== 'none') add(401, ['unauthorized']);
  for (const [status, names] of Object.entries(DEPLOYED_ERRORS[route.id] ?? {})) add(Number(status), names);
  add(429, ['rate_limited']);
  const status = route.successStatus;
  const result: JsonObject = {
    [String(status)]: {
      description: status === 201 ? 'Created' : 'OK',
      content: { 'application/json': successMedia(route, schemas) },
    },
  };
  const service = String(deployedInfo(route.service)['service']);
  for (const [errorStatus, names] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const media: JsonObject = { schema: ref('schemas', 'DeployedError') };
    const examples: JsonObject = {};
    for (const name of names) {
      const example = exampleOf(EXAMPLES.errors, `${service} ${name}`);
      if (example !== undefined) examples[name] = { value: example };
    }
    if (Object.keys(examples).length > 0) media['examples'] = examples;
    result[String(errorStatus)] = { description: names.join('; '), content: { 'application/json': media } };
  }
  result['default'] = {
    description: 'Any request may also meet 413 payload_too_large, 500 or 503 (a fault window).',
    content: { 'application/json': defaultMedia('DeployedError', service) },
  };
  return result;
}

function successMedia(route: Route, schemas: SchemaSet): JsonObject {
  const schema = RESPONSES[route.id] ?? DEPLOYED_RESPONSES[route.id];
  const media: JsonObject = {
    schema: schema === undefined ? ref('schemas', 'Success') : schemas.use(schema, `${route.id}.response`),
  };
  const example = exampleOf(EXAMPLES.responses, route.id);
  if (example !== undefined) media['example'] = example;
  return media;
}

function errorResponse(
  service: ServiceName,
  codes: readonly ErrorCode[],
  schema: string,
  retryAfter: boolean,
): JsonObject {
  const media: JsonObject = { schema: ref('schemas', schema) };
  const examples: JsonObject = {};
  for (const code of codes) {
    const example = exampleOf(EXAMPLES.errors, `${service} ${code}`);
    if (example !== undefined) examples[code] = { summary: MEANING[code], value: example };
  }
  if (Object.keys(examples).length > 0) media['examples'] = examples;
  return {
    description: codes.map((code) => `${code}: ${MEANING[code]}`).join('; '),
    headers: rateLimitHeaders(retryAfter),
    content: { 'application/json': media },
  };
}

/** The example recorded under `key`, if any (the examples file is JSON: values are JSON). */
function exampleOf(table: Readonly<Record<string, unknown>>, key: string): JsonValue | undefined {
  return Object.hasOwn(table, key) ? (table[key] as JsonValue) : undefined;
}

/** One tag per service and per style the rows use, described, in TAG_TEXT's order. */
function tags(rows: readonly Route[]): JsonValue {
  const used = new Set<string>(rows.flatMap((route) => [route.service, route.style]));
  const known = Object.keys(TAG_TEXT).filter((name) => used.has(name));
  const unknown = [...used].filter((name) => !(name in TAG_TEXT)).sort();
  return [...known, ...unknown].map((name) => ({ name, description: TAG_TEXT[name] ?? name }));
}

const TAG_TEXT: Readonly<Record<string, string>> = {
  faucet: 'Agent registration and the USDC faucet.',
  escrow: 'Escrow between two agents: create, release, refund, dispute.',
  casino: 'The agent casino: games, fairness proofs, Kelly limits, stats, tournaments, challenges.',
  A: 'Style A: each service on its own address under /api/v1, amounts as JSON numbers.',
  B: 'Style B: the shared api address, short paths, amounts as decimal strings.',
  short: "The casino's short routes (coinflip, crash rounds, provably-fair, leaderboard).",
  deployed: "The deployed platform's dialect (spec/DEPLOYED.md).",
  primary: 'The primary style of a service.',
};

function rateLimitHeaders(retryAfter: boolean): JsonObject {
  const headers: JsonObject = {};
  for (const name of RATE_LIMIT_HEADERS) headers[name] = ref('headers', name);
  if (retryAfter) headers['Retry-After'] = ref('headers', 'Retry-After');
  return headers;
}
