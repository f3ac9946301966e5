// The documented success bodies against the code: a fixed-seed tour of every row of the route
// table (test/http/openapi-tour.ts) runs through the in-process dispatcher, and every success
// body it gets is validated, with a JSON Schema 2020-12 validator, against the schema its mount's
// OpenAPI document gives that row: a field a row adds, drops or retypes fails here. A simulated
// population (every archetype, a day, fixed seed) does the same over thousands of answers in
// states the tour does not reach (expired and disputed escrows, closed games, settled
// tournaments). The deployed dialect's defined rows get the same over the deployed tour, and
// every refusal there must be a DeployedError under a documented status and name. The examples
// file must be what the tours answer today, and every example must fit its own schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../../src/core/errors.ts';
import { openApiDocument } from '../../src/http/openapi.ts';
import { DEPLOYED_RESPONSES } from '../../src/http/openapi-deployed.ts';
import type { Mount, Route } from '../../src/http/route.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Router } from '../../src/http/router.ts';
import type { TransportRequest, TransportResponse } from '../../src/client/transport.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../src/sim/runner.ts';
import { AGENTS } from '../../agents/index.ts';
import { schemaChecker, type SchemaCheck } from './openapi-ajv.ts';
import { deployedOpenApiTour, openApiTour, renderOpenApiExamples } from './openapi-tour.ts';

const MOUNTS: readonly Mount[] = ['api', 'faucet', 'escrow', 'casino', 'trading', 'domains', 'wallet'];
const documents = new Map(MOUNTS.map((mount) => [mount, openApiDocument(ALL_ROUTES, { mount })]));
const checkers = new Map(MOUNTS.map((mount) => [mount, schemaChecker(documents.get(mount) as JsonObject)]));

const DEPLOYED_MOUNTS: readonly Mount[] = ['casino', 'faucet', 'escrow', 'trading', 'domains', 'wallet'];
const deployedDocuments = new Map(DEPLOYED_MOUNTS.map((mount) => [mount, openApiDocument(DEPLOYED_ROUTES, { mount })]));
const deployedCheckers = new Map(
  DEPLOYED_MOUNTS.map((mount) => [mount, schemaChecker(deployedDocuments.get(mount) as JsonObject)]),
);

type Operation = {
  operationId: string;
  responses: Record<string, { content: { 'application/json': { schema: { $ref: string } } } }>;
};

/** The operation of row `rowId` in its mount's document of `routes`, and that document's checker. */
function operationOf(
  rowId: string,
  routes: readonly Route[] = ALL_ROUTES,
): { route: Route; operation: Operation | undefined; check: SchemaCheck } {
  const route = routes.find((candidate) => candidate.id === rowId);
  if (route === undefined) throw new Error(`no row ${rowId}`);
  const deployed = routes === DEPLOYED_ROUTES;
  const paths = (
    (deployed ? deployedDocuments : documents).get(route.mount) as { paths: Record<string, Record<string, Operation>> }
  ).paths;
  const operation = Object.values(paths)
    .flatMap((item) => Object.values(item))
    .find((candidate) => candidate.operationId === rowId);
  return { route, operation, check: (deployed ? deployedCheckers : checkers).get(route.mount) as SchemaCheck };
}

/** The `$ref` name of a row's success schema, and the checker of its mount's document. */
function successSchemaOf(rowId: string, routes: readonly Route[] = ALL_ROUTES): { name: string; check: SchemaCheck } {
  const { route, operation, check } = operationOf(rowId, routes);
  const reference = operation?.responses[String(route.successStatus)]?.content['application/json'].schema.$ref ?? '';
  return { name: reference.replace('#/components/schemas/', ''), check };
}

describe('success bodies against the documents', () => {
  const { byRow } = openApiTour();

  test('the tour reaches every row with a success', () => {
    const succeeded = [...byRow]
      .filter(([, list]) => list.some((entry) => entry.response.status < 300))
      .map(([rowId]) => rowId);
    expect(succeeded.sort()).toEqual(ALL_ROUTES.map((route) => route.id).sort());
  });

  test("every success body of the tour fits its row's documented schema", () => {
    let checked = 0;
    for (const [rowId, list] of byRow) {
      const { name, check } = successSchemaOf(rowId);
      expect(name, rowId).not.toBe('Success');
      for (const entry of list.filter((candidate) => candidate.response.status < 300)) {
        expect(
          check(name, entry.response.body),
          `${rowId}: ${JSON.stringify(entry.response.body).slice(0, 400)}`,
        ).toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(ALL_ROUTES.length);
  });

  test('a body with a field added, dropped or retyped does not fit (the schemas are strict)', () => {
    const entry = byRow.get('escrow.B.get')?.[0];
    const { name, check } = successSchemaOf('escrow.B.get');
    const body = entry?.response.body as JsonObject;
    expect(check(name, body)).toEqual([]);
    expect(check(name, { ...body, extra: 1 })).toEqual([
      `${name} must NOT have additional properties {"additionalProperty":"extra"}`,
    ]);
    const { fee: _fee, ...withoutFee } = body;
    expect(check(name, withoutFee)).toEqual([`${name} must have required property 'fee' {"missingProperty":"fee"}`]);
    expect(check(name, { ...body, amount: 1 })).toEqual([`${name}/amount must be string {"type":"string"}`]);
  });
});

describe("the deployed dialect's bodies against its documents", () => {
  const { byRow, all } = deployedOpenApiTour();
  const defined = Object.keys(DEPLOYED_RESPONSES).sort();

  test('the deployed tour reaches every row with a response definition with a success', () => {
    expect(defined.filter((rowId) => !(byRow.get(rowId) ?? []).some((entry) => entry.response.status < 300))).toEqual(
      [],
    );
    expect(defined.filter((rowId) => !DEPLOYED_ROUTES.some((route) => route.id === rowId))).toEqual([]);
  });

  test('every success body of a defined row fits its documented schema', () => {
    let checked = 0;
    for (const rowId of defined) {
      const { name, check } = successSchemaOf(rowId, DEPLOYED_ROUTES);
      expect(name, rowId).not.toBe('Success');
      for (const entry of (byRow.get(rowId) ?? []).filter((candidate) => candidate.response.status < 300)) {
        expect(
          check(name, entry.response.body),
          `${rowId}: ${JSON.stringify(entry.response.body).slice(0, 400)}`,
        ).toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(defined.length);
  });

  test('every refusal of a defined row is a DeployedError under a status its operation documents (or default)', () => {
    let checked = 0;
    for (const entry of all) {
      const rowId = entry.response.routeId;
      if (entry.response.status < 400 || rowId === null || !defined.includes(rowId)) continue;
      const { operation, check } = operationOf(rowId, DEPLOYED_ROUTES);
      const documented = operation?.responses[String(entry.response.status)] ?? operation?.responses['default'];
      expect(documented?.content['application/json'].schema.$ref, `${rowId} ${entry.response.status}`).toBe(
        '#/components/schemas/DeployedError',
      );
      expect(check('DeployedError', entry.response.body), rowId).toEqual([]);
      const listed = Object.hasOwn(operation?.responses ?? {}, String(entry.response.status));
      const name = (entry.response.body as { error?: string }).error ?? '';
      if (listed)
        expect(
          (
            operation?.responses[String(entry.response.status)] as unknown as { description: string } | undefined
          )?.description.split('; '),
          `${rowId} ${entry.response.status}`,
        ).toContain(name);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(15);
  });

  test('every example in the deployed documents fits the schema beside it', () => {
    expect(examplesChecked(DEPLOYED_MOUNTS, deployedDocuments, deployedCheckers)).toBeGreaterThan(2 * defined.length);
  });
});

describe('success bodies of a simulated population against the documents', () => {
  test("every success answer of a day of every archetype fits its row's schema", async () => {
    const scenario = scenarioFromTable(POPULATION, { agents: AGENTS });
    const router = new Router(ALL_ROUTES);
    const problems: string[] = [];
    const rowsSeen = new Set<string>();
    let checked = 0;
    const recorder = {
      onExchange: ({ request, response }: { request: TransportRequest; response: TransportResponse }): void => {
        if (response.status >= 300 || problems.length >= 20) return;
        const match = router.match(request.mount, request.method, request.path);
        if (match.kind !== 'found') return;
        const { name, check } = successSchemaOf(match.route.id);
        const found = check(name, response.body);
        if (found.length > 0) problems.push(`${match.route.id}: ${found.join('; ')}`);
        rowsSeen.add(match.route.id);
        checked += 1;
      },
    };
    await runScenarioWith(scenario, { seed: 5, agents: AGENTS, recorder });
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(1_000);
    expect(rowsSeen.size).toBeGreaterThan(30);
  });
});

/** A day of every archetype, small: the states the tour does not reach. */
const POPULATION = `
name: openapi-bodies
seed: 5
duration: 1d
populations:
  - { agent: faucet-farmer, count: 6, style: mixed, params: { claim_every: 24h, early_claim: 0.2 } }
  - { agent: escrow-seller, count: 4, style: mixed, params: { check_every: 2h, dispute: 0.2 } }
  - { agent: escrow-buyer, count: 6, style: mixed, params: { release: 0.4, refund: 0.2, dispute: 0.2, let_expire: 0.2, expires_in: 3h, escrow_every: 2h } }
  - { agent: batch-bettor, count: 2, style: mixed, params: { amount: 0.01, size: 5, every: 30m, mix: [{ game: keno, params: { picks: [1, 2] } }, { game: plinko, params: { rows: 8, risk: low } }, { game: mines, params: { mines: 3, reveals: 2 } }] } }
  - { agent: fixed-bettor, count: 2, style: mixed, params: { game: blackjack, params: { action: hit }, amount: 0.05, every: 30m } }
  - { agent: fixed-bettor, count: 2, params: { game: baccarat, params: { bet_on: player }, amount: 0.05, every: 30m } }
  - { agent: martingale, count: 2, style: mixed, params: { game: coin_flip, params: { side: tails }, base: 0.05, max_doublings: 4, every: 30m } }
  - { agent: kelly-bettor, count: 2, params: { game: dice, params: { direction: over, threshold: 50 }, fraction: 0.5, every: 30m } }
  - { agent: tournament-player, count: 4, style: mixed, params: { game: dice, params: { direction: under, threshold: 50 }, amount: 0.05, plays: 3, every: 30m, length: 2h } }
  - { agent: challenger, count: 4, params: { amount: 0.50, every: 2h, accept: 0.6 } }
  - { agent: fairness-checker, count: 2, params: { game: custom, params: { win_probability: 75 }, amount: 0.01, every: 30m, rotate_after: 5 } }
casino:
  starting_deposit: '50.00'
  closures:
    - { game: dice, from: 6h, for: 2h }
`;

describe('examples', () => {
  test('the committed examples are what the tour answers today (run node scripts/gen-openapi-examples.ts)', () => {
    const committed = readFileSync(
      join(import.meta.dirname, '..', '..', 'src', 'http', 'openapi-examples.json'),
      'utf8',
    );
    expect(committed).toBe(renderOpenApiExamples());
  });

  test('every example in every document fits the schema beside it', () => {
    expect(examplesChecked(MOUNTS, documents, checkers)).toBeGreaterThan(2 * ALL_ROUTES.length);
  });

  test("the default response carries the tour's real 405, 413, 415, 500 and 503 answers", () => {
    const media = (document: JsonObject, path: string, method: string): Record<string, unknown> => {
      const paths = document['paths'] as Record<
        string,
        Record<
          string,
          { responses: Record<string, { content: Record<string, { examples?: Record<string, unknown> }> }> }
        >
      >;
      return paths[path]?.[method]?.responses['default']?.content['application/json']?.examples ?? {};
    };
    expect(Object.keys(media(documents.get('escrow') as JsonObject, '/api/v1/escrow/create', 'post'))).toEqual([
      '405',
      '413',
      '415',
      '503',
    ]);
    expect(Object.keys(media(documents.get('casino') as JsonObject, '/api/v1/games/dice', 'post'))).toEqual([
      '405',
      '413',
      '415',
      '500',
    ]);
    expect(Object.keys(media(documents.get('faucet') as JsonObject, '/api/v1/faucet/claim', 'post'))).toEqual([
      '405',
      '413',
      '415',
      '503',
    ]);
    expect(Object.keys(media(deployedDocuments.get('escrow') as JsonObject, '/escrow/create', 'post'))).toEqual([
      '413',
      '503',
    ]);
  });
});

/** Checks every example of the documents' paths against the schema beside it; how many were checked. */
function examplesChecked(
  mounts: readonly Mount[],
  documentsOf: ReadonlyMap<Mount, JsonObject>,
  checkersOf: ReadonlyMap<Mount, SchemaCheck>,
): number {
  let checked = 0;
  for (const mount of mounts) {
    const document = documentsOf.get(mount) as JsonObject;
    const check = checkersOf.get(mount) as SchemaCheck;
    const stack: unknown[] = [document['paths']];
    while (stack.length > 0) {
      const value = stack.pop();
      if (typeof value !== 'object' || value === null) continue;
      const media = value as {
        in?: string;
        schema?: { $ref?: string };
        example?: unknown;
        examples?: Record<string, { value: unknown }>;
      };
      const name = media.schema?.$ref?.replace('#/components/schemas/', '');
      if (media.in !== undefined && 'example' in media) {
        // A parameter: its schema is written in place.
        expect(
          new Ajv2020({ strict: false }).compile(media.schema as object)(media.example),
          `${mount} ${JSON.stringify(media)}`,
        ).toBe(true);
        checked += 1;
      }
      if (name !== undefined && 'example' in media) {
        expect(check(name, media.example), `${mount} ${name}`).toEqual([]);
        checked += 1;
      }
      if (name !== undefined && media.examples !== undefined) {
        for (const [code, example] of Object.entries(media.examples)) {
          expect(check(name, example.value), `${mount} ${name} ${code}`).toEqual([]);
          checked += 1;
        }
      }
      stack.push(...Object.values(value));
    }
  }
  return checked;
}
