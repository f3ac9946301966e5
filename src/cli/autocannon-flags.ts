/**
 * What `afp load --engine autocannon` reads from its command line, and where `--endpoint` points
 * on a target. The flags are parsed strictly, every problem reported together (exit 2); the load
 * command merges AUTOCANNON_FLAG_SPEC into its own flag spec and calls `parseAutocannonFlags`, then
 * `endpointRequest` with the resolved target, then `runAutocannon`.
 *
 * `--endpoint` takes one of:
 *   - an operation without input (`casino.games`, `casino.balance`, `casino.seeds`), put on the
 *     wire by the target's dialect for its service (its method, path and key, if it needs one);
 *   - `SERVICE:/path` (`casino:/api/v1/games`): a path below the target's base URL of that service;
 *   - an absolute URL (`http://127.0.0.1:8080/health`).
 * The last two may start with a method (`POST escrow:/escrow`); GET otherwise. `--body` is sent as
 * JSON. Non-goals: operations that need input (ids rebound from live answers are the open-model
 * generator's job), several endpoints in one run.
 */
import type { ParsedArgs, FlagSpec } from './args.ts';
import { stringFlag } from './args.ts';
import type { HttpMethod } from '../http/route.ts';
import { SERVICE_NAMES, type ServiceName } from '../platform/platform.ts';
import { dialectByName, rowOf, type OperationName, type Target } from '../live.ts';
import { parseDuration } from '../scenario/duration-text.ts';
import { AUTOCANNON_LIMITS } from '../load/autocannon-engine.ts';

export const AUTOCANNON_FLAG_SPEC: FlagSpec = {
  endpoint: 'string',
  connections: 'string',
  duration: 'string',
  amount: 'string',
  timeout: 'string',
  body: 'string',
};

export interface AutocannonFlags {
  readonly endpoint: string;
  readonly connections: number;
  /** null: not given (the caller falls back to the scenario's load duration, then AUTOCANNON_LIMITS.durationMs.default). */
  readonly durationMs: number | null;
  readonly amount: number | undefined;
  readonly timeoutMs: number;
  readonly body: string | undefined;
}

/** The operations `--endpoint` may name: one request each, no input. */
export const INPUTLESS_OPERATIONS = [
  'casino.games',
  'casino.balance',
  'casino.seeds',
] as const satisfies readonly OperationName[];

export function parseAutocannonFlags(args: ParsedArgs): AutocannonFlags | { readonly errors: string[] } {
  const errors: string[] = [];
  const whole = (name: string, min: number, max: number, fallback: number | undefined): number | undefined => {
    const text = stringFlag(args, name);
    if (text === undefined) return fallback;
    const value = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max))
      errors.push(`--${name} must be a whole number in ${min}..${max}, got '${text}'`);
    return value;
  };
  const duration = (name: string, min: number, max: number): number | null => {
    const text = stringFlag(args, name);
    if (text === undefined) return null;
    const value = parseDuration(text);
    if (typeof value === 'string') errors.push(`--${name}: ${value}`);
    else if (value < min || value > max) errors.push(`--${name} must be from ${min} ms to ${max} ms, got '${text}'`);
    return typeof value === 'number' ? value : null;
  };
  const endpoint = stringFlag(args, 'endpoint');
  if (endpoint === undefined) errors.push('--engine autocannon needs --endpoint OPERATION|SERVICE:/PATH|URL');
  const { connections: connectionLimits, amount: amountLimits, durationMs, timeoutMs } = AUTOCANNON_LIMITS;
  const connections =
    whole('connections', connectionLimits.min, connectionLimits.max, connectionLimits.default) ??
    connectionLimits.default;
  const amount = whole('amount', 1, amountLimits.max, undefined);
  if (amount !== undefined && amount < connections)
    errors.push(`--amount (${amount}) must be at least --connections (${connections})`);
  const flags: AutocannonFlags = {
    endpoint: endpoint ?? '',
    connections,
    durationMs: duration('duration', durationMs.min, durationMs.max),
    amount,
    timeoutMs: duration('timeout', timeoutMs.min, timeoutMs.max) ?? timeoutMs.default,
    body: stringFlag(args, 'body'),
  };
  if (flags.body !== undefined && Buffer.byteLength(flags.body) > AUTOCANNON_LIMITS.bodyBytes.max)
    errors.push(`--body is longer than ${AUTOCANNON_LIMITS.bodyBytes.max} bytes`);
  return errors.length > 0 ? { errors } : flags;
}

/** One endpoint's request, ready for runAutocannon. */
export interface EndpointRequest {
  readonly url: string;
  readonly method: HttpMethod;
  /** The endpoint's name in reports: the operation, or `METHOD /path`. */
  readonly endpoint: string;
  readonly headers: Readonly<Record<string, string>>;
}

const METHOD_PREFIX = /^(GET|POST|PUT|DELETE)\s+(.+)$/;
const SERVICE_PATH = /^([a-z]+):(\/\S*)$/;

/**
 * Where `--endpoint` points on `target`; a string says why it cannot. `apiKey` is sent as a bearer
 * key to operations that need one (the caller registers or takes a funded key first).
 */
export function endpointRequest(spec: string, target: Target, apiKey: string | null): EndpointRequest | string {
  const operation = INPUTLESS_OPERATIONS.find((name) => name === spec);
  if (operation !== undefined) return operationRequest(operation, target, apiKey);
  const methodMatch = METHOD_PREFIX.exec(spec.trim());
  const method = (methodMatch?.[1] ?? 'GET') as HttpMethod;
  const rest = methodMatch?.[2] ?? spec.trim();
  const headers: Record<string, string> = apiKey === null ? {} : { authorization: `Bearer ${apiKey}` };
  if (/^https?:\/\//.test(rest)) {
    let url: URL;
    try {
      url = new URL(rest);
    } catch {
      return `--endpoint '${spec}' is not a valid URL`;
    }
    return { url: url.href, method, endpoint: `${method} ${url.pathname}`, headers };
  }
  const servicePath = SERVICE_PATH.exec(rest);
  if (servicePath === null)
    return `--endpoint '${spec}' is not an operation (${INPUTLESS_OPERATIONS.join(', ')}), a SERVICE:/path or a URL`;
  const service = servicePath[1] as string;
  const path = servicePath[2] as string;
  if (!(SERVICE_NAMES as readonly string[]).includes(service))
    return `--endpoint '${spec}': no service '${service}' (${SERVICE_NAMES.join(', ')})`;
  const base = target.services[service as ServiceName];
  if (base === undefined) return `--endpoint '${spec}': the target ${target.name} has no ${service} service`;
  return { url: `${base.url}${path}`, method, endpoint: `${method} ${path.split('?')[0] ?? path}`, headers };
}

function operationRequest(
  operation: (typeof INPUTLESS_OPERATIONS)[number],
  target: Target,
  apiKey: string | null,
): EndpointRequest | string {
  const service = operation.split('.')[0] as ServiceName;
  const base = target.services[service];
  if (base === undefined) return `--endpoint ${operation}: the target ${target.name} has no ${service} service`;
  const row = rowOf(dialectByName(base.dialect), operation);
  if (row === null) return `--endpoint ${operation}: the ${base.dialect} dialect does not offer it`;
  const wire = row.request({});
  if (wire.auth && apiKey === null) return `--endpoint ${operation} needs an API key on ${target.name}`;
  const query = wire.query === undefined ? '' : new URLSearchParams(wire.query).toString();
  return {
    url: `${base.url}${wire.path}${query === '' ? '' : `?${query}`}`,
    method: wire.method,
    endpoint: operation,
    headers: wire.auth && apiKey !== null ? { authorization: `Bearer ${apiKey}` } : {},
  };
}
