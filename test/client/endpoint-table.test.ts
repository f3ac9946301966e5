// The client's endpoint table is generated from the route rows: the file must be what the
// generator writes today (run `node scripts/gen-endpoints.ts` after changing the routes), and
// every typed client's table is exactly its service's rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ENDPOINT_TABLE_FILE, endpointTableSource } from '../../src/client/endpoint-table-source.ts';
import { ROUTE_ENDPOINTS } from '../../src/client/endpoint-table.ts';
import { endpointsOf } from '../../src/client/endpoints.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';

test('src/client/endpoint-table.ts is fresh (node scripts/gen-endpoints.ts)', () => {
  const file = join(import.meta.dirname, '..', '..', ENDPOINT_TABLE_FILE);
  expect(readFileSync(file, 'utf8')).toBe(endpointTableSource(ALL_ROUTES));
});

test('the table holds every route row, in the table order (each client test checks its rows field by field)', () => {
  expect(Object.keys(ROUTE_ENDPOINTS)).toEqual(ALL_ROUTES.map((route) => route.id));
});

test("endpointsOf keeps only the named services' rows", () => {
  const ids = Object.keys(endpointsOf('faucet', 'escrow'));
  expect(ids).toEqual(ALL_ROUTES.filter((route) => /^(faucet|escrow)\./.test(route.id)).map((route) => route.id));
});
