/**
 * What a live target says at afp serve's doors, read for `afp check` (live-target.ts): the settings
 * the model must not assume (GET /_afp/platform: dispute outcome, domain year and grace, fault
 * windows, trading seed, shocks and market closures), its clock (GET and POST /_afp/clock) and the
 * wallet's mint (POST /_afp/wallet/mint). Every list read is bounded; an unreachable door ends the
 * check as CheckUnavailable (exit 4).
 */
import { AdminClient, type AdminAnswer, type AdminObject } from '../client/admin-client.ts';
import type { AfpClient } from '../client/client.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import type { PriceShock } from '../services/trading/trading-record.ts';
import type { ModelFault } from './check-model.ts';
import { CheckUnavailable } from './check-unavailable.ts';
import { servedFaults } from './served-faults.ts';
import type { ModelClosure } from './trading/trading-state.ts';

/**
 * What an afp serve was started with that the model must not assume (GET /_afp/platform): its
 * dispute outcome and domain year and grace (the config's defaults where it does not say), and its
 * fault windows (none where it lists none, or is no afp serve).
 */
export function readServedSettings(answer: AdminAnswer<AdminObject>): { config: PlatformConfig; faults: ModelFault[] } {
  const view = answer.ok ? answer.value : {};
  const outcome = view['dispute_outcome'];
  const yearMs = view['domain_year_ms'];
  const graceMs = view['domain_grace_ms'];
  const config: PlatformConfig = {
    ...DEFAULT_CONFIG,
    escrow: {
      ...DEFAULT_CONFIG.escrow,
      ...(outcome === 'refund' || outcome === 'release' ? { disputeOutcome: outcome } : {}),
    },
    domains: {
      ...DEFAULT_CONFIG.domains,
      ...(isPositiveMs(yearMs) ? { yearMs } : {}),
      ...(isPositiveMs(graceMs) ? { graceMs } : {}),
    },
  };
  return { config, faults: servedFaults(view) };
}

const isPositiveMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** The admin doors over the check's own client (its transport, its `api` mount). */
export function doorsOf(client: AfpClient): AdminClient {
  return new AdminClient((request) => client.raw(request));
}

/** POST /_afp/wallet/mint as the wallet commands read it: the status and body, whatever they are. */
export async function mintThrough(
  client: AfpClient,
  body: { chain: string; address: string; amount: string; token?: string },
): Promise<{ status: number; body: unknown }> {
  const answer = await doorsOf(client).walletMint(body);
  if (answer.ok) return { status: 200, body: answer.value };
  if (answer.kind === 'unreachable') throw new CheckUnavailable(answer.message);
  return { status: answer.status, body: answer.body };
}

export interface TradingSettings {
  readonly closures: ModelClosure[];
  /** Why the closures are assumed none, or null when the target listed them. */
  readonly closuresNote: string | null;
  readonly seed: string | null;
  readonly shocks: PriceShock[];
}

/** The target's trading settings (GET /_afp/platform `market_closures`, `seed`, `trading_shocks`). */
export function readTradingSettings(answer: AdminAnswer<AdminObject>): TradingSettings {
  if (!answer.ok && answer.kind === 'unreachable') throw new CheckUnavailable(answer.message);
  const status = answer.ok ? 200 : answer.status;
  const body = (answer.ok ? answer.value : null) as {
    market_closures?: unknown;
    seed?: unknown;
    trading_shocks?: unknown;
  } | null;
  const seed = typeof body?.seed === 'string' ? body.seed : null;
  const shocks = readShocks(body?.trading_shocks);
  const listed = body?.market_closures;
  if (!Array.isArray(listed))
    return {
      closures: [],
      closuresNote: `market closures assumed none: GET /_afp/platform answered ${status} without market_closures`,
      seed,
      shocks: shocks ?? [],
    };
  const closures: ModelClosure[] = [];
  for (const item of listed.slice(0, MARKET_CLOSURES_MAX) as unknown[]) {
    const {
      symbol,
      from_ms: fromMs,
      until_ms: untilMs,
    } = (item ?? {}) as { symbol?: unknown; from_ms?: unknown; until_ms?: unknown };
    if (typeof symbol !== 'string' || typeof fromMs !== 'number' || typeof untilMs !== 'number')
      return {
        closures: [],
        closuresNote: `market closures assumed none: GET /_afp/platform lists a malformed one: ${JSON.stringify(item).slice(0, 120)}`,
        seed,
        shocks: shocks ?? [],
      };
    closures.push({ symbol, fromMs, untilMs });
  }
  // Shocks that do not parse leave the prices unknown: trading is then skipped as without a seed.
  return { closures, closuresNote: null, seed: shocks === null ? null : seed, shocks: shocks ?? [] };
}

function readShocks(listed: unknown): PriceShock[] | null {
  if (listed === undefined) return [];
  if (!Array.isArray(listed)) return null;
  const shocks: PriceShock[] = [];
  for (const item of listed.slice(0, MARKET_CLOSURES_MAX) as unknown[]) {
    const {
      base,
      at_ms: atMs,
      move_bps: moveBps,
    } = (item ?? {}) as { base?: unknown; at_ms?: unknown; move_bps?: unknown };
    if (typeof base !== 'string' || !Number.isSafeInteger(atMs) || !Number.isSafeInteger(moveBps)) return null;
    shocks.push({ base, atMs: atMs as number, moveBps: moveBps as number });
  }
  return shocks;
}
const MARKET_CLOSURES_MAX = 1_000;

export async function readManualClock(client: AfpClient): Promise<number> {
  const answer = await doorsOf(client).clock();
  if (answer.ok) return answer.value.nowMs;
  throw new Error(
    answer.kind === 'unreachable' ? answer.message : `GET /_afp/clock answered ${answer.status} during the check`,
  );
}

export async function moveLiveClock(client: AfpClient, toMs: number): Promise<void> {
  const answer = await doorsOf(client).moveClock({ toMs });
  if (answer.ok && answer.value.nowMs === toMs) return;
  if (!answer.ok && answer.kind === 'unreachable') throw new CheckUnavailable(answer.message);
  const shown = answer.ok
    ? `200 ${JSON.stringify({ now_ms: answer.value.nowMs })}`
    : `${answer.status} ${JSON.stringify(answer.body)}`;
  throw new Error(`POST /_afp/clock {to_ms: ${toMs}} answered ${shown}: the target's clock did not move there`);
}
