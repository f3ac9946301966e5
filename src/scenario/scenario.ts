/**
 * Scenario files: YAML text in, a validated `Scenario` out, or every error at once.
 *
 * A scenario composes agent populations (archetypes from the agents/ registry, each validating
 * its own `params`), fault windows, invariants to check and reports to write (docs/design.md).
 * Invariants: validation is strict (unknown keys are errors at every level, params included
 * through the archetype's strict schema); every error carries its data path and, where the YAML
 * says, its line; errors come sorted by line, then path, so the same file always prints the same
 * list. Defaults are applied here, in one place. The shape is scenario-schema.ts; this file adds
 * what one schema cannot see: the agent registry, checks spanning several fields, and the
 * semantic checks of scenario-check.ts (settings that together cannot do what they say).
 */
import type * as z from 'zod';
import { assert } from '../core/assert.ts';
import { parseDecimal, parseNumber, usdc, type Micro } from '../core/money.ts';
import type { GameId } from '../services/casino/games/game.ts';
import { isFailure } from '../core/errors.ts';
import type { WalletChain } from '../services/wallet/keys/wallet-keys.ts';
import { assetByAddress, nativeAsset, parseAmount } from '../services/wallet/wallet-assets.ts';
import { formatDuration, parseDuration } from './duration.ts';
import {
  DEFAULT_START,
  INVARIANT_NAMES,
  SCENARIO_LIMITS,
  scenarioFileSchema,
  type InvariantName,
  type ScenarioFile,
} from './scenario-schema.ts';
import { REPORT_NAMES, type ReportName } from '../report/report-names.ts';
import { checkScenarioSemantics } from './scenario-check.ts';
import { pathText, readScenarioSource, type ScenarioSource } from './scenario-source.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { LoadSection } from './load-schema.ts';
import { MAX_SCENARIO_CHARS } from './scenario-size.ts';
import { isWalletChain } from '../services/wallet/keys/wallet-chain.ts';

export type { InvariantName } from './scenario-schema.ts';

export interface Population {
  readonly agent: string;
  readonly count: number;
  /** Archetype indexes skipped before this population's first agent (agent/agent-numbering.ts); 0 when absent. */
  readonly first?: number;
  readonly tier: 'free' | 'pro' | 'enterprise';
  readonly style: 'A' | 'B' | 'mixed';
  /** The archetype schema's output (durations already in ms, defaults applied). */
  readonly params: Readonly<Record<string, unknown>>;
}

export interface ScenarioFault {
  readonly service: ServiceName;
  readonly fromMs: number;
  readonly forMs: number;
  readonly answer: 500 | 503;
}

/** A window in which `game` answers 409 GAME_CLOSED: [startMs + fromMs, startMs + fromMs + forMs). */
export interface ScenarioClosure {
  readonly game: GameId;
  readonly fromMs: number;
  readonly forMs: number;
}

export interface ScenarioCasino {
  /** Credited to every agent at registration as a simulated Base deposit (null: none). */
  readonly startingDepositMicro: Micro | null;
  readonly closures: readonly ScenarioClosure[];
}

/** Funds minted at every wallet an agent creates (the harness does it: src/sim/simulation.ts). */
export interface ScenarioWallet {
  readonly startingFunds: readonly {
    readonly chain: WalletChain;
    readonly token: string | null;
    readonly amount: string;
  }[];
}

/** A scenario's trading events, offsets from the start: price shocks and market closures. */
export interface ScenarioTrading {
  readonly shocks: readonly { readonly base: string; readonly atMs: number; readonly moveBps: number }[];
  readonly closures: readonly { readonly symbol: string; readonly fromMs: number; readonly forMs: number }[];
}

export interface Scenario {
  readonly name: string;
  readonly seed: string;
  readonly startMs: number;
  readonly durationMs: number;
  readonly populations: readonly Population[];
  readonly faults: readonly ScenarioFault[];
  readonly invariants: readonly InvariantName[];
  readonly reports: readonly ReportName[];
  readonly platform: {
    readonly disputeOutcome?: 'refund' | 'release';
    readonly domainYearMs?: number;
    readonly domainGraceMs?: number;
  };
  readonly casino: ScenarioCasino;
  readonly trading: ScenarioTrading;
  readonly wallet: ScenarioWallet;
  readonly limits: { readonly maxAgents: number; readonly maxRequests: number; readonly maxEvents: number };
  /** The `load:` section as written (src/scenario/load-schema.ts), for `afp load` and `afp export k6`; null when absent. */
  readonly load: LoadSection | null;
  /** How long after the end every hold must be settled (src/sim/liveness.ts); null: no liveness phase. */
  readonly livenessMs: number | null;
}

export interface ScenarioError {
  readonly path: string;
  readonly message: string;
  readonly line?: number;
}

export type ScenarioResult = { ok: true; scenario: Scenario } | { ok: false; errors: readonly ScenarioError[] };

export interface ParseScenarioOptions {
  readonly fileName: string;
  /** The archetype's params schema, or undefined when no archetype has that name. */
  readonly agentParams: (agent: string) => z.ZodType | undefined;
  /** Names listed when a population names an unknown agent (the registry's names). */
  readonly knownAgents?: readonly string[];
}

export const DEFAULT_SEED = '1';
export { MAX_SCENARIO_BYTES, MAX_SCENARIO_CHARS } from './scenario-size.ts';

export function parseScenario(text: string, options: ParseScenarioOptions): ScenarioResult {
  if (text.length > MAX_SCENARIO_CHARS) {
    return {
      ok: false,
      errors: [
        {
          path: '',
          message: `a scenario file is at most ${MAX_SCENARIO_CHARS} characters (this one has ${text.length})`,
        },
      ],
    };
  }
  const source = readScenarioSource(text);
  if (source.syntaxErrors.length > 0) return { ok: false, errors: sortErrors(source.syntaxErrors) };
  const errors: ScenarioError[] = [...source.duplicateKeys];
  const file = scenarioFileSchema.safeParse(source.value);
  if (!file.success) errors.push(...issueErrors(file.error.issues, [], source));
  const params = checkPopulationParams(source, options, errors);
  checkAcrossFields(source, errors);
  checkSemantics(source, params, errors);
  if (!file.success || errors.length > 0) {
    assert(errors.length > 0, 'a failed scenario parse reports at least one error');
    return { ok: false, errors: sortErrors(errors) };
  }
  return { ok: true, scenario: buildScenario(file.data, params) };
}

/** One line per error: `file:line path: message` (`file path: message` when no line is known). */
export function formatScenarioErrors(fileName: string, errors: readonly ScenarioError[]): string {
  return errors
    .map((error) => {
      const where = error.line === undefined ? fileName : `${fileName}:${error.line}`;
      return error.path === '' ? `${where}: ${error.message}` : `${where} ${error.path}: ${error.message}`;
    })
    .join('\n');
}

export function sortErrors(errors: readonly ScenarioError[]): ScenarioError[] {
  const lineKey = (error: ScenarioError): number => error.line ?? Number.MAX_SAFE_INTEGER;
  return [...errors].sort(
    (a, b) => lineKey(a) - lineKey(b) || compareText(a.path, b.path) || compareText(a.message, b.message),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function errorAt(source: ScenarioSource, path: readonly PropertyKey[], message: string): ScenarioError {
  const line = source.lineOf(path);
  return line === undefined ? { path: pathText(path), message } : { path: pathText(path), message, line };
}

/** Zod issues as scenario errors: unknown keys one per key at the key's line, missing keys named. */
export function issueErrors(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[],
  source: ScenarioSource,
): ScenarioError[] {
  const errors: ScenarioError[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        const line = source.keyLineOf(keyPath);
        const message = `unknown key '${key}'`;
        errors.push(
          line === undefined ? { path: pathText(keyPath), message } : { path: pathText(keyPath), message, line },
        );
      }
      continue;
    }
    const missing = issue.code === 'invalid_type' && isMissing(source.value, path);
    errors.push(errorAt(source, path, missing ? `required key '${String(path.at(-1))}' is missing` : issue.message));
  }
  return errors;
}

function isMissing(root: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let parent: unknown = root;
  for (const segment of path.slice(0, -1)) parent = childOf(parent, segment);
  const record = asRecord(parent);
  return record !== undefined && !Array.isArray(parent) && !Object.hasOwn(record, path.at(-1) as PropertyKey);
}

function childOf(value: unknown, segment: PropertyKey): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<PropertyKey, unknown>)[segment];
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Validates each population's params with its archetype's schema; returns the outputs by index. */
function checkPopulationParams(
  source: ScenarioSource,
  options: ParseScenarioOptions,
  errors: ScenarioError[],
): Record<string, unknown>[] {
  const outputs: Record<string, unknown>[] = [];
  const populations = childOf(source.value, 'populations');
  if (!Array.isArray(populations)) return outputs;
  populations.forEach((item: unknown, position) => {
    const population = asRecord(item);
    const agent = population?.agent;
    if (population === undefined || typeof agent !== 'string') return;
    const schema = options.agentParams(agent);
    if (schema === undefined) {
      const known =
        options.knownAgents === undefined ? '' : `; known agents: ${[...options.knownAgents].sort().join(', ')}`;
      errors.push(errorAt(source, ['populations', position, 'agent'], `unknown agent '${agent}'${known}`));
      return;
    }
    const raw = population.params ?? {};
    if (asRecord(raw) === undefined) return; // the file schema already reports the wrong type
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      errors.push(...issueErrors(parsed.error.issues, ['populations', position, 'params'], source));
      return;
    }
    const output = asRecord(parsed.data);
    assert(output !== undefined, `the params schema of agent '${agent}' produces an object`);
    outputs[position] = output;
  });
  return outputs;
}

/**
 * The semantic checks (scenario-check.ts) on the populations as written, even when other parts of
 * the file are wrong, so every error is reported at once: a population whose params did not parse
 * still counts as a peer; a count that is not a whole number above 0 counts as none.
 */
function checkSemantics(
  source: ScenarioSource,
  params: readonly Record<string, unknown>[],
  errors: ScenarioError[],
): void {
  const populations = childOf(source.value, 'populations');
  if (!Array.isArray(populations)) return;
  const checked = populations.map((item: unknown, position) => {
    const population = asRecord(item);
    const count = population?.count;
    return {
      agent: typeof population?.agent === 'string' ? population.agent : '',
      count: typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 0,
      params: params[position],
      written: asRecord(population?.params) ?? {},
    };
  });
  for (const issue of checkScenarioSemantics(checked)) errors.push(errorAt(source, issue.path, issue.message));
}

/** Checks spanning fields, each run on whatever parts of the file are individually valid. */
function checkAcrossFields(source: ScenarioSource, errors: ScenarioError[]): void {
  checkWindows(source, errors, ['faults'], { start: 'fault', end: 'fault window' });
  checkCasino(source, errors);
  checkTrading(source, errors);
  checkWallet(source, errors);
  checkTotalAgents(source, errors);
  for (const list of ['invariants', 'reports']) {
    const items = childOf(source.value, list);
    if (!Array.isArray(items)) continue;
    items.forEach((item: unknown, position) => {
      if (items.indexOf(item) !== position)
        errors.push(errorAt(source, [list, position], `'${String(item)}' is listed twice`));
    });
  }
}

function durationOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = parseDuration(value);
  return typeof parsed === 'number' ? parsed : undefined;
}

/**
 * Every window of a list (faults, casino and trading closures) lies inside the run: one that starts
 * at or after its end would do nothing, one that ends after it would be cut short, and liveness
 * (sim/liveness.ts) counts on every window being over when the run ends. Each names what it is.
 */
function checkWindows(
  source: ScenarioSource,
  errors: ScenarioError[],
  path: readonly string[],
  names: { readonly start: string; readonly end: string },
): void {
  const runMs = durationOf(childOf(source.value, 'duration'));
  const windows = path.reduce<unknown>((value, key) => childOf(value, key), source.value);
  if (runMs === undefined || !Array.isArray(windows)) return;
  const run = formatDuration(runMs);
  windows.forEach((window: unknown, position) => {
    const fromMs = durationOf(childOf(window, 'from'));
    const forMs = durationOf(childOf(window, 'for'));
    if (fromMs !== undefined && fromMs >= runMs) {
      errors.push(
        errorAt(
          source,
          [...path, position, 'from'],
          `${names.start} starts at ${formatDuration(fromMs)}, not inside the run (duration ${run})`,
        ),
      );
    } else if (fromMs !== undefined && forMs !== undefined && fromMs + forMs > runMs) {
      errors.push(
        errorAt(
          source,
          [...path, position, 'for'],
          `${names.end} ends at ${formatDuration(fromMs + forMs)}, after the run ends (duration ${run})`,
        ),
      );
    }
  });
}

/** Every price shock falls inside the run (one at or after its end would never happen); closures as faults. */
function checkTrading(source: ScenarioSource, errors: ScenarioError[]): void {
  checkWindows(source, errors, ['trading', 'closures'], { start: 'closure', end: 'closure' });
  const runMs = durationOf(childOf(source.value, 'duration'));
  const shocks = childOf(childOf(source.value, 'trading'), 'shocks');
  if (runMs === undefined || !Array.isArray(shocks)) return;
  shocks.forEach((shock: unknown, position) => {
    const atMs = durationOf(childOf(shock, 'at'));
    if (atMs !== undefined && atMs >= runMs)
      errors.push(
        errorAt(
          source,
          ['trading', 'shocks', position, 'at'],
          `shock at ${formatDuration(atMs)}, not inside the run (duration ${formatDuration(runMs)})`,
        ),
      );
  });
}

/** A starting deposit as micro-USDC, or null when absent or unreadable (the schema reports those). */
function depositMicro(value: unknown): Micro | null {
  const parsed =
    typeof value === 'number' ? parseNumber(value) : typeof value === 'string' ? parseDecimal(value) : null;
  return typeof parsed === 'bigint' ? parsed : null;
}

/** The deposit is a positive amount within its bound; every closure lies inside the run. */
function checkCasino(source: ScenarioSource, errors: ScenarioError[]): void {
  const casino = childOf(source.value, 'casino');
  const deposit = childOf(casino, 'starting_deposit');
  const micro = depositMicro(deposit);
  const maxMicro = usdc(SCENARIO_LIMITS.startingDepositUsdcMax);
  if (deposit !== undefined && micro !== null && (micro <= 0n || micro > maxMicro)) {
    errors.push(
      errorAt(
        source,
        ['casino', 'starting_deposit'],
        `starting_deposit must be above 0 and at most ${SCENARIO_LIMITS.startingDepositUsdcMax} USDC with at most 6 decimals`,
      ),
    );
  } else if (typeof deposit === 'number' && micro === null) {
    errors.push(errorAt(source, ['casino', 'starting_deposit'], 'starting_deposit must have at most 6 decimals'));
  }
  checkWindows(source, errors, ['casino', 'closures'], { start: 'closure', end: 'closure' });
}

/** Each starting fund names an asset of its chain (a contract address, not a symbol) and an amount it can hold. */
function checkWallet(source: ScenarioSource, errors: ScenarioError[]): void {
  const funds = childOf(childOf(source.value, 'wallet'), 'starting_funds');
  if (!Array.isArray(funds)) return;
  funds.forEach((fund: unknown, position) => {
    const chain = childOf(fund, 'chain');
    const token = childOf(fund, 'token');
    if (typeof chain !== 'string' || !isWalletChain(chain) || (token !== undefined && typeof token !== 'string'))
      return;
    const asset = token === undefined ? nativeAsset(chain) : assetByAddress(chain, token, 'token');
    if (isFailure(asset)) {
      errors.push(errorAt(source, ['wallet', 'starting_funds', position, 'token'], asset.message));
      return;
    }
    const amount = childOf(fund, 'amount');
    if (typeof amount === 'string' && isFailure(parseAmount(amount, asset.decimals, 'amount'))) {
      errors.push(
        errorAt(
          source,
          ['wallet', 'starting_funds', position, 'amount'],
          `amount must be above 0 with at most ${asset.decimals} decimals (${asset.symbol} on ${chain})`,
        ),
      );
    }
  });
}

function checkTotalAgents(source: ScenarioSource, errors: ScenarioError[]): void {
  const populations = childOf(source.value, 'populations');
  if (!Array.isArray(populations)) return;
  let total = 0;
  for (const population of populations) {
    const count = childOf(population, 'count');
    if (typeof count === 'number' && Number.isSafeInteger(count) && count > 0) total += count;
  }
  const declared = childOf(childOf(source.value, 'limits'), 'max_agents');
  const validDeclared = typeof declared === 'number' && Number.isSafeInteger(declared) && declared >= 1;
  const maxAgents = validDeclared ? declared : SCENARIO_LIMITS.maxAgents.default;
  if (total > maxAgents) {
    const which = validDeclared ? 'limits.max_agents' : 'the default limit';
    errors.push(errorAt(source, ['populations'], `${total} agents in all, more than ${which} of ${maxAgents}`));
  }
}

function buildScenario(file: ScenarioFile, params: readonly Record<string, unknown>[]): Scenario {
  const outcome = file.platform?.dispute_outcome;
  return {
    name: file.name,
    seed: file.seed === undefined ? DEFAULT_SEED : String(file.seed),
    startMs: file.start ?? Date.parse(DEFAULT_START),
    durationMs: file.duration,
    populations: file.populations.map((population, position) => ({
      agent: population.agent,
      count: population.count,
      ...(population.first === undefined || population.first === 0 ? {} : { first: population.first }),
      tier: population.tier ?? 'free',
      style: population.style ?? 'B',
      params: params[position] ?? {},
    })),
    faults: (file.faults ?? []).map((fault) => ({
      service: fault.service,
      fromMs: fault.from,
      forMs: fault.for,
      answer: fault.answer ?? 503,
    })),
    invariants: file.invariants ?? [...INVARIANT_NAMES],
    reports: file.reports ?? [...REPORT_NAMES],
    platform: {
      ...(outcome === undefined ? {} : { disputeOutcome: outcome }),
      ...(file.platform?.domain_year === undefined ? {} : { domainYearMs: file.platform.domain_year }),
      ...(file.platform?.domain_grace === undefined ? {} : { domainGraceMs: file.platform.domain_grace }),
    },
    casino: {
      startingDepositMicro:
        file.casino?.starting_deposit === undefined ? null : depositMicro(file.casino.starting_deposit),
      closures: (file.casino?.closures ?? []).map((closure) => ({
        game: closure.game,
        fromMs: closure.from,
        forMs: closure.for,
      })),
    },
    trading: {
      shocks: (file.trading?.shocks ?? []).map((shock) => ({
        base: shock.market,
        atMs: shock.at,
        moveBps: shock.move_bps,
      })),
      closures: (file.trading?.closures ?? []).map((closure) => ({
        symbol: closure.market,
        fromMs: closure.from,
        forMs: closure.for,
      })),
    },
    wallet: {
      startingFunds: (file.wallet?.starting_funds ?? []).map((fund) => ({
        chain: fund.chain,
        token: fund.token ?? null,
        amount: fund.amount,
      })),
    },
    load: file.load ?? null,
    livenessMs: file.liveness ?? null,
    limits: {
      maxAgents: file.limits?.max_agents ?? SCENARIO_LIMITS.maxAgents.default,
      maxRequests: file.limits?.max_requests ?? SCENARIO_LIMITS.maxRequests.default,
      maxEvents: file.limits?.max_events ?? SCENARIO_LIMITS.maxEvents.default,
    },
  };
}
