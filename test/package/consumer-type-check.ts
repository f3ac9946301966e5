/**
 * `node consumer-type-check.ts DIR`: type-checks the TypeScript project in DIR (its tsconfig.json,
 * skipLibCheck off) as `tsc -p DIR` does, but reports the semantic errors of only the project's
 * own files and of afp's shipped declarations (node_modules/afp/), not those of the other packages'
 * declarations (@types/node, zod, faker, TypeScript's lib files) that afp's declarations import.
 * Why: pack-install.test.ts asks whether a user's typed import of afp checks against what afp
 * ships; checking every line of the other packages' declarations was two thirds of that step
 * (7.5 -> 2.6 CPU s measured) and says nothing about afp. Every file of the program is still
 * parsed and its options, global and syntactic errors reported, and each type afp's declarations
 * use from another package is still resolved and checked where afp uses it.
 * Exit 0 when clean, 1 with the diagnostics on stderr.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as TypeScript from 'typescript';

const dir = resolve(process.argv[2] ?? '.');
// The clone's TypeScript, as the test's `tsc -p` used (this file sits in the clone's test/package/).
const ts = createRequire(join(import.meta.dirname, '..', '..', 'package.json'))('typescript') as typeof TypeScript;

const config = ts.getParsedCommandLineOfConfigFile(
  join(dir, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);
if (config === undefined) throw new Error(`no tsconfig.json in ${dir}`);
if (config.options.skipLibCheck === true)
  throw new Error('skipLibCheck must be off: the declarations are what is checked');
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const checked = program
  .getSourceFiles()
  .filter((file) => !file.fileName.includes('/node_modules/') || file.fileName.includes('/node_modules/afp/'));
if (!checked.some((file) => file.fileName.includes('/node_modules/afp/')))
  throw new Error(`none of afp's declarations is in the program of ${dir}`);
const diagnostics = [
  ...config.errors,
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program.getSyntacticDiagnostics(),
  ...checked.flatMap((file) => program.getSemanticDiagnostics(file)),
];
if (diagnostics.length > 0) {
  process.stderr.write(
    ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => dir,
      getNewLine: () => '\n',
    }),
  );
  process.exitCode = 1;
} else process.stdout.write(`type-checked ${checked.length} of ${program.getSourceFiles().length} files\n`);
