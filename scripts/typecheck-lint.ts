// The type check and the lint of `npm test`, over ONE TypeScript program: what `tsc --noEmit -p .`
// and `eslint .` check, for about the cost of tsc alone plus eslint's untyped work.
// Why one process: eslint's typed rules need the same program tsc builds (tsconfig.json), and the
// types they ask for are the ones tsc's check computes; run apart, the two processes each parsed,
// bound and checked the whole program (cold, load 5: tsc 21 + eslint 56 CPU s; this: 45). Here the
// program is built once, as tsc builds it (its compiler options, its JSDoc parsing mode), checked
// whole, and handed to eslint through typescript-eslint's public `parserOptions.programs`, so every
// typed rule reads a checker that is already warm.
// Same coverage: the diagnostics are tsc's (config, syntactic, options, global, semantic, in tsc's
// order, sorted and deduplicated as tsc does), and eslint lints what `eslint .` lints, with
// eslint.config.js's rules; only the typed files' source of type information changes (this program
// instead of the project service's, which is built from the same tsconfig.json).
// Exit code: 0 when both pass; otherwise 8, plus 1 if the type check failed, plus 2 if lint failed
// (scripts/test.ts counts each); any other code is a crash. `--cache` keeps eslint's content cache
// (node_modules/.cache/eslint): a typed finding caused by another file's change can then be missed
// locally until the file itself changes; a fresh clone lints everything. `--cache` also keeps tsc's
// incremental state (node_modules/.cache/tsc, what `tsc --incremental` writes): a file is checked
// again when its text or a declared shape it imports changed, else its diagnostics come from the
// state, so the type check misses nothing (with assert.ts's signature broken: the same 461 errors in
// 167 files as `tsc --noEmit -p .`); a run with nothing changed costs 6 CPU s instead of 20 (load 2).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ESLint } from 'eslint';
import type * as TypeScript from 'typescript';
import type { Diagnostic, FormatDiagnosticsHost, Program, SourceFile } from 'typescript';
import { typedFiles } from '../eslint.config.js';

// Loaded as typescript-eslint loads it (require): an ESM `import` of this CommonJS package first
// scans its 9 MB for export names (Node's cjs-module-lexer), 0.2-0.3 CPU s of every run for nothing.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

const root = join(import.meta.dirname, '..');
const ESLINT_CACHE = join(root, 'node_modules', '.cache', 'eslint', '.eslintcache');
const TSC_BUILD_INFO = join(root, 'node_modules', '.cache', 'tsc', 'typecheck-lint.tsbuildinfo');

/**
 * The program `tsc -p tsconfig.json` builds, with tsc's JSDoc parsing mode. For tests, `probes`
 * (absolute path -> text, never on disk) replace tsconfig.json's files as the roots: a small program
 * with the same compiler options.
 */
export function createTscProgram(probes: ReadonlyMap<string, string> = new Map()): Program {
  const { parsed, host } = tscInputs(probes, undefined);
  return ts.createProgram({
    rootNames: probes.size > 0 ? [...probes.keys()] : parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences ?? [],
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
}

/**
 * The same program as `tsc --noEmit --incremental` builds it, its state kept in `buildInfoFile`: a
 * file whose text, and whose imports' declared shapes, are unchanged since the state was written
 * keeps its semantic diagnostics from there instead of being checked again (tsc's own bookkeeping,
 * a hash of every file's text). `getProgram()` is the whole program, for eslint's typed rules.
 */
export function createIncrementalTscProgram(
  buildInfoFile: string,
  probes: ReadonlyMap<string, string> = new Map(),
): TypeScript.EmitAndSemanticDiagnosticsBuilderProgram {
  const { parsed, host } = tscInputs(probes, buildInfoFile);
  return ts.createIncrementalProgram({
    rootNames: probes.size > 0 ? [...probes.keys()] : parsed.fileNames,
    options: { ...parsed.options, incremental: true, tsBuildInfoFile: buildInfoFile },
    projectReferences: parsed.projectReferences ?? [],
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
}

/** tsconfig.json read as tsc reads it, and a compiler host that serves `probes` from memory. */
function tscInputs(
  probes: ReadonlyMap<string, string>,
  buildInfoFile: string | undefined,
): { parsed: TypeScript.ParsedCommandLine; host: TypeScript.CompilerHost } {
  const unreadable: Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => unreadable.push(diagnostic) },
  );
  if (parsed === undefined) throw new Error(`tsconfig.json could not be read: ${format(unreadable)}`);
  const host =
    buildInfoFile === undefined
      ? ts.createCompilerHost(parsed.options)
      : ts.createIncrementalCompilerHost({ ...parsed.options, incremental: true, tsBuildInfoFile: buildInfoFile });
  // tsc's own setting: JSDoc in TypeScript files is parsed only as far as type errors need it.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => probes.get(file) ?? readFile(file);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => probes.has(file) || fileExists(file);
  return { parsed, host };
}

/** What tsc's diagnostics are read from: a program, or the incremental builder over one. */
interface DiagnosticsSource {
  getConfigFileParsingDiagnostics(): readonly Diagnostic[];
  getSyntacticDiagnostics(file?: SourceFile): readonly Diagnostic[];
  getOptionsDiagnostics(): readonly Diagnostic[];
  getGlobalDiagnostics(): readonly Diagnostic[];
  getSemanticDiagnostics(file?: SourceFile): readonly Diagnostic[];
  getDeclarationDiagnostics(file?: SourceFile): readonly Diagnostic[];
  getCompilerOptions(): TypeScript.CompilerOptions;
}

/**
 * tsc's diagnostics for a --noEmit build, in the order and with the short-circuits tsc applies;
 * `file` narrows the syntactic and semantic ones to one file (for tests: the whole check is tsc's cost).
 */
export function tscDiagnostics(program: DiagnosticsSource, file?: SourceFile): readonly Diagnostic[] {
  const all = [...program.getConfigFileParsingDiagnostics()];
  const before = all.length;
  all.push(...program.getSyntacticDiagnostics(file));
  if (all.length === before) {
    all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (all.length === before) all.push(...program.getSemanticDiagnostics(file));
    const options = program.getCompilerOptions();
    const declarations = options.declaration === true || options.composite === true;
    if (options.noEmit === true && declarations && all.length === before) {
      all.push(...program.getDeclarationDiagnostics(file));
    }
  }
  return ts.sortAndDeduplicateDiagnostics(all);
}

export function format(diagnostics: readonly Diagnostic[]): string {
  const host: FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  };
  return process.stdout.isTTY
    ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host)
    : ts.formatDiagnostics(diagnostics, host);
}

/** An ESLint with eslint.config.js, whose typed files take their type information from `program`. */
export function eslintWithProgram(program: Program, cache: boolean): ESLint {
  // The cache hashes each file's config; the program is not part of what a result depends on.
  const programs = Object.assign([program], { toJSON: () => 'the tsconfig.json program' });
  return new ESLint({
    cwd: root,
    cache,
    cacheLocation: ESLINT_CACHE,
    cacheStrategy: 'content',
    overrideConfig: { files: typedFiles, languageOptions: { parserOptions: { projectService: false, programs } } },
  });
}

/** `eslint .` over `program`'s types: its stylish report and whether it found no error. */
async function lint(program: Program, cache: boolean): Promise<{ ok: boolean; text: string }> {
  const eslint = eslintWithProgram(program, cache);
  const results = await eslint.lintFiles(['.']);
  const formatter = await eslint.loadFormatter('stylish');
  const text = await formatter.format(results);
  const errors = results.reduce((sum, result) => sum + result.errorCount + result.fatalErrorCount, 0);
  return { ok: errors === 0, text };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { cache: { type: 'boolean', default: false } } });
  const startedMs = performance.now();
  const builder = values.cache ? createIncrementalTscProgram(TSC_BUILD_INFO) : undefined;
  const program = builder?.getProgram() ?? createTscProgram();
  const diagnostics = tscDiagnostics(builder ?? program);
  // With noEmit, emit writes only the build state (diagnostics included, so they are reported again).
  builder?.emit();
  const checkedMs = performance.now();
  if (diagnostics.length > 0) process.stdout.write(format(diagnostics));
  // As tsc --noEmit: any diagnostic at all fails the check.
  const typesOk = diagnostics.length === 0;
  const problems = typesOk ? 'ok' : `${diagnostics.length} diagnostics`;
  console.log(`type check: ${problems} in ${((checkedMs - startedMs) / 1000).toFixed(0)} s`);
  const linted = await lint(program, values.cache);
  if (linted.text !== '') process.stdout.write(linted.text);
  console.log(`lint: ${linted.ok ? 'ok' : 'FAILED'} in ${((performance.now() - checkedMs) / 1000).toFixed(0)} s`);
  if (typesOk && linted.ok) return 0;
  return 8 + (typesOk ? 0 : 1) + (linted.ok ? 0 : 2);
}

// Run as a script only (a test imports the functions above).
if (import.meta.main) process.exitCode = await main();
