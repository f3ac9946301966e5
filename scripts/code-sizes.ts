// The sizes the house keeps (shared style: functions of at most 70 lines, as TigerBeetle keeps them;
// at most ONE_PIECE_FILES_MAX files over 500 lines, each saying why it is one piece; each exported
// name defined once), measured over src/ and agents/ with TypeScript's own parser.
// test/tooling/code-sizes.test.ts holds the tree to them. The function and file limits are strict:
// a named function over FUNCTION_LINES_MAX fails, named; a file over FILE_LINES_MAX passes only
// when its opening header comment has a line starting "One piece: " (why it is not split: a table,
// a document), and at most ONE_PIECE_FILES_MAX such files exist. Names are strict too: a name
// exported by two files fails, naming both (issue 72 part 5 emptied the list that was kept in
// scripts/code-sizes.json; there is no list now). The only names several files define are
// contracts, not concepts defined twice (STAND_IN_FOLDERS, ENTRY_NAMES below). A re-export
// (`export { x } from`) defines nothing.
// A function is a named one: a function declaration, a method, a constructor or accessor, or a
// function or arrow function bound to a name (a const, a property); what it contains counts as its
// lines (an anonymous callback is part of the function around it). Lines run from the first line of
// the declaration to its last, comments inside included, as TigerBeetle's tidy counts them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const FUNCTION_LINES_MAX = 70;
export const FILE_LINES_MAX = 500;
const ROOT = join(import.meta.dirname, '..');

/** Files over FILE_LINES_MAX allowed in the whole tree, each with a ONE_PIECE line in its header. */
export const ONE_PIECE_FILES_MAX = 5;
/** How a file over FILE_LINES_MAX says, in its opening header comment, why it is one piece. */
export const ONE_PIECE = 'One piece: ';

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

/** A file over FILE_LINES_MAX: its lines, and why it is one piece (its header's ONE_PIECE line), or null. */
export interface LongFile {
  readonly lines: number;
  readonly onePiece: string | null;
}

/** The exported names one file defines. */
export interface Definitions {
  readonly file: string;
  readonly names: readonly string[];
}

export interface CodeSizes {
  /** `file#function` → lines, for each function over FUNCTION_LINES_MAX. */
  readonly functions: Record<string, number>;
  /** file → its size, for each file over FILE_LINES_MAX. */
  readonly files: Record<string, LongFile>;
  /** Every file's exported names, in file order (what `names` is computed from). */
  readonly definitions: readonly Definitions[];
  /** exported name → the files that define it, for each name defined in more than one. */
  readonly names: Record<string, string[]>;
}

/** One source file's sizes: its functions over the limit, its lines, its header's ONE_PIECE reason, its exported names. */
export interface SourceSizes {
  readonly file: string;
  readonly lines: number;
  readonly functions: Record<string, number>;
  readonly onePiece: string | null;
  readonly names: readonly string[];
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

/** The reason on the ONE_PIECE line of the file's opening header comment (the comments before its first statement), or null. */
function onePieceOf(text: string): string | null {
  for (const range of ts.getLeadingCommentRanges(text, 0) ?? []) {
    for (const line of text.slice(range.pos, range.end).split('\n')) {
      const at = line.indexOf(ONE_PIECE);
      if (at >= 0 && /^\s*(\/\/|\/?\*+)?\s*$/.test(line.slice(0, at))) return line.slice(at + ONE_PIECE.length).trim();
    }
  }
  return null;
}

/** The sizes of one source file, given its text. */
export function measureSource(file: string, text: string): SourceSizes {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = source.getLineAndCharacterOfPosition(text.length).line + (text.endsWith('\n') ? 0 : 1);
  const functions: Record<string, number> = {};
  const visit = (node: ts.Node): void => {
    const name = functionName(node);
    if (name !== null) {
      const length = linesOf(source, node);
      if (length > FUNCTION_LINES_MAX) functions[name] = Math.max(functions[name] ?? 0, length);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { file, lines, functions, onePiece: onePieceOf(text), names: exportedNames(source) };
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

/** The sizes past a limit over many source files. */
export function combine(sources: readonly SourceSizes[]): CodeSizes {
  const functions: Record<string, number> = {};
  const files: Record<string, LongFile> = {};
  const definitions: Definitions[] = [];
  for (const { file, lines, onePiece, names: exported, functions: long } of sources) {
    for (const [name, length] of Object.entries(long)) functions[`${file}#${name}`] = length;
    if (lines > FILE_LINES_MAX) files[file] = { lines, onePiece };
    definitions.push({ file, names: exported });
  }
  return { functions, files, definitions, names: duplicateNames(definitions) };
}

/** Every size past its limit in the tree now. */
export function measure(): CodeSizes {
  const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'agents'))];
  return combine(files.map((file) => measureSource(file, readFileSync(join(ROOT, file), 'utf8'))));
}

/** Each function over FUNCTION_LINES_MAX, in words (no allowance: any one fails). */
export function functionsTooLong(sizes: CodeSizes): string[] {
  return Object.entries(sizes.functions).map(
    ([key, lines]) => `${key}: ${lines} lines (limit ${FUNCTION_LINES_MAX}): split it into named steps`,
  );
}

/** Each file over FILE_LINES_MAX whose header does not say why it is one piece, and too many that do, in words. */
export function filesTooLong(sizes: CodeSizes): string[] {
  const long = Object.entries(sizes.files);
  const unexplained = long
    .filter(([, size]) => size.onePiece === null)
    .map(
      ([file, size]) =>
        `${file}: ${size.lines} lines (limit ${FILE_LINES_MAX}): split it by concept, or say in its header "${ONE_PIECE}<why>"`,
    );
  const explained = long.filter(([, size]) => size.onePiece !== null).map(([file]) => file);
  return explained.length > ONE_PIECE_FILES_MAX
    ? [
        ...unexplained,
        `${explained.length} files over ${FILE_LINES_MAX} lines say they are one piece, at most ${ONE_PIECE_FILES_MAX} may: ${explained.join(', ')}`,
      ]
    : unexplained;
}
