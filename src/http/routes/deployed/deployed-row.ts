/**
 * How a deployed row is made from one of afp's documents rows (src/http/routes/<service>/*.ts): the same
 * parse and run, so the services and their checks are shared, never copied; the deployment's own
 * id, path, auth and answer. The deployment ignores fields it does not read, so a deployed row
 * hands the documents row only the body and query keys it knows (`knownInput`): the published
 * clients' extras (`agent_name`, ...) pass unseen, while a bad value of a known field is still a
 * 400 that changes nothing. Refusals are relabelled with the deployment's names by `refusal`.
 * Every deployed row's mount, method and path come from the deployed wire (deployedRoute, by its
 * id: src/http/deployed/deployed-wire.ts), never from the documents row or a literal of its own.
 * Non-goals: rows with no documents counterpart (written out in their own files).
 */
import { assert } from '../../../core/assert.ts';
import { isFailure, type Failure, type JsonObject } from '../../../core/errors.ts';
import { deployedEndpointOf } from '../../deployed/deployed-wire.ts';
import {
  defineRoute,
  type HttpMethod,
  type Mount,
  type Route,
  type RouteContext,
  type RouteInput,
  type RouteSpec,
} from '../../route.ts';
import { casinoRoutes } from '../casino/casino.ts';
import { escrowRoutes } from '../escrow/escrow.ts';
import { faucetRoutes } from '../faucet/faucet.ts';

const DOCUMENTS_ROWS: ReadonlyMap<string, Route> = new Map(
  [...casinoRoutes, ...escrowRoutes, ...faucetRoutes].map((route) => [route.id, route]),
);

/** One of afp's documents rows, by id (a wrong id is a bug of the deployed table). */
export function documentsRow(id: string): Route {
  const route = DOCUMENTS_ROWS.get(id);
  assert(route !== undefined, `the deployed rows name a documents row: ${id}`);
  return route;
}

/** The mount, method and path of the deployed row `id`, from the deployed wire (a row it does not name is a bug). */
export function deployedWire(id: string): { mount: Mount; method: HttpMethod; path: string } {
  const endpoint = deployedEndpointOf(id);
  assert(endpoint !== undefined && endpoint.served !== false, `the deployed wire names the row ${id}`);
  return { mount: endpoint.service, method: endpoint.method, path: endpoint.path };
}

/** A deployed row whose mount, method and path are the deployed wire's for its id. */
export function deployedRoute<C, O>(spec: Omit<RouteSpec<C, O>, 'mount' | 'method' | 'path'>): Route {
  return defineRoute<C, O>({ ...spec, ...deployedWire(spec.id) });
}

const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});

/** Only the own keys of `value` named in `keys`; anything but a plain object is passed as is. */
export function knownFields(value: unknown, keys: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const fields: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(value, key)) fields[key] = (value as Record<string, unknown>)[key];
  return fields;
}

/** The input with only the known body and query keys (the deployment ignores the rest). */
export function knownInput(
  input: RouteInput,
  bodyKeys: readonly string[],
  queryKeys: readonly string[] = [],
): RouteInput {
  const query: Record<string, string> = {};
  for (const key of queryKeys) if (Object.hasOwn(input.query, key)) query[key] = input.query[key] as string;
  return {
    params: input.params,
    query: queryKeys.length === 0 ? NO_QUERY : query,
    body: knownFields(input.body, bodyKeys),
  };
}

export interface AdaptedRowSpec {
  readonly id: string;
  readonly summary: string;
  readonly auth?: Route['auth'];
  readonly successStatus?: 200 | 201;
  /** The body and query keys the deployment reads; the others are dropped before parsing. */
  readonly bodyKeys: readonly string[];
  readonly queryKeys?: readonly string[];
  /** The deployment's answer, from the documents row's outcome (`documentsBody` renders it the documents' way). */
  render(value: unknown, context: RouteContext, documentsBody: () => JsonObject): JsonObject;
  /** The deployment's name (and status) for a refusal; default: the failure's code's name. */
  refusal?(failure: Failure): Failure;
}

/** A deployed row over the documents row `baseId`. */
export function adaptedRow(baseId: string, spec: AdaptedRowSpec): Route {
  const base = documentsRow(baseId);
  const refusal = spec.refusal ?? ((failure: Failure): Failure => failure);
  return deployedRoute<unknown, unknown>({
    id: spec.id,
    service: base.service,
    style: 'deployed',
    auth: spec.auth ?? base.auth,
    summary: spec.summary,
    successStatus: spec.successStatus ?? base.successStatus,
    parse: (input, context) => {
      const command = base.parse(knownInput(input, spec.bodyKeys, spec.queryKeys), context);
      return isFailure(command) ? refusal(command) : command;
    },
    run: (context, command) => {
      const outcome = base.run(context, command);
      return outcome.ok ? outcome : refusal(outcome);
    },
    render: (value, context) => spec.render(value, context, () => base.render(value, context)),
  });
}
