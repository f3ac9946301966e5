/**
 * A command log's settings at rest: the meta table's rows (seed, start, clock, config, faults,
 * closures, trading, defects), sealed by the SHA-256 of the other rows (`meta_sha256`), read back
 * and checked, and compared with the settings a restart asks for. Why a file of its own: what the
 * platform was built from is one record, written once when a log is made and read on every start;
 * the log's entries (log-entries.ts) and its transactions (command-log.ts) never touch it.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { FaultWindow } from '../platform/platform.ts';
import { CLOSURES_MAX, type GameClosure } from '../services/casino/closure-schedule.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { TradingSchedule } from '../services/trading/trading-record.ts';
import type { ClockMode } from './serve-clock.ts';
import {
  closuresText,
  configDifferences,
  faultsText,
  isBigintTag,
  isFaultWindow,
  isGameClosure,
  isTradingSchedule,
  marketClosuresText,
  shocksText,
} from './stored-settings.ts';

const NO_TRADING: TradingSchedule = { shocks: [], closures: [] };

/** What the platform was built from; a restart must build the same (serve compares them). */
export interface LogSettings {
  readonly seed: string;
  readonly startMs: number;
  readonly clockMode: ClockMode;
  /** Wall mode: how far the served clock ran ahead of the wall clock when the log was created. */
  readonly wallOffsetMs: number;
  readonly config: PlatformConfig;
  readonly faults: readonly FaultWindow[];
  /** Casino game closures; logs written before they existed have none. */
  readonly closures: readonly GameClosure[];
  /** Trading price shocks and market closures; absent (and in logs written before they existed): none. */
  readonly trading?: TradingSchedule;
  readonly defects: readonly DefectName[];
}

/** The meta key of the SHA-256 over the other meta rows. */
export const META_SHA256 = 'meta_sha256';

/** The SHA-256 (hex) of a log's meta rows but `meta_sha256` itself: what the seed, start, config, faults … hash to. */
export function metaSha256(meta: ReadonlyMap<string, string>): string {
  const rows = [...meta].filter(([key]) => key !== META_SHA256).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/** Human-readable differences between the stored settings and the wanted ones. */
export function settingsDifferences(stored: LogSettings, wanted: LogSettings): string[] {
  const differences: string[] = [];
  const differ = (name: string, storedText: string, wantedText: string): void => {
    if (storedText !== wantedText) differences.push(`${name}: the log has ${storedText}, the flags give ${wantedText}`);
  };
  differ('seed', stored.seed, wanted.seed);
  differ('start', new Date(stored.startMs).toISOString(), new Date(wanted.startMs).toISOString());
  differ('clock', stored.clockMode, wanted.clockMode);
  differ('defects', [...stored.defects].sort().join(', ') || 'none', [...wanted.defects].sort().join(', ') || 'none');
  for (const path of configDifferences(stored.config, wanted.config, 'config'))
    differences.push(`${path} differs (--scenario's platform settings)`);
  differ('fault windows', faultsText(stored.faults), faultsText(wanted.faults));
  differ('casino game closures', closuresText(stored.closures), closuresText(wanted.closures));
  differ('trading price shocks', shocksText(stored.trading?.shocks ?? []), shocksText(wanted.trading?.shocks ?? []));
  differ(
    'market closures',
    marketClosuresText(stored.trading?.closures ?? []),
    marketClosuresText(wanted.trading?.closures ?? []),
  );
  return differences;
}

export function encodeSettings(settings: LogSettings): Record<string, string> {
  return {
    seed: settings.seed,
    start_ms: String(settings.startMs),
    clock_mode: settings.clockMode,
    wall_offset_ms: String(settings.wallOffsetMs),
    config: JSON.stringify(settings.config, (_key, value: unknown) =>
      typeof value === 'bigint' ? { $bigint: value.toString() } : value,
    ),
    faults: JSON.stringify(settings.faults),
    closures: JSON.stringify(settings.closures),
    trading: JSON.stringify(settings.trading ?? NO_TRADING),
    defects: JSON.stringify(settings.defects),
  };
}

/** The meta rows. */
/** The meta rows. */
export function readMeta(db: DatabaseSync): Map<string, string> {
  const meta = new Map<string, string>();
  for (const row of db.prepare('SELECT key, value FROM meta').all()) meta.set(String(row['key']), String(row['value']));
  return meta;
}

/** The stored settings, or what is wrong with them. */
export function readSettings(db: DatabaseSync, knownDefects: readonly string[]): LogSettings | string {
  let meta = new Map<string, string>();
  const text = (key: string): string => {
    const value = meta.get(key);
    if (value === undefined) throw new Error(`no ${key}`);
    return value;
  };
  try {
    meta = readMeta(db);
    const sealed = meta.get(META_SHA256);
    if (sealed !== undefined && sealed !== metaSha256(meta))
      return 'its SHA-256 does not match its rows (the seed, start, config or another setting was changed in the file after it was written)';
    const seed = text('seed');
    const startMs = Number(text('start_ms'));
    const wallOffsetMs = Number(text('wall_offset_ms'));
    const clockMode = text('clock_mode');
    const config = JSON.parse(text('config'), (_key, value: unknown) =>
      isBigintTag(value) ? BigInt(value.$bigint) : value,
    ) as unknown;
    const faults = JSON.parse(text('faults')) as unknown;
    const closures = JSON.parse(meta.get('closures') ?? '[]') as unknown;
    const trading = JSON.parse(meta.get('trading') ?? '{"shocks":[],"closures":[]}') as unknown;
    const defects = JSON.parse(text('defects')) as unknown;
    if (!/^(?:0|[1-9]\d{0,15})$/.test(seed)) return `seed '${seed}'`;
    if (!Number.isSafeInteger(startMs) || !Number.isSafeInteger(wallOffsetMs))
      return 'start_ms or wall_offset_ms is not a whole number';
    if (clockMode !== 'wall' && clockMode !== 'manual') return `clock_mode '${clockMode}'`;
    if (configDifferences(DEFAULT_CONFIG, config, 'config', { shapeOnly: true }).length > 0)
      return 'config has another layout (written by another afp version)';
    if (!Array.isArray(faults) || !faults.every(isFaultWindow)) return 'faults';
    if (!Array.isArray(closures) || closures.length > CLOSURES_MAX || !closures.every(isGameClosure)) return 'closures';
    if (!isTradingSchedule(trading)) return 'trading';
    if (!Array.isArray(defects) || !defects.every((name) => typeof name === 'string' && knownDefects.includes(name)))
      return `defects ${JSON.stringify(defects)}`;
    return {
      seed,
      startMs,
      clockMode,
      wallOffsetMs,
      config: config as PlatformConfig,
      faults,
      closures,
      trading,
      defects: defects as DefectName[],
    };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
