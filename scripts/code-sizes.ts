// The sizes the house keeps (shared style: functions of at most 70 lines, as TigerBeetle keeps them;
// at most a few files over 500 lines, each saying why it is one piece; each exported name defined
// once), measured over src/ and agents/ with TypeScript's own parser. test/tooling/code-sizes.test.ts
// holds the tree to them. Functions and files: scripts/code-sizes.json lists those already past a
// limit when the check came in, each at the size it had. Nothing may join that list or grow on it,
// and an entry that no longer applies must leave it (`node scripts/code-sizes.ts --write` rewrites
// it from the tree, for the commit that shrank something), so the list only ever gets shorter.
// Names: no list at all; a name exported by two files fails the test, naming both (issue 72 part 5
// emptied the list). The only names several files define are contracts, not concepts defined twice
// (STAND_IN_FOLDERS, ENTRY_NAMES below). A re-export (`export { x } from`) defines nothing.
// A function is a named one: a function declaration, a method, a constructor or accessor, or a
// function or arrow function bound to a name (a const, a property); what it contains counts as its
// lines (an anonymous callback is part of the function around it). Lines run from the first line of
// the declaration to its last, comments inside included, as TigerBeetle's tidy counts them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const FUNCTION_LINES_MAX = 70;
export const FILE_LINES_MAX = 500;
const ROOT = join(import.meta.dirname, '..');

/**
 * Files that are tables, exempt from the file limit (not from the function limit): each grows by a
 * row per command, flag or route, and splitting it would scatter the one place that lists them.
 */
export const TABLE_FILES: Readonly<Record<string, string>> = {
  'src/cli/commands.ts':
    "the command table: one definition per command and flag, from which --help, the docs' usage blocks and the exit-code tests are rendered",
};
const ALLOWANCES = join(ROOT, 'scripts', 'code-sizes.json');

/**
 * Folders of stand-ins: the k6 bundle puts each of their modules in place of another
 * (src/export/k6/k6-bundle.ts), so a stand-in defines the very names of the module it replaces.
 */
export const STAND_IN_FOLDERS: readonly string[] = ['src/export/k6/shims/'];

/**
 * Entry names that each module of a folder defines for a caller that loads the module and calls
 * the name: one contract, fulfilled once per module.
 */
export const ENTRY_NAMES: Readonly<Record<string, { readonly folder: string; readonly why: string }>> = {
  main: {
    folder: 'src/cli/',
    why: "a command module's entry: dispatch.ts calls `main` of the module command-modules.ts loads for the command (its CommandModule), as load.ts does of load-merge.ts",
  },
};

/** The sizes past a limit that scripts/code-sizes.json allows (names have no allowance). */
export interface Allowances {
  /** `file#function` → lines, for each function over FUNCTION_LINES_MAX. */
  readonly functions: Record<string, number>;
  /** file → lines, for each file over FILE_LINES_MAX. */
  readonly files: Record<string, number>;
}

/** The exported names one file defines. */
export interface Definitions {
  readonly file: string;
  readonly names: readonly string[];
}

export interface CodeSizes extends Allowances {
  /** exported name → the files that define it, for each name defined in more than one. */
  readonly names: Record<string, string[]>;
  /** Every file's exported names, in file order (what `names` is computed from). */
  readonly definitions: readonly Definitions[];
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/** The name a function-like node is known by, or null for an anonymous one. */
function functionName(node: ts.Node): string | null {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node)
  )
    return node.name === undefined ? null : node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.parent !== undefined) {
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent))
      return parent.name.getText();
  }
  return null;
}

function linesOf(source: ts.SourceFile, node: ts.Node): number {
  const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
  return last - first + 1;
}

export function parsed(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

/** The exported names a file defines (declarations, not re-exports). */
export function exportedNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement)
      ? (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations) names.push(declaration.name.getText(source));
    else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name !== undefined
    )
      names.push(statement.name.getText(source));
  }
  return names;
}

/** Whether a file is a stand-in (STAND_IN_FOLDERS): its names are another module's, not its own. */
function standIn(file: string): boolean {
  return STAND_IN_FOLDERS.some((folder) => file.startsWith(folder));
}

/** Whether a file's definition of `name` fulfils an entry contract (ENTRY_NAMES): the folder's modules count as one. */
function entryContract(file: string, name: string): boolean {
  const entry = ENTRY_NAMES[name];
  return entry !== undefined && file.startsWith(entry.folder);
}

/**
 * Each exported name that more than one file defines → those files, sorted; names in order. A
 * stand-in's names do not count, and the modules of an entry contract count as their first one.
 */
export function duplicateNames(definitions: readonly Definitions[]): Record<string, string[]> {
  const definers = new Map<string, string[]>();
  for (const { file, names } of definitions)
    for (const name of names) {
      const where = definers.get(name) ?? [];
      if (standIn(file) || (entryContract(file, name) && where.some((other) => entryContract(other, name)))) continue;
      definers.set(name, [...where, file]);
    }
  const duplicates: Record<string, string[]> = {};
  for (const [name, where] of [...definers.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if (where.length > 1) duplicates[name] = [...where].sort();
  return duplicates;
}

/** Every size past its limit in the tree now. */
export function measure(): CodeSizes {
  const functions: Record<string, number> = {};
  const files: Record<string, number> = {};
  const definitions: Definitions[] = [];
  for (const file of [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'agents'))]) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const source = parsed(file, text);
    const fileLines = source.getLineAndCharacterOfPosition(text.length).line + (text.endsWith('\n') ? 0 : 1);
    if (fileLines > FILE_LINES_MAX && TABLE_FILES[file] === undefined) files[file] = fileLines;
    const visit = (node: ts.Node): void => {
      const name = functionName(node);
      if (name !== null) {
        const lines = linesOf(source, node);
        const key = `${file}#${name}`;
        if (lines > FUNCTION_LINES_MAX) functions[key] = Math.max(functions[key] ?? 0, lines);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    definitions.push({ file, names: exportedNames(source) });
  }
  return { functions, files, names: duplicateNames(definitions), definitions };
}

export function readAllowances(): Allowances {
  return JSON.parse(readFileSync(ALLOWANCES, 'utf8')) as Allowances;
}

if (process.argv.includes('--write')) {
  const { functions, files } = measure();
  writeFileSync(ALLOWANCES, `${JSON.stringify({ functions, files }, null, 2)}\n`);
  process.stdout.write(`wrote ${relative(ROOT, ALLOWANCES)}\n`);
}
