// Regenerates the generated parts of README.md: the endpoint list (from the route table), each
// command's usage block and the exit-code table (from the CLI's definitions, src/cli/commands.ts).
// Why a script: these parts are data-derived; test/docs/readme.test.ts fails when one is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../src/cli/commands.ts';
import { spliceUsage } from '../src/cli/readme-usage.ts';
import { endpointListMarkdown, spliceEndpoints } from '../src/http/endpoint-list.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';

const readmePath = join(import.meta.dirname, '..', 'README.md');
const withEndpoints = spliceEndpoints(readFileSync(readmePath, 'utf8'), endpointListMarkdown(ALL_ROUTES));
if (withEndpoints === null) {
  console.error('README.md lacks the endpoint markers');
  process.exit(2);
}
const usage = spliceUsage(withEndpoints, COMMANDS.map((row) => row.definition));
if (usage.missing.length > 0) {
  console.error(`README.md lacks the usage markers of: ${usage.missing.join(', ')} (add <!-- usage:afp NAME:start --> and <!-- usage:afp NAME:end --> where each block goes)`);
  process.exit(2);
}
writeFileSync(readmePath, usage.text);
console.log('README.md endpoint list, usage blocks and exit codes updated');
