/**
 * Target files: YAML in, a validated Target (src/live/target.ts) out, or every error at once, the
 * way scenario files are read (src/scenario/scenario.ts): strict shape (target-schema.ts), every error
 * with its data path and line (`targets/x.yaml:7 funding.keys_env: …`), sorted, all reported
 * together; duplicate keys are errors.
 *
 * What one schema cannot see is checked here: the registration service and the faucet used for
 * funding are listed services; admin-deposit funding has an afp serve's admin URL; keys come from
 * the file or from an environment variable (keys_env, comma-separated), exactly one of them; a
 * limit names an operation of a listed service; a target with a casino names its fairness scheme.
 * URLs are normalized (no trailing slash, lower-case scheme and host).
 * Invariants: no error message contains a key's value, from the file or from the environment.
 * Non-goals: talking to the target (resolve-target.ts probes a URL; `afp target probe` writes files).
 */
import { assert } from '../core/assert.ts';
import type { ServiceName } from '../platform/platform.ts';
import { errorAt, formatScenarioErrors, sortErrors, type ScenarioError } from '../scenario/scenario.ts';
import type { ScenarioSource } from '../scenario/scenario-source.ts';
import { startYamlFile } from '../scenario/yaml-file-start.ts';
import { MAX_TARGET_FILE_CHARS, readTargetFile } from './target-file-read.ts';
import { normalizeServiceUrl } from './service-url.ts';
import { OPERATION_NAMES } from './operations.ts';
import { ENV_NAME_PATTERN, KEY_PATTERN, TARGET_LIMITS, targetFileSchema, type TargetFile } from './target-schema.ts';
import type { Funding, PaceLimit, Target, TargetService } from './target.ts';

export { MAX_TARGET_FILE_CHARS };
export { normalizeServiceUrl } from './service-url.ts';

export type TargetFileResult =
  | { readonly ok: true; readonly value: Target }
  | { readonly ok: false; readonly message: string };

export interface TargetFileOptions {
  /** Where keys_env is read (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The command funds no account from the file's keys (given the key of its one account, `--key`,
   * or funding nothing at all: `afp load --engine autocannon`): keys funding is then not needed, so
   * an unset or empty keys_env is no error (its keys are read when set). `afp audit fairness --key
   * K` and an autocannon load refused a target file whose keys_env was unset, though neither used
   * those keys.
   */
  readonly fundsNothing?: boolean;
}

export async function loadTargetFile(path: string, options: TargetFileOptions = {}): Promise<TargetFileResult> {
  const file = await readTargetFile(path);
  return file.ok ? parseTargetFile(file.text, { ...options, fileName: path }) : file;
}

/** The same as loadTargetFile, from text (`fileName` names it in errors and becomes the Target's source). */
export function parseTargetFile(
  text: string,
  options: TargetFileOptions & { readonly fileName: string },
): TargetFileResult {
  const { fileName } = options;
  const start = startYamlFile(text, {
    fileName,
    what: 'a target file',
    maxChars: MAX_TARGET_FILE_CHARS,
    schema: targetFileSchema,
    mapError: withOperationNames,
  });
  if (!start.ok) return start;
  const { source, errors, parsed: file } = start;
  const view = looseView(source.value);
  checkAcrossFields(view, source, errors);
  const keys = fundingKeys(view, source, options.env ?? process.env, errors, options.fundsNothing === true);
  if (!file.success || errors.length > 0) {
    assert(errors.length > 0, 'a failed target file parse reports at least one error');
    return { ok: false, message: formatScenarioErrors(fileName, sortErrors(errors)) };
  }
  return { ok: true, value: buildTarget(file.data, keys, fileName, options.fundsNothing === true) };
}

/** An unknown operation under `limits` lists the known ones. */
function withOperationNames(error: ScenarioError): ScenarioError {
  if (!error.path.startsWith('limits.') || !error.message.startsWith('unknown key')) return error;
  return { ...error, message: `${error.message}; operations: ${OPERATION_NAMES.join(', ')}` };
}

/**
 * The fields the checks across fields read, taken from the raw document where they have the right
 * type (undefined otherwise), so that they run, and report, even when the schema failed elsewhere.
 */
interface LooseView {
  readonly services: readonly string[] | undefined;
  readonly registerService: string | undefined;
  readonly registerNone: boolean;
  readonly method: string | undefined;
  readonly keys: unknown;
  readonly keysEnv: unknown;
  readonly adminUrl: unknown;
  readonly limits: readonly string[];
  /** Each limit's raw fields, for the bucket check (one pace per bucket). */
  readonly limitFields: Readonly<Record<string, Record<string, unknown> | undefined>>;
  readonly fairness: unknown;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function looseView(document: unknown): LooseView {
  const root = record(document) ?? {};
  const services = record(root['services']);
  const register = record(root['register']);
  const funding = record(root['funding']) ?? {};
  const service = register?.['service'];
  const method = funding['method'];
  return {
    services: services === undefined ? undefined : Object.keys(services),
    registerService: typeof service === 'string' ? service : undefined,
    registerNone: root['register'] === 'none',
    method: typeof method === 'string' ? method : undefined,
    keys: funding['keys'],
    keysEnv: funding['keys_env'],
    adminUrl: root['admin_url'],
    limits: Object.keys(record(root['limits']) ?? {}),
    limitFields: Object.fromEntries(
      Object.entries(record(root['limits']) ?? {}).map(([op, limit]) => [op, record(limit)]),
    ),
    fairness: root['fairness'],
  };
}

function checkAcrossFields(view: LooseView, source: ScenarioSource, errors: ScenarioError[]): void {
  if (view.services === undefined) return; // the schema reports a missing or mistyped services
  const listed = new Set(view.services);
  if (listed.size === 0) errors.push(errorAt(source, ['services'], 'a target lists at least one service'));
  if (view.registerService !== undefined && !listed.has(view.registerService)) {
    errors.push(
      errorAt(
        source,
        ['register', 'service'],
        `register names '${view.registerService}', which is not listed under services`,
      ),
    );
  }
  const method = view.method;
  if (method === 'faucet' && !listed.has('faucet'))
    errors.push(errorAt(source, ['funding', 'method'], 'faucet funding needs a faucet listed under services'));
  if (method === 'admin-deposit' && view.adminUrl === undefined)
    errors.push(
      errorAt(source, ['funding', 'method'], "admin-deposit funding needs admin_url (an afp serve's api URL)"),
    );
  if ((method === 'admin-deposit' || method === 'faucet' || method === 'command') && view.registerNone)
    errors.push(
      errorAt(
        source,
        ['register'],
        `register: none leaves no account to fund by ${method}: use funding: { method: keys, … }`,
      ),
    );
  for (const op of view.limits) {
    const service = op.slice(0, Math.max(0, op.indexOf('.')));
    if ((OPERATION_NAMES as readonly string[]).includes(op) && !listed.has(service))
      errors.push(errorAt(source, ['limits', op], `a limit for ${op}, but no ${service} is listed under services`));
  }
  checkBuckets(view, source, errors);
  if (listed.has('casino') && view.fairness === undefined)
    errors.push(errorAt(source, ['fairness'], 'a target with a casino names its fairness scheme: afp or deployed'));
}

/** Operations sharing a bucket are one pace: each of them states the bucket's one per_minute. */
function checkBuckets(view: LooseView, source: ScenarioSource, errors: ScenarioError[]): void {
  const paces = new Map<string, { readonly op: string; readonly perMinute: unknown }>();
  for (const [op, fields] of Object.entries(view.limitFields)) {
    const bucket = fields?.['bucket'];
    if (typeof bucket !== 'string') continue;
    const first = paces.get(bucket);
    if (first === undefined) paces.set(bucket, { op, perMinute: fields?.['per_minute'] });
    else if (first.perMinute !== fields?.['per_minute'])
      errors.push(
        errorAt(
          source,
          ['limits', op, 'per_minute'],
          `bucket ${bucket} is one pace: ${op} says ${String(fields?.['per_minute'])} a minute, ${first.op} ${String(first.perMinute)}`,
        ),
      );
  }
}

/** The keys of `keys` funding, from the file or the environment; never quoted in an error. */
function fundingKeys(
  view: LooseView,
  source: ScenarioSource,
  env: Readonly<Record<string, string | undefined>>,
  errors: ScenarioError[],
  fundsNothing: boolean,
): string[] {
  if (view.method !== 'keys') return [];
  if ((view.keys === undefined) === (view.keysEnv === undefined)) {
    errors.push(
      errorAt(
        source,
        ['funding'],
        'keys funding has either keys (a list) or keys_env (an environment variable), not both and not neither',
      ),
    );
    return [];
  }
  if (Array.isArray(view.keys)) return view.keys.filter((key): key is string => typeof key === 'string');
  if (typeof view.keysEnv !== 'string' || !ENV_NAME_PATTERN.test(view.keysEnv)) return []; // the schema reports it
  const name = view.keysEnv;
  const keys = (env[name] ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  if (keys.length === 0) {
    if (fundsNothing) return [];
    errors.push(
      errorAt(
        source,
        ['funding', 'keys_env'],
        `environment variable ${name} is not set or holds no key (comma-separated API keys)`,
      ),
    );
    return [];
  }
  if (keys.length > TARGET_LIMITS.keys)
    errors.push(
      errorAt(
        source,
        ['funding', 'keys_env'],
        `environment variable ${name} holds ${keys.length} keys; at most ${TARGET_LIMITS.keys}`,
      ),
    );
  keys.forEach((key, position) => {
    if (key.length > TARGET_LIMITS.keyLength || !KEY_PATTERN.test(key)) {
      errors.push(
        errorAt(
          source,
          ['funding', 'keys_env'],
          `environment variable ${name}: key ${position + 1} of ${keys.length} is not a key (1 to ${TARGET_LIMITS.keyLength} characters, no spaces or commas)`,
        ),
      );
    }
  });
  return keys;
}

function buildTarget(file: TargetFile, keys: readonly string[], fileName: string, fundsNothing: boolean): Target {
  const services: Partial<Record<ServiceName, TargetService>> = {};
  for (const [name, service] of Object.entries(file.services) as [
    ServiceName,
    { url: string; dialect: TargetService['dialect'] } | undefined,
  ][]) {
    if (service !== undefined) services[name] = { url: normalizeServiceUrl(service.url), dialect: service.dialect };
  }
  const limits: Record<string, PaceLimit> = {};
  for (const [op, limit] of Object.entries(file.limits ?? {})) {
    if (limit !== undefined)
      limits[op] = {
        perMinute: limit.per_minute,
        ...(limit.burst === undefined ? {} : { burst: limit.burst }),
        ...(limit.bucket === undefined ? {} : { bucket: limit.bucket }),
      };
  }
  const adminUrl = file.admin_url === undefined ? null : normalizeServiceUrl(file.admin_url);
  return {
    name: file.name,
    source: fileName,
    services,
    register: file.register === 'none' ? null : { service: file.register.service },
    funding: funding(file.funding, keys, fundsNothing),
    limits,
    fairness: file.fairness ?? 'afp',
    afpServe: adminUrl !== null,
    adminUrl,
  };
}

function funding(value: TargetFile['funding'], keys: readonly string[], fundsNothing: boolean): Funding {
  switch (value.method) {
    case 'admin-deposit':
    case 'faucet':
      return { method: value.method };
    case 'keys':
      assert(
        keys.length > 0 || fundsNothing,
        'keys funding reaches the Target with a key, unless the command was given one',
      );
      return { method: 'keys', keys };
    case 'command':
      return { method: 'command', command: value.command };
  }
}
