/**
 * Reads a scenario file's YAML text into plain data plus a map from data paths
 * (`populations[2].params.release`) to line numbers, so that every validation error can say
 * where it is. Also finds duplicate keys, which YAML loaders otherwise resolve silently.
 *
 * Invariants: syntax errors and warnings (an unknown tag, say) are reported with their line and
 * nothing else is trusted after them; duplicate keys are reported and the document is still read
 * (the last value wins, as in every YAML loader) so the rest of the file is validated too.
 * Limits: nesting deeper than MAX_DEPTH is not indexed (its errors point at the nearest indexed
 * parent); at most MAX_ALIASES alias expansions (the yaml package's guard against alias bombs).
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export interface SourceProblem {
  readonly path: string;
  readonly message: string;
  readonly line?: number;
}

export interface ScenarioSource {
  /** The document as plain data (undefined when syntaxErrors is not empty). */
  readonly value: unknown;
  readonly syntaxErrors: readonly SourceProblem[];
  readonly duplicateKeys: readonly SourceProblem[];
  /** Line of the value at `path`, or of its nearest ancestor present in the file. */
  lineOf(path: readonly PropertyKey[]): number | undefined;
  /** Line of the key that names `path` (for unknown keys); falls back to lineOf. */
  keyLineOf(path: readonly PropertyKey[]): number | undefined;
}

const MAX_DEPTH = 64;
const MAX_ALIASES = 100;

/** `['populations', 2, 'params', 'release']` → `populations[2].params.release`. */
export function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

interface Index {
  readonly valueLines: Map<string, number>;
  readonly keyLines: Map<string, number>;
  readonly duplicates: SourceProblem[];
  readonly lineAt: (offset: number) => number;
}

export function readScenarioSource(text: string): ScenarioSource {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line;
  const index: Index = { valueLines: new Map(), keyLines: new Map(), duplicates: [], lineAt };
  const syntaxErrors: SourceProblem[] = [...document.errors, ...document.warnings].map((problem) => ({
    path: '',
    message: `YAML: ${problem.message}`,
    line: lineAt(problem.pos[0]),
  }));
  let value: unknown;
  if (syntaxErrors.length === 0) {
    try {
      value = document.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (error) {
      // The yaml package throws on alias bombs and similar resource limits: input, not a bug.
      syntaxErrors.push({ path: '', message: `YAML: ${error instanceof Error ? error.message : String(error)}` });
    }
    indexNode(document.contents, [], 0, index);
  }
  const lineOf = (path: readonly PropertyKey[]): number | undefined => nearestLine(index.valueLines, path);
  return {
    value,
    syntaxErrors,
    duplicateKeys: index.duplicates,
    lineOf,
    keyLineOf: (path) => index.keyLines.get(pathText(path)) ?? lineOf(path),
  };
}

function nearestLine(lines: ReadonlyMap<string, number>, path: readonly PropertyKey[]): number | undefined {
  for (let length = path.length; length >= 0; length--) {
    const line = lines.get(pathText(path.slice(0, length)));
    if (line !== undefined) return line;
  }
  return undefined;
}

function indexNode(node: Node | null | undefined, path: readonly PropertyKey[], depth: number, index: Index): void {
  if (node === null || node === undefined || depth > MAX_DEPTH) return;
  const start = node.range?.[0];
  if (start !== undefined) index.valueLines.set(pathText(path), index.lineAt(start));
  if (isAlias(node)) return;
  if (isSeq(node)) {
    node.items.forEach((item, position) => {
      indexNode(item as Node | null, [...path, position], depth + 1, index);
    });
    return;
  }
  if (!isMap(node)) return;
  const seen = new Map<string, number | undefined>();
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const keyStart = (pair.key as Node | null)?.range?.[0];
    const keyLine = keyStart === undefined ? undefined : index.lineAt(keyStart);
    const childPath = [...path, key];
    if (seen.has(key)) {
      const first = seen.get(key);
      const where = first === undefined ? '' : ` (first at line ${first})`;
      index.duplicates.push({
        path: pathText(childPath),
        message: `duplicate key '${key}'${where}`,
        ...(keyLine === undefined ? {} : { line: keyLine }),
      });
    }
    seen.set(key, keyLine);
    if (keyLine !== undefined) index.keyLines.set(pathText(childPath), keyLine);
    const valueNode = pair.value as Node | null;
    if (valueNode?.range === undefined || valueNode.range === null) {
      if (keyLine !== undefined) index.valueLines.set(pathText(childPath), keyLine);
    }
    indexNode(valueNode, childPath, depth + 1, index);
  }
}
