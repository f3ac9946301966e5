// Mutable numeric class fields are initialized where they are declared (all of src and agents).
// Why: with type stripping, `lastMs: number;` stays a JS class field, defined as undefined before
// the constructor runs, and V8 then keeps every number later stored in it boxed: a time (beyond
// the small-integer range) stored on every request was a new heap number and a write barrier
// (token-bucket.ts header). `lastMs = 0;` keeps the field an unboxed double.
// Scope: src and agents; readonly fields (stored once) and `declare` fields (no JS field at all)
// are exempt.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const scanned = ['src', 'agents'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** `Class.field` for each mutable `number` field declared without an initializer. */
function bareNumericFields(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyDeclaration(node) && node.initializer === undefined && node.type !== undefined) {
      const modifiers = ts.getModifiers(node) ?? [];
      const exempt = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ReadonlyKeyword || modifier.kind === ts.SyntaxKind.DeclareKeyword);
      const numeric = node.type.kind === ts.SyntaxKind.NumberKeyword;
      if (!exempt && numeric) {
        const owner = ts.isClassLike(node.parent) ? (node.parent.name?.text ?? '(anonymous class)') : '(class)';
        found.push(`${owner}.${node.name.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('numeric class fields', () => {
  test('the check finds a bare field and accepts initialized, readonly and declare fields', () => {
    const sample = 'class A { a: number; b = 0; readonly c: number; declare d: number; e: string; constructor() { this.a = 1; this.c = 2; this.e = ""; } }';
    expect(bareNumericFields('sample.ts', sample)).toEqual(['A.a']);
  });

  test('every mutable numeric field is initialized where it is declared', () => {
    const offenders = scanned.flatMap((dir) =>
      files(join(root, dir)).flatMap((path) => bareNumericFields(path, readFileSync(path, 'utf8')).map((field) => `${relative(root, path)}: ${field}`)),
    );
    expect(offenders).toEqual([]);
  });
});
