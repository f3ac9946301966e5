// The documented success bodies against the code: a fixed-seed tour of every row of the route
// table (test/http/openapi-tour.ts) runs through the in-process dispatcher, and every success
// body it gets is validated, with a JSON Schema 2020-12 validator, against the schema its mount's
// OpenAPI document gives that row: a field a row adds, drops or retypes fails here. The examples
// file must be what the tour answers today, and every example must fit its own schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../../src/core/errors.ts';
import { openApiDocument } from '../../src/http/openapi.ts';
import type { Mount } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { schemaChecker, type SchemaCheck } from './openapi-ajv.ts';
import { openApiTour, renderOpenApiExamples } from './openapi-tour.ts';

const MOUNTS: readonly Mount[] = ['api', 'faucet', 'escrow', 'casino'];
const documents = new Map(MOUNTS.map((mount) => [mount, openApiDocument(ALL_ROUTES, { mount })]));
const checkers = new Map(MOUNTS.map((mount) => [mount, schemaChecker(documents.get(mount) as JsonObject)]));

/** The `$ref` name of a row's success schema, and the checker of its mount's document. */
function successSchemaOf(rowId: string): { name: string; check: SchemaCheck } {
  const route = ALL_ROUTES.find((candidate) => candidate.id === rowId);
  if (route === undefined) throw new Error(`no row ${rowId}`);
  const paths = (documents.get(route.mount) as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content: { 'application/json': { schema: { $ref: string } } } }> }>> }).paths;
  const operation = Object.values(paths).flatMap((item) => Object.values(item)).find((candidate) => candidate.operationId === rowId);
  const reference = operation?.responses[String(route.successStatus)]?.content['application/json'].schema.$ref ?? '';
  return { name: reference.replace('#/components/schemas/', ''), check: checkers.get(route.mount) as SchemaCheck };
}

describe('success bodies against the documents', () => {
  const { byRow } = openApiTour();

  test('the tour reaches every row with a success', () => {
    const succeeded = [...byRow].filter(([, list]) => list.some((entry) => entry.response.status < 300)).map(([rowId]) => rowId);
    expect(succeeded.sort()).toEqual(ALL_ROUTES.map((route) => route.id).sort());
  });

  test('every success body of the tour fits its row\'s documented schema', () => {
    let checked = 0;
    for (const [rowId, list] of byRow) {
      const { name, check } = successSchemaOf(rowId);
      expect(name, rowId).not.toBe('Success');
      for (const entry of list.filter((candidate) => candidate.response.status < 300)) {
        expect(check(name, entry.response.body), `${rowId}: ${JSON.stringify(entry.response.body).slice(0, 400)}`).toEqual([]);
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
    expect(check(name, { ...body, extra: 1 })).toEqual([`${name} must NOT have additional properties {"additionalProperty":"extra"}`]);
    const { fee: _fee, ...withoutFee } = body;
    expect(check(name, withoutFee)).toEqual([`${name} must have required property 'fee' {"missingProperty":"fee"}`]);
    expect(check(name, { ...body, amount: 1 })).toEqual([`${name}/amount must be string {"type":"string"}`]);
  });
});

describe('examples', () => {
  test('the committed examples are what the tour answers today (run node scripts/gen-openapi-examples.ts)', () => {
    const committed = readFileSync(join(import.meta.dirname, '..', '..', 'src', 'http', 'openapi-examples.json'), 'utf8');
    expect(committed).toBe(renderOpenApiExamples());
  });

  test('every example in every document fits the schema beside it', () => {
    let checked = 0;
    for (const mount of MOUNTS) {
      const document = documents.get(mount) as JsonObject;
      const check = checkers.get(mount) as SchemaCheck;
      const stack: unknown[] = [document['paths']];
      while (stack.length > 0) {
        const value = stack.pop();
        if (typeof value !== 'object' || value === null) continue;
        const media = value as { in?: string; schema?: { $ref?: string }; example?: unknown; examples?: Record<string, { value: unknown }> };
        const name = media.schema?.$ref?.replace('#/components/schemas/', '');
        if (media.in !== undefined && 'example' in media) {
          // A parameter: its schema is written in place.
          expect(new Ajv2020({ strict: false }).compile(media.schema as object)(media.example), `${mount} ${JSON.stringify(media)}`).toBe(true);
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
    expect(checked).toBeGreaterThan(2 * ALL_ROUTES.length);
  });
});
