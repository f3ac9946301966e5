/**
 * What afp serve serves: the settings resolved from its flags, completed by a --scenario file
 * (seed, start, platform overrides, fault windows, closures, trading shocks) and by an existing
 * --data log's stored settings, with the one-line note it prints about them; and the settings a
 * --data log stores. Its own file: serve.ts runs the stand-in; this file decides its settings.
 */
import { readTextFile } from '../core/text-file.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { FaultWindow } from '../platform/platform.ts';
import type { GameClosure } from '../services/casino/closure-schedule.ts';
import type { TradingSchedule } from '../services/trading/trading-record.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { MAX_SCENARIO_BYTES } from '../scenario/scenario-size.ts';
import {
  scenarioClosures,
  scenarioFaultWindows,
  scenarioPlatformConfig,
  scenarioTrading,
} from '../scenario/scenario-platform.ts';
import type { LogSettings } from '../server/command-log.ts';
import type { DeployedCasinoRules } from '../services/casino/deployed/deployed-casino-rules.ts';
import type { ClockMode } from '../server/serve-clock.ts';
import type { ServeFlags } from './serve-flags.ts';

export interface ServedSettings {
  readonly seed: string;
  readonly clockMode: ClockMode;
  readonly defects: readonly DefectName[];
  readonly startMs?: number;
  readonly config?: PlatformConfig;
  readonly faults?: readonly FaultWindow[];
  readonly closures?: readonly GameClosure[];
  readonly trading?: TradingSchedule;
}

export type ResolvedSettings = { note?: string; options: ServedSettings } | { error: string };

/**
 * The settings to serve: the flags, completed by --scenario, then (with an existing --data log)
 * by the log's stored settings for every flag left out.
 */
export async function resolveSettings(flags: ServeFlags, stored: LogSettings | null): Promise<ResolvedSettings> {
  const clockMode = stored !== null && flags.clockGiven !== true ? stored.clockMode : flags.clockMode;
  const defects = stored !== null && flags.defects.length === 0 ? stored.defects : flags.defects;
  const startMs = flags.startMs ?? stored?.startMs;
  if (flags.scenario === undefined) {
    const base = {
      seed: flags.seed ?? stored?.seed ?? flags.drawnSeed ?? '1',
      clockMode,
      defects,
      ...(startMs === undefined ? {} : { startMs }),
    };
    return {
      options:
        stored === null
          ? base
          : {
              ...base,
              config: stored.config,
              faults: stored.faults,
              closures: stored.closures,
              trading: stored.trading,
            },
    };
  }
  const scenario = await loadServeScenario(flags.scenario);
  if ('error' in scenario) return scenario;
  const seed = flags.seed ?? (stored === null ? flags.drawnSeed : undefined);
  const settings = scenarioServeSettings(scenario, { clockMode, wallNowMs: Date.now(), seed, startMs });
  const windows = settings.faults.map(
    (fault) =>
      `${fault.service} ${fault.status} ${new Date(fault.fromMs).toISOString()}..${new Date(fault.untilMs).toISOString()}`,
  );
  const wallStart =
    clockMode === 'wall' && startMs === undefined
      ? ` (a wall clock starts now, not at the scenario's ${new Date(scenario.startMs).toISOString()}: use --clock manual for that)`
      : '';
  const closures = settings.closures.map(
    (closure) =>
      `${closure.game} ${new Date(closure.fromMs).toISOString()}..${new Date(closure.untilMs).toISOString()}`,
  );
  const closureText = closures.length > 0 ? `; ${closures.length} casino game closure(s): ${closures.join(', ')}` : '';
  const { shocks, closures: marketClosures } = settings.trading;
  const tradingText =
    shocks.length + marketClosures.length > 0
      ? `; ${shocks.length} trading price shock(s), ${marketClosures.length} market closure(s)`
      : '';
  const { yearMs, graceMs } = settings.config.domains;
  const domainsText =
    yearMs === DEFAULT_CONFIG.domains.yearMs && graceMs === DEFAULT_CONFIG.domains.graceMs
      ? ''
      : `; domain year ${yearMs} ms, grace ${graceMs} ms`;
  const note = `scenario ${scenario.name}${wallStart}: dispute_outcome ${settings.config.escrow.disputeOutcome}; ${windows.length} fault window(s)${windows.length > 0 ? `: ${windows.join(', ')}` : ''}${closureText}${tradingText}${domainsText}`;
  return { note, options: { ...settings, clockMode, defects } };
}

/** The settings with the deployed casino's rules in the platform config (`config.casino.deployedRules`). */
export function withDeployedRules(
  resolved: { note?: string; options: ServedSettings },
  rules: DeployedCasinoRules,
): { note?: string; options: ServedSettings } {
  const config = resolved.options.config ?? DEFAULT_CONFIG;
  return {
    ...resolved,
    options: { ...resolved.options, config: { ...config, casino: { ...config.casino, deployedRules: rules } } },
  };
}

/** The settings a --data log stores (a new log) or must already hold: no start given = now. */
export function logSettingsOf(options: ServedSettings, wallNowMs: number): LogSettings {
  const startMs = options.startMs ?? wallNowMs;
  return {
    seed: options.seed,
    startMs,
    clockMode: options.clockMode,
    wallOffsetMs: options.clockMode === 'wall' ? Math.max(0, startMs - wallNowMs) : 0,
    config: options.config ?? DEFAULT_CONFIG,
    faults: options.faults ?? [],
    closures: options.closures ?? [],
    trading: options.trading ?? { shocks: [], closures: [] },
    defects: options.defects,
  };
}

/** What a scenario sets on a served platform, after the explicit flags. */
export interface ScenarioServeSettings {
  readonly seed: string;
  readonly startMs: number;
  readonly config: PlatformConfig;
  readonly faults: readonly FaultWindow[];
  readonly closures: readonly GameClosure[];
  readonly trading: TradingSchedule;
}

/**
 * The serve settings of a scenario: explicit seed and start win; a manual clock starts at the
 * scenario's start, a wall clock now (`wallNowMs`); fault windows and casino game closures keep
 * their offsets from the served start, as do trading price shocks and market closures, so `afp serve --scenario F --clock manual` has exactly the
 * windows `afp run F` had.
 */
export function scenarioServeSettings(
  scenario: Scenario,
  options: { clockMode: ClockMode; wallNowMs: number; seed?: string | undefined; startMs?: number | undefined },
): ScenarioServeSettings {
  const startMs = options.startMs ?? (options.clockMode === 'manual' ? scenario.startMs : options.wallNowMs);
  return {
    seed: options.seed ?? scenario.seed,
    startMs,
    config: scenarioPlatformConfig(scenario),
    faults: scenarioFaultWindows(scenario, startMs),
    closures: scenarioClosures(scenario, startMs),
    trading: scenarioTrading(scenario, startMs),
  };
}

/** The scenario file, parsed against the agents table; every error formatted with its line. */
export async function loadServeScenario(file: string): Promise<Scenario | { error: string }> {
  const read = await readTextFile(file, MAX_SCENARIO_BYTES);
  if (!read.ok) return { error: `cannot read --scenario ${file}: ${read.reason}` };
  // Loaded only here, once the file is read: the archetypes (and faker), the scenario schema and the
  // YAML parser are not needed by a plain afp serve, nor to refuse a missing file.
  const [{ AGENTS, AGENT_NAMES }, { formatScenarioErrors, parseScenario }] = await Promise.all([
    import('../../agents/index.ts'),
    import('../scenario/scenario.ts'),
  ]);
  const text = read.text;
  const parsed = parseScenario(text, {
    fileName: file,
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  return parsed.ok ? parsed.scenario : { error: `invalid --scenario:\n${formatScenarioErrors(file, parsed.errors)}` };
}
