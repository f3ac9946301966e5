/**
 * What a scenario sets on the platform besides its traffic: the config overrides
 * (`platform.dispute_outcome`, `platform.domain_year`, `platform.domain_grace`), the fault windows, the casino game closures and the trading shocks and market closures at absolute instants. One place, shared by
 * the simulator, `afp run --record` (the record's header) and `afp serve --scenario`, so the
 * three always agree on what a scenario means.
 *
 * Fault windows and closures are offsets from the start in the file; `startMs` anchors them (the scenario's own
 * start unless the caller starts elsewhere, as `afp serve --start` or a wall clock does).
 */
import type { FaultWindow } from '../platform/platform.ts';
import type { GameClosure } from '../services/casino/closure-schedule.ts';
import type { MarketClosure, PriceShock, TradingSchedule } from '../services/trading/trading-record.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import type { Scenario } from './scenario.ts';

export function scenarioPlatformConfig(scenario: Scenario): PlatformConfig {
  const { disputeOutcome: outcome, domainYearMs, domainGraceMs } = scenario.platform;
  if (outcome === undefined && domainYearMs === undefined && domainGraceMs === undefined) return DEFAULT_CONFIG;
  const escrow = outcome === undefined ? DEFAULT_CONFIG.escrow : { ...DEFAULT_CONFIG.escrow, disputeOutcome: outcome };
  const domains = {
    ...DEFAULT_CONFIG.domains,
    ...(domainYearMs === undefined ? {} : { yearMs: domainYearMs }),
    ...(domainGraceMs === undefined ? {} : { graceMs: domainGraceMs }),
  };
  return { ...DEFAULT_CONFIG, escrow, domains };
}

export function scenarioFaultWindows(scenario: Scenario, startMs: number = scenario.startMs): FaultWindow[] {
  return scenario.faults.map((fault) => ({
    service: fault.service,
    fromMs: startMs + fault.fromMs,
    untilMs: startMs + fault.fromMs + fault.forMs,
    status: fault.answer,
  }));
}

export function scenarioClosures(scenario: Scenario, startMs: number = scenario.startMs): GameClosure[] {
  return scenario.casino.closures.map((closure) => ({
    game: closure.game,
    fromMs: startMs + closure.fromMs,
    untilMs: startMs + closure.fromMs + closure.forMs,
  }));
}

/** The trading shocks and market closures at absolute instants. */
export function scenarioTrading(
  scenario: Scenario,
  startMs: number = scenario.startMs,
): { shocks: PriceShock[]; closures: MarketClosure[] } & TradingSchedule {
  return {
    shocks: scenario.trading.shocks.map((shock) => ({
      base: shock.base,
      atMs: startMs + shock.atMs,
      moveBps: shock.moveBps,
    })),
    closures: scenario.trading.closures.map((closure) => ({
      symbol: closure.symbol,
      fromMs: startMs + closure.fromMs,
      untilMs: startMs + closure.fromMs + closure.forMs,
    })),
  };
}
