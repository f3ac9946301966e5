/**
 * `--rules FILE` of `afp serve --dialect deployed`: YAML in, a DeployedCasinoRules value out (the
 * published rules with the file's overrides), or every error at once with its path and line
 * (`rules.yaml:3 casino.coin_flip.payuot: unknown key 'payuot'`), sorted, as target and scenario
 * files are read. The shape is deployed-rules-schema.ts's; keys go from the file's snake_case to
 * the rules value's camelCase (`float_noise` → `money.floatNoise`); game ids stay as the wire spells them.
 * An empty file is the published rules. Non-goals: serving them (the deployed rows read
 * `config.casino.deployedRules`, deployed-rules-of.ts).
 */
import {
  PUBLISHED_DEPLOYED_RULES,
  withRuleOverrides,
  type DeployedCasinoRules,
} from '../services/casino/deployed/deployed-casino-rules.ts';
import { formatScenarioErrors, sortErrors } from '../scenario/scenario.ts';
import { readYamlFile, startYamlFile } from '../scenario/yaml-file-start.ts';
import { deployedRulesFileSchema, type DeployedRulesFile } from './deployed-rules-schema.ts';

/** Rules files are small; anything larger is a mistake. */
export const MAX_RULES_FILE_CHARS = 65_536;

export type RulesFileResult =
  | { readonly ok: true; readonly value: DeployedCasinoRules }
  | { readonly ok: false; readonly message: string };

export async function loadDeployedRulesFile(path: string): Promise<RulesFileResult> {
  const file = await readYamlFile(path, 'the rules file', MAX_RULES_FILE_CHARS);
  return file.ok ? parseDeployedRulesFile(file.text, path) : file;
}

export function parseDeployedRulesFile(text: string, fileName: string): RulesFileResult {
  const start = startYamlFile(text, {
    fileName,
    what: 'a rules file',
    maxChars: MAX_RULES_FILE_CHARS,
    schema: deployedRulesFileSchema,
    emptyValue: {},
  });
  if (!start.ok) return start;
  const { errors, parsed } = start;
  if (!parsed.success || errors.length > 0)
    return { ok: false, message: formatScenarioErrors(fileName, sortErrors(errors)) };
  return { ok: true, value: rulesOfFile(parsed.data) };
}

const camel = (key: string): string => key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** An object's own keys in camelCase (one level: tables below keep their keys). */
function camelKeys(value: object | undefined): Record<string, unknown> | undefined {
  return value === undefined
    ? undefined
    : Object.fromEntries(Object.entries(value).map(([key, field]) => [camel(key), field]));
}

/** The published rules with the file's overrides. */
export function rulesOfFile(file: DeployedRulesFile): DeployedCasinoRules {
  const casino = Object.fromEntries(
    Object.entries(file.casino ?? {}).map(([game, fields]) => [game, camelKeys(fields as object)]),
  );
  return withRuleOverrides(PUBLISHED_DEPLOYED_RULES, {
    casino,
    bets: camelKeys(file.bets),
    display: camelKeys(file.display),
    money: camelKeys(file.money),
    published: Object.fromEntries(
      Object.entries(file.published ?? {}).map(([game, words]) => [game, camelKeys(words as object)]),
    ),
  });
}
