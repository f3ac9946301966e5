// Regenerates the client's endpoint table (src/client/endpoint-table.ts) from the route rows.
// Why a script: the table is data-derived; test/client/endpoint-table.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINT_TABLE_FILE, endpointTableSource } from '../src/client/endpoint-table-source.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';

const file = join(import.meta.dirname, '..', ENDPOINT_TABLE_FILE);
const text = endpointTableSource(ALL_ROUTES);
const fresh = readFileSync(file, { encoding: 'utf8', flag: 'a+' }) === text;
if (!fresh) writeFileSync(file, text);
console.log(`client endpoint table: ${fresh ? 'fresh' : `updated ${ENDPOINT_TABLE_FILE}`} (${ALL_ROUTES.length} rows)`);
