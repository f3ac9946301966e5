// Writes schemas/scenario.schema.json, the editor JSON Schema of scenario files, from the same zod
// schema that validates them (src/sim/scenario-schema.ts). The bytes are stable (sorted keys,
// 2-space indent, trailing newline), so the committed file changes only when the schema does;
// test/sim/scenario.test.ts fails when the committed file is stale.
// Usage: node scripts/gen-schema.ts          (write the file)
//        node scripts/gen-schema.ts --check  (exit 1 if the committed file is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderScenarioJsonSchema } from '../src/sim/scenario-schema.ts';

const target = join(import.meta.dirname, '..', 'schemas', 'scenario.schema.json');

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function main(argv: readonly string[]): number {
  const expected = renderScenarioJsonSchema();
  if (argv.includes('--check')) {
    const fresh = readOrEmpty(target) === expected;
    console.log(fresh ? `${target} is up to date` : `${target} is stale: run node scripts/gen-schema.ts`);
    return fresh ? 0 : 1;
  }
  writeFileSync(target, expected);
  console.log(`wrote ${target}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
