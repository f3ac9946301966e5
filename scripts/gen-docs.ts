// Regenerates the generated parts of the user documentation (README.md and docs/*.md): the endpoint
// list (from the route table), each command's usage block and the exit-code table (from the CLI's
// definitions, src/cli/commands.ts), each in the one file that holds its markers.
// Why a script: these parts are data-derived; test/docs/readme.test.ts fails when one is stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../src/cli/command-modules.ts';
import { docBlocks, readDocTexts, spliceDocs } from '../src/cli/docs-usage.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';

const root = join(import.meta.dirname, '..');
const docs = readDocTexts(root);
const result = spliceDocs(
  docs,
  docBlocks(
    COMMANDS.map((row) => row.definition),
    ALL_ROUTES,
  ),
);
if (result.missing.length > 0 || result.duplicated.length > 0) {
  if (result.missing.length > 0)
    console.error(
      `no file holds the markers of: ${result.missing.join(', ')} (add <!-- usage:afp NAME:start --> and <!-- usage:afp NAME:end --> to the page of the job it belongs to)`,
    );
  if (result.duplicated.length > 0)
    console.error(`more than one file holds the markers of: ${result.duplicated.join(', ')} (a block has one home)`);
  process.exit(2);
}
const changed = result.docs.filter((doc, index) => doc.text !== docs[index]?.text);
for (const doc of changed) writeFileSync(join(root, doc.path), doc.text);
console.log(
  `usage blocks, exit codes and endpoint list: ${changed.length === 0 ? 'all fresh' : `updated ${changed.map((doc) => doc.path).join(', ')}`}`,
);
