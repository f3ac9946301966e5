// Regenerates the generated parts of README.md (the endpoint list) from the route table.
// Why a script: the list is data-derived; test/docs/readme.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpointListMarkdown, spliceEndpoints } from '../src/http/endpoint-list.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';

const readmePath = join(import.meta.dirname, '..', 'README.md');
const updated = spliceEndpoints(readFileSync(readmePath, 'utf8'), endpointListMarkdown(ALL_ROUTES));
if (updated === null) {
  console.error('README.md lacks the endpoint markers');
  process.exit(2);
}
writeFileSync(readmePath, updated);
console.log('README.md endpoint list updated');
