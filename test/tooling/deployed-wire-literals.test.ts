// The measure of issue 70 part 3, "one wire per dialect": every path of the deployed wire is
// written once in src/, in its table (src/http/deployed/deployed-wire.ts); the stand-in's rows,
// the live client's deployed operations, the limits and the probes read it from there.
// What counts: every string and template literal of src/**/*.ts (comments do not) whose text
// equals a path of the table, or starts with one (followed by `/`, `?` or its end); a `:name`
// segment of the table matches any one segment, a template's `${…}` (or a `:name` / `{name}` of
// the literal) matches only a `:name` of the table. So '/v1/trade/open', `/escrow/release/${id}`,
// '/v1/domains/check?names=' and '/api/v1/games/' all count.
// Decided per service by the mount, as the documents' dialect has a wire of its own whose paths
// sometimes coincide with the deployment's (the casino's style A and the deployed casino both
// under /api/v1 on the casino's own address; the wallet's primary interface and the deployed
// wallet both under /v1 on the wallet's; escrow B's /escrow/:id/release on the shared api_url):
// - the documents' own files do not count: their route rows (src/http/routes/<service>/, not
//   deployed/), the client table generated from those rows, and the live rows only the
//   documents' dialects send (DOCUMENTS_FILES). A live file whose requests the deployed dialect
//   sends too (documents/wallet.ts, casino-rows.ts, casino-pot-rows.ts, casino-a.ts's register and
//   bet) takes those paths from the table;
// - a literal written for the documents' shared mount (`mount: 'api'` in its object) or for a
//   documents row (a call naming a route id of style A, B, short or primary) does not count.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DEPLOYED_WIRE } from '../../src/http/deployed/deployed-wire.ts';

const TABLE_FILE = 'src/http/deployed/deployed-wire.ts';

/** The documents' dialect's own wire: files (or folders, ending in `/`) whose paths are not the deployment's. */
const DOCUMENTS_FILES: readonly string[] = [
  'src/client/endpoint-table.ts',
  'src/http/routes/casino/',
  'src/http/routes/domains/',
  'src/http/routes/escrow/',
  'src/http/routes/faucet/',
  'src/http/routes/trading/',
  'src/http/routes/wallet/',
  'src/live/dialects/documents/casino-a.ts',
  'src/live/dialects/documents/casino-audit-a.ts',
  'src/live/dialects/documents/domains.ts',
  'src/live/dialects/documents/faucet-escrow-a.ts',
  'src/live/dialects/documents/faucet-escrow-b.ts',
  'src/live/dialects/documents/markers.ts',
  'src/live/dialects/documents/trading-a.ts',
  'src/live/dialects/documents/trading-b.ts',
];

const DOCUMENTS_ROUTE_ID = /^(casino|faucet|escrow|trading|domains|wallet)\.(A|B|short|primary)\./;
const PARAM = /^(:\w+|\{\w+\}|\$\{\})$/;

const TABLE_PATHS: readonly { readonly name: string; readonly segments: readonly string[] }[] = Object.entries(
  DEPLOYED_WIRE,
).map(([name, endpoint]) => ({ name, segments: endpoint.path.split('/') }));

/** The endpoint of the table that `text` names (equal to, or starting with, its path), or null. */
export function namedEndpoint(text: string): string | null {
  if (!text.startsWith('/')) return null;
  const segments = (text.split('?')[0] ?? '').split('/');
  for (const { name, segments: pattern } of TABLE_PATHS) {
    if (segments.length < pattern.length) continue;
    const matches = pattern.every((part, index) => {
      const segment = segments[index] ?? '';
      return part.startsWith(':') ? segment !== '' : segment === part && !PARAM.test(segment);
    });
    if (matches) return name;
  }
  return null;
}

/** A literal's text; a template's substitutions read as `${}`. Null for nodes that are no literal. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((span) => `\${}${span.literal.text}`).join('');
  return null;
}

/** Whether the literal is written for the documents' wire: its object's `mount: 'api'`, or its call names a documents row. */
function forDocuments(node: ts.Node): boolean {
  for (let parent = node.parent, depth = 0; parent !== undefined && depth < 4; parent = parent.parent, depth += 1) {
    if (ts.isObjectLiteralExpression(parent)) {
      const mount = parent.properties.find(
        (property) => ts.isPropertyAssignment(property) && property.name.getText() === 'mount',
      );
      if (mount !== undefined && ts.isPropertyAssignment(mount) && literalText(mount.initializer) === 'api')
        return true;
    }
    if (ts.isCallExpression(parent))
      return parent.arguments.some((argument) => DOCUMENTS_ROUTE_ID.test(literalText(argument) ?? ''));
  }
  return false;
}

/** Every deployed path literal of one source text, as `file:line: literal (endpoint)`. */
export function deployedLiterals(file: string, source: string): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const text = literalText(node);
    const name = text === null ? null : namedEndpoint(text);
    if (name !== null && !forDocuments(node)) {
      const line = sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${file}:${line}: ${JSON.stringify(text)} (${name})`);
    }
    if (text === null) ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const isDocuments = (file: string): boolean =>
  DOCUMENTS_FILES.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));

describe('the deployed wire is written once (issue 70 part 3)', () => {
  const files = sourceFiles('src').filter((file) => file !== TABLE_FILE && !isDocuments(file));

  it('no file of src/ but the table writes a deployed path (the documents’ own files aside)', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files.flatMap((file) => deployedLiterals(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the table names each endpoint once: one row per service, method and path', () => {
    const keys = Object.values(DEPLOYED_WIRE).map(
      (endpoint) => `${endpoint.service} ${endpoint.method} ${endpoint.path}`,
    );
    expect(keys.length).toBeGreaterThan(100);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('every documents file it sets aside exists', () => {
    const all = sourceFiles('src');
    expect(
      DOCUMENTS_FILES.filter(
        (entry) => !all.some((file) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry)),
      ),
    ).toEqual([]);
  });

  it('the scan counts what a copy of the wire would write, and not the documents’ mount', () => {
    const source = [
      "const a = { service: 'trading', method: 'POST', path: '/v1/trade/open' };",
      'const b = (id: string) => `/escrow/release/${id}`;',
      "const c = '/v1/domains/check?names=';",
      "const d = '/api/v1/games/' + game;",
      "const e = { mount: 'api', method: 'GET', path: `/escrow/${id}/release` };",
      "path('an unknown escrow', 'escrow.B.release', 404, `/escrow/${id}/release`);",
      "const f = '/api/v1/escrow/list'; // not the deployment's",
      'const g = `/${service}/api`;',
    ].join('\n');
    expect(deployedLiterals('sample.ts', source)).toEqual([
      'sample.ts:1: "/v1/trade/open" (trading.deployed.open)',
      'sample.ts:2: "/escrow/release/${}" (escrow.deployed.release)',
      'sample.ts:3: "/v1/domains/check?names=" (domains.deployed.check)',
      'sample.ts:4: "/api/v1/games/" (casino.deployed.games)',
    ]);
  });
});
