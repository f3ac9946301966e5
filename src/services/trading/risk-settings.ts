/**
 * An agent's own trading risk limits (the deployed trading service's `/v1/trade/risk-settings`
 * and `/check-limits`, spec/DEPLOYED.md §5: "leverage default 5, clamped to the agent max 10,
 * settable to 50"; "403 daily_loss_limit_reached"; afp's rules in docs/decisions/deployed-dialect.md "Deployed
 * dialect: trading").
 *
 * Why state of its own: the limits are set once and refuse later orders, so they live in the
 * model (replayed by the `--data` log, carried by checkpoints), not in a route.
 * - `maxLeverage`: the agent's ceiling, 1 to RISK_LEVERAGE_MAX (default DEFAULT_AGENT_LEVERAGE);
 *   an order's leverage is clamped to it and to the market's own maximum.
 * - `dailyLossLimitMicro`: null (none, the default) or the realized loss of one UTC day at which
 *   new positions are refused until the next day.
 * - The realized PnL of the current UTC day: every settlement of a position (a close, a reducing
 *   fill, a liquidation's forfeited margin) adds to it; a new day starts from zero.
 * Limits: one record per agent that ever traded or set a limit (bounded by the agents).
 */
import type { Micro } from '../../core/money.ts';
import { DAY_MS } from '../../core/clock.ts';

export const DEFAULT_AGENT_LEVERAGE = 10;
export const RISK_LEVERAGE_MAX = 50;

export interface RiskSettings {
  readonly maxLeverage: number;
  readonly dailyLossLimitMicro: Micro | null;
}

export interface RiskDay {
  /** UTC midnight of the day counted. */
  readonly dayStartMs: number;
  readonly realizedMicro: Micro;
}

interface RiskRecord {
  settings: RiskSettings;
  dayStartMs: number;
  realizedMicro: Micro;
}

export const DEFAULT_RISK_SETTINGS: RiskSettings = Object.freeze({
  maxLeverage: DEFAULT_AGENT_LEVERAGE,
  dailyLossLimitMicro: null,
});

export class RiskBook {
  private readonly records = new Map<string, RiskRecord>();

  settingsOf(agentId: string): RiskSettings {
    return this.records.get(agentId)?.settings ?? DEFAULT_RISK_SETTINGS;
  }

  set(agentId: string, settings: RiskSettings): RiskSettings {
    const record = this.records.get(agentId);
    if (record === undefined) this.records.set(agentId, { settings, dayStartMs: 0, realizedMicro: 0n });
    else record.settings = settings;
    return settings;
  }

  /** The realized PnL of the UTC day containing `nowMs`. */
  dayOf(agentId: string, nowMs: number): RiskDay {
    const dayStartMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
    const record = this.records.get(agentId);
    return {
      dayStartMs,
      realizedMicro: record !== undefined && record.dayStartMs === dayStartMs ? record.realizedMicro : 0n,
    };
  }

  /** Adds a settlement's realized PnL to its day. */
  realize(agentId: string, pnlMicro: Micro, atMs: number): void {
    const day = this.dayOf(agentId, atMs);
    const record = this.records.get(agentId);
    if (record === undefined)
      this.records.set(agentId, {
        settings: DEFAULT_RISK_SETTINGS,
        dayStartMs: day.dayStartMs,
        realizedMicro: pnlMicro,
      });
    else {
      record.dayStartMs = day.dayStartMs;
      record.realizedMicro = day.realizedMicro + pnlMicro;
    }
  }

  /** Whether the day's realized loss has reached the agent's limit (never without one). */
  lossLimitReached(agentId: string, nowMs: number): boolean {
    const limit = this.settingsOf(agentId).dailyLossLimitMicro;
    return limit !== null && -this.dayOf(agentId, nowMs).realizedMicro >= limit;
  }
}
