// Writes src/http/openapi-examples.json, the examples of the OpenAPI documents, from real answers:
// the first success of every row in a fixed-seed tour of the route table through the in-process
// dispatcher (test/http/openapi-tour.ts), with the request that got it, and the first body of each
// error code the tour meets; then the same for the deployed dialect's rows (a tour of the deployed
// dispatcher, errors keyed by the deployment's names), and the `default` response's 405, 413, 415,
// 500 and 503 answers (wrong method, the edge's body failures, fault windows). The bytes are
// stable (2-space indent, trailing newline; the tours' seed and instants are fixed), so the file
// changes only when an answer does; test/http/openapi-responses.test.ts fails when it is stale.
// Usage: node scripts/gen-openapi-examples.ts          (write the file)
//        node scripts/gen-openapi-examples.ts --check  (exit 1 if the committed file is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderOpenApiExamples } from '../test/http/openapi-tour.ts';

const FILE = join(import.meta.dirname, '..', 'src', 'http', 'openapi-examples.json');

function main(argv: readonly string[]): number {
  const expected = renderOpenApiExamples();
  if (argv.includes('--check')) {
    const fresh = readFileSync(FILE, 'utf8') === expected;
    console.log(fresh ? `${FILE} is up to date` : `${FILE} is stale: run node scripts/gen-openapi-examples.ts`);
    return fresh ? 0 : 1;
  }
  writeFileSync(FILE, expected);
  console.log(`wrote ${FILE}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
