/**
 * The shapes a command log's stored settings must have (log-meta.ts readSettings): a bigint as
 * its `{ $bigint }` tag, fault windows, game closures, trading shocks and market closures; and
 * their texts where a stored setting differs from the one asked for. Why a
 * file of its own: the log reads and writes entries; what a well-formed stored setting is, is one
 * concept, checked the same wherever settings are read back.
 */
import { SERVICE_NAMES, type FaultWindow } from '../platform/platform.ts';
import type { GameClosure } from '../services/casino/closure-schedule.ts';
import { GAME_IDS } from '../services/casino/games/game.ts';
import {
  TRADING_LIMITS,
  type MarketClosure,
  type PriceShock,
  type TradingSchedule,
} from '../services/trading/trading-record.ts';

export function isBigintTag(value: unknown): value is { $bigint: string } {
  if (typeof value !== 'object' || value === null) return false;
  const tag = (value as { $bigint?: unknown }).$bigint;
  return typeof tag === 'string' && /^-?\d+$/.test(tag) && Object.keys(value).length === 1;
}

export function isFaultWindow(value: unknown): value is FaultWindow {
  if (typeof value !== 'object' || value === null) return false;
  const fault = value as Record<string, unknown>;
  return (
    (SERVICE_NAMES as readonly unknown[]).includes(fault['service']) &&
    Number.isSafeInteger(fault['fromMs']) &&
    Number.isSafeInteger(fault['untilMs']) &&
    (fault['status'] === 500 || fault['status'] === 503)
  );
}

export function isGameClosure(value: unknown): value is GameClosure {
  if (typeof value !== 'object' || value === null) return false;
  const closure = value as Record<string, unknown>;
  return (
    (GAME_IDS as readonly unknown[]).includes(closure['game']) &&
    Number.isSafeInteger(closure['fromMs']) &&
    Number.isSafeInteger(closure['untilMs']) &&
    (closure['fromMs'] as number) < (closure['untilMs'] as number)
  );
}

export function isTradingSchedule(value: unknown): value is TradingSchedule {
  if (typeof value !== 'object' || value === null) return false;
  const { shocks, closures } = value as Record<string, unknown>;
  if (
    !Array.isArray(shocks) ||
    shocks.length > TRADING_LIMITS.shocksMax ||
    !Array.isArray(closures) ||
    closures.length > TRADING_LIMITS.closuresMax
  )
    return false;
  return shocks.every(isPriceShock) && closures.every(isMarketClosure);
}

export function isPriceShock(value: unknown): value is PriceShock {
  if (typeof value !== 'object' || value === null) return false;
  const shock = value as Record<string, unknown>;
  const move = shock['moveBps'];
  return (
    typeof shock['base'] === 'string' &&
    Number.isSafeInteger(shock['atMs']) &&
    typeof move === 'number' &&
    Number.isSafeInteger(move) &&
    move > -10_000 &&
    move <= 100_000
  );
}

export function isMarketClosure(value: unknown): value is MarketClosure {
  if (typeof value !== 'object' || value === null) return false;
  const closure = value as Record<string, unknown>;
  return (
    typeof closure['symbol'] === 'string' &&
    Number.isSafeInteger(closure['fromMs']) &&
    Number.isSafeInteger(closure['untilMs']) &&
    (closure['fromMs'] as number) < (closure['untilMs'] as number)
  );
}

export function shocksText(shocks: readonly PriceShock[]): string {
  if (shocks.length === 0) return 'none';
  return shocks
    .map((shock) => `${shock.base} ${shock.moveBps} bps at ${new Date(shock.atMs).toISOString()}`)
    .join(', ');
}

export function marketClosuresText(closures: readonly MarketClosure[]): string {
  if (closures.length === 0) return 'none';
  return closures
    .map(
      (closure) =>
        `${closure.symbol} ${new Date(closure.fromMs).toISOString()}..${new Date(closure.untilMs).toISOString()}`,
    )
    .join(', ');
}

export function closuresText(closures: readonly GameClosure[]): string {
  if (closures.length === 0) return 'none';
  return closures
    .map(
      (closure) =>
        `${closure.game} ${new Date(closure.fromMs).toISOString()}..${new Date(closure.untilMs).toISOString()}`,
    )
    .join(', ');
}

export function faultsText(faults: readonly FaultWindow[]): string {
  if (faults.length === 0) return 'none';
  return faults
    .map(
      (fault) =>
        `${fault.service} ${fault.status} ${new Date(fault.fromMs).toISOString()}..${new Date(fault.untilMs).toISOString()}`,
    )
    .join(', ');
}

/** Paths where two configs differ (values and layout), or only layout with `shapeOnly`; at most 10. */
export function configDifferences(
  stored: unknown,
  wanted: unknown,
  path: string,
  options: { shapeOnly?: boolean } = {},
  found: string[] = [],
): string[] {
  const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
  if (found.length >= 10) return found;
  if (!isRecord(stored) || !isRecord(wanted)) {
    if (isRecord(stored) !== isRecord(wanted) || (options.shapeOnly !== true && stored !== wanted)) found.push(path);
    return found;
  }
  const keys = new Set([...Object.keys(stored), ...Object.keys(wanted)]);
  for (const key of [...keys].sort()) {
    if (!Object.hasOwn(stored, key) || !Object.hasOwn(wanted, key)) found.push(`${path}.${key}`);
    else configDifferences(stored[key], wanted[key], `${path}.${key}`, options, found);
  }
  return found;
}
