/**
 * The `yaml` package inside the k6 bundle, for JSON text only: the export hands k6 the scenario
 * already read (its YAML turned into JSON by k6-script.ts), so the bundle need not carry a YAML
 * parser (a tenth of it; the k6-operator's ConfigMap holds 1 MiB). What afp's scenario reader
 * calls is here: a document whose value is the JSON's, with no node tree (line numbers are for
 * error messages, and the export already validated the file).
 */
export class LineCounter {
  linePos(): { line: number; col: number } {
    return { line: 1, col: 1 };
  }
}

interface Problem {
  readonly message: string;
  readonly pos: [number, number];
}

export function parseDocument(text: string): {
  errors: Problem[];
  warnings: Problem[];
  contents: null;
  toJS: () => unknown;
} {
  let value: unknown = null;
  const errors: Problem[] = [];
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    errors.push({ message: error instanceof Error ? error.message : String(error), pos: [0, 0] });
  }
  return { errors, warnings: [], contents: null, toJS: () => value };
}

export const isAlias = (): boolean => false;
export const isMap = (): boolean => false;
export const isScalar = (): boolean => false;
export const isSeq = (): boolean => false;

export function parse(text: string): unknown {
  return JSON.parse(text) as unknown;
}
