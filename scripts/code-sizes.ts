// The sizes the house keeps (shared style: functions of at most 70 lines, as TigerBeetle keeps them;
// at most a few files over 500 lines, each saying why it is one piece; each exported name defined
// once), measured over src/ and agents/ with TypeScript's own parser. test/tooling/code-sizes.test.ts
// holds the tree to scripts/code-sizes.json: the functions, files and names already past a limit
// when the check came in, each at the size it had. Nothing may join that list or grow on it, and an
// entry that no longer applies must leave it (`node scripts/code-sizes.ts --write` rewrites it from
// the tree, for the commit that shrank something), so the list only ever gets shorter.
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

export interface CodeSizes {
  /** `file#function` → lines, for each function over FUNCTION_LINES_MAX. */
  readonly functions: Record<string, number>;
  /** file → lines, for each file over FILE_LINES_MAX. */
  readonly files: Record<string, number>;
  /** exported name → the files that define it, for each name defined in more than one. */
  readonly names: Record<string, string[]>;
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

/** The exported names a file defines (declarations, not re-exports). */
function exportedNames(source: ts.SourceFile): string[] {
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

/** Every size past its limit in the tree now. */
export function measure(): CodeSizes {
  const functions: Record<string, number> = {};
  const files: Record<string, number> = {};
  const definers = new Map<string, string[]>();
  for (const file of [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'agents'))]) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
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
    for (const name of exportedNames(source)) definers.set(name, [...(definers.get(name) ?? []), file]);
  }
  const names: Record<string, string[]> = {};
  for (const [name, where] of [...definers.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if (where.length > 1) names[name] = where;
  return { functions, files, names };
}

export function readAllowances(): CodeSizes {
  return JSON.parse(readFileSync(ALLOWANCES, 'utf8')) as CodeSizes;
}

if (process.argv.includes('--write')) {
  writeFileSync(ALLOWANCES, `${JSON.stringify(measure(), null, 2)}\n`);
  process.stdout.write(`wrote ${relative(ROOT, ALLOWANCES)}\n`);
}
