// Writes the editor JSON Schemas of afp's YAML files from the same zod schemas that validate them:
// schemas/scenario.schema.json (src/scenario/scenario-schema.ts), schemas/target.schema.json
// (src/live/target-schema.ts) and schemas/deployed-rules.schema.json (src/cli/deployed-rules-schema.ts). The bytes are stable (sorted keys, 2-space indent, trailing
// newline), so a committed file changes only when its schema does; test/sim/scenario.test.ts and
// test/live/target-file.test.ts and test/cli/deployed-rules-file.test.ts fail when a committed file is stale.
// Usage: node scripts/gen-schema.ts          (write the files)
//        node scripts/gen-schema.ts --check  (exit 1 if a committed file is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTargetJsonSchema } from '../src/live/target-schema.ts';
import { renderDeployedRulesJsonSchema } from '../src/cli/deployed-rules-schema.ts';
import { renderScenarioJsonSchema } from '../src/scenario/scenario-schema.ts';
import { ARCHETYPE_DESCRIPTIONS, ARCHETYPE_PARAMS } from '../agents/index.ts';

const SCHEMAS: ReadonlyArray<{ readonly file: string; readonly render: () => string }> = [
  {
    file: join(import.meta.dirname, '..', 'schemas', 'scenario.schema.json'),
    render: () => renderScenarioJsonSchema(ARCHETYPE_PARAMS, ARCHETYPE_DESCRIPTIONS),
  },
  { file: join(import.meta.dirname, '..', 'schemas', 'target.schema.json'), render: renderTargetJsonSchema },
  {
    file: join(import.meta.dirname, '..', 'schemas', 'deployed-rules.schema.json'),
    render: renderDeployedRulesJsonSchema,
  },
];

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  let stale = 0;
  for (const schema of SCHEMAS) {
    const expected = schema.render();
    if (check) {
      const fresh = readOrEmpty(schema.file) === expected;
      console.log(fresh ? `${schema.file} is up to date` : `${schema.file} is stale: run node scripts/gen-schema.ts`);
      if (!fresh) stale += 1;
      continue;
    }
    writeFileSync(schema.file, expected);
    console.log(`wrote ${schema.file}`);
  }
  return stale === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
