/**
 * The first steps every strict YAML file of afp takes (target files, `afp serve --rules` files):
 * refuse text over its size limit, stop at YAML syntax errors, then validate the document against
 * its schema, collecting the duplicate keys and the schema's errors (with their lines) so that the
 * caller adds its own checks across fields and reports every error at once (formatScenarioErrors).
 * The reading of such a file is yaml-file-read.ts's (re-exported here), so that it runs without this parser.
 * Non-goals: scenario files, whose errors stay a list (parseScenario) rather than one message.
 */
import type * as z from 'zod';
import { formatScenarioErrors, issueErrors, sortErrors, type ScenarioError } from './scenario.ts';
import { readScenarioSource, type ScenarioSource } from './scenario-source.ts';

export { readYamlFile } from './yaml-file-read.ts';

export type YamlFileStart<T> =
  | { readonly ok: false; readonly message: string }
  | {
      readonly ok: true;
      readonly source: ScenarioSource;
      /** Duplicate keys and schema errors so far; the caller adds its own, then reports them all. */
      readonly errors: ScenarioError[];
      readonly parsed: z.ZodSafeParseResult<T>;
    };

export function startYamlFile<T>(
  text: string,
  options: {
    readonly fileName: string;
    /** What the file is, for the size error ("a target file"). */
    readonly what: string;
    readonly maxChars: number;
    readonly schema: z.ZodType<T>;
    /** What an empty document stands for (undefined: nothing, which the schema judges). */
    readonly emptyValue?: unknown;
    readonly mapError?: (error: ScenarioError) => ScenarioError;
  },
): YamlFileStart<T> {
  const { fileName, maxChars } = options;
  if (text.length > maxChars)
    return {
      ok: false,
      message: `${fileName}: ${options.what} is at most ${maxChars} characters (this one has ${text.length})`,
    };
  const source = readScenarioSource(text);
  if (source.syntaxErrors.length > 0)
    return { ok: false, message: formatScenarioErrors(fileName, sortErrors(source.syntaxErrors)) };
  const errors: ScenarioError[] = [...source.duplicateKeys];
  const parsed = options.schema.safeParse(source.value ?? options.emptyValue);
  if (!parsed.success) {
    const issues = issueErrors(parsed.error.issues, [], source);
    errors.push(...(options.mapError === undefined ? issues : issues.map(options.mapError)));
  }
  return { ok: true, source, errors, parsed };
}
