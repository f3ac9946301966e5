/**
 * The reference model of `afp check`: what faucet and escrow (and, in casino/model-casino*.ts, the casino)
 * must look like after any sequence of requests, written from the wire contract alone. It never
 * imports the services' logic (the model must be able to disagree with them); it takes money
 * helpers and the configured numbers, and the casino part reads the published paytables and
 * replays revealed draws through the games' pure `play` (the rule a client verifies by).
 *
 * State: agents by slot (a run has SLOT_COUNT agent slots; a slot is unregistered until its
 * registration is accepted), their one balance, A/B claim state and B cooldown, referral payables;
 * escrows in creation order with status, amounts, expiry and dispute window; the faucet pool and
 * fee income; the time; a conservative budget of the rate-limit rows (model-limits.ts).
 * Server-chosen values (API keys, addresses, referral codes, escrow ids, tx hashes) are learned
 * from the answers that create them and must then stay the same.
 * Non-goals: predicting those server-chosen values; the public agent list and the referral view.
 */
import { assert } from '../core/assert.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import { createCasinoModel, type CasinoModel } from './casino/casino-state.ts';
import { createDomainsModel, type DomainsModel } from './domains/domains-state.ts';
import { RateBudget } from './model-limits.ts';
import { priceOracle } from './trading/model-prices.ts';
import { createTradingModel, type ModelClosure, type TradingModel } from './trading/trading-state.ts';
import { createWalletModel, type WalletModel } from './wallet/wallet-state.ts';
import type { PriceShock } from '../services/trading/trading-record.ts';
import type { EscrowStatus } from '../services/escrow/escrow-record.ts';

/**
 * Agent slots per run: few, so that commands drawn independently often meet the same agents.
 * Registrations of new agents fill the slots in order (a0 first), so a0 is the first agent
 * registered in every sequence, shrunk or not.
 */
export const SLOT_COUNT = 4;

export type CheckStyle = 'A' | 'B';

export interface ModelAgent {
  readonly slot: number;
  readonly id: string;
  readonly style: CheckStyle;
  readonly apiKey: string;
  readonly address: string;
  readonly referralCode: string;
  readonly referrerSlot: number | null;
  readonly createdAtMs: number;
  balanceMicro: bigint;
  claimedA: boolean;
  claimsB: number;
  /** First instant a style-B claim is accepted; null until a B grant or claim. */
  nextClaimBAtMs: number | null;
  /** Referral shares accrued and not yet swept into the balance. */
  pendingReferralMicro: bigint;
  /** Referral shares earned, per level (index 0 = level 1), every service together. */
  readonly referralEarnedMicro: bigint[];
  /** Referral shares moved into the balance (sweeps and withdrawals). */
  referralWithdrawnMicro: bigint;
}

export interface ModelDispute {
  readonly reason: string;
  readonly evidence: string | null;
  readonly openedBySlot: number;
  readonly openedAtMs: number;
  readonly windowEndsAtMs: number;
  outcome: 'released' | 'refunded' | null;
}

export interface ModelEscrow {
  readonly id: string;
  readonly senderSlot: number;
  readonly receiverSlot: number;
  readonly amountMicro: bigint;
  readonly feeMicro: bigint;
  readonly netMicro: bigint;
  readonly description: string | null;
  readonly conditions: Readonly<Record<string, unknown>> | null;
  readonly referrerSlot: number | null;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  status: EscrowStatus;
  settledAtMs: number | null;
  /** 'unknown' after a settlement by a timer: a hash exists, its value was never shown. */
  txHash: string | 'unknown' | null;
  dispute: ModelDispute | null;
}

/** What this run may do and assert against its target; every `false` is reported with its reason. */
export interface CheckCapabilities {
  /** Style-A mounts reachable (in-process always; live when the target announces them). */
  readonly styleA: boolean;
  /** Time is exact (in-process, or a live server with a manual clock); else within a tolerance. */
  readonly exactTime: boolean;
  /** Advance-time commands can move the target's clock. */
  readonly advance: boolean;
  /** The faucet pool belongs to this run alone, so its balance can be asserted. */
  readonly pool: boolean;
  /** The casino's style-A mount is reachable (in-process always; live when announced). */
  readonly casino: boolean;
  /** Simulated chain deposits can fund agents (in-process only: a live target takes deposits from a chain). */
  readonly deposits: boolean;
  /** The domains rows are reachable (in-process always; live when the target announces the domains mount). */
  readonly domains: boolean;
  /** The trading rows are reachable and time is exact (in-process always; live with a trading mount and a manual clock). */
  readonly trading: boolean;
  /** The wallet rows are reachable, time is exact and chains can be funded (in-process always; live with a wallet mount, a manual clock and POST /_afp/wallet/mint). */
  readonly wallet: boolean;
  /**
   * False where other clients enter this run's tournaments (a property population beside
   * tournament players: a tournament is open to any agent), so entrants cannot be predicted;
   * absent means true.
   */
  readonly tournaments?: boolean;
  /**
   * Requests without a key are counted by the fresh originating address each one names (RunNames
   * .freshIp): in-process, and an afp serve whose GET /_afp/mounts says `forwarded_for: trusted`.
   * False where the target does not say so (a serve without --trust-proxy, any other target): those
   * requests then share this host's address and its per-IP budget with earlier runs and other
   * clients, which the model cannot see, so a 429 to one of them is not a mismatch
   * (model-command.ts `keylessPrediction`). Absent means true.
   */
  readonly freshIps?: boolean;
  /**
   * The wallet's chains start empty for each run (in-process). False on a live serve: an address
   * no run owns (a token's own contract) may hold a solana token account an earlier run opened,
   * which decides the rent in a send's fee; such sends are not drawn there. Absent means true.
   */
  readonly freshChains?: boolean;
}

/** Names that keep runs apart on a shared live server: agent ids and originating IPs. */
export interface RunNames {
  agentId(slot: number): string;
  /** A never-used originating IP, for requests sent without a key. */
  freshIp(): string;
}

/**
 * A window in which the target answers a service's requests with `status` (and `code`, when given):
 * afp serve --scenario's fault windows, and its casino game closures (409 GAME_CLOSED), as
 * GET /_afp/platform lists them.
 */
export interface ModelFault {
  readonly service: string;
  /** A casino game's closure: the game closed (its bets, single or in a batch, are refused 409 GAME_CLOSED). */
  readonly game?: string;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly status: number;
  readonly code?: string;
}

/** A casino game's closure as a ModelFault: its bets inside the window are refused 409 GAME_CLOSED. */
export function closureFault(closure: {
  readonly game: string;
  readonly fromMs: number;
  readonly untilMs: number;
}): ModelFault {
  return {
    service: 'casino',
    game: closure.game,
    fromMs: closure.fromMs,
    untilMs: closure.untilMs,
    status: 409,
    code: 'GAME_CLOSED',
  };
}

/** A run's fault windows and game closures (a simulation's PlatformFacts.outages) as the model's faults. */
export function modelFaults(outages: {
  readonly faults: readonly {
    readonly service: string;
    readonly fromMs: number;
    readonly untilMs: number;
    readonly status: number;
  }[];
  readonly gameClosures: readonly { readonly game: string; readonly fromMs: number; readonly untilMs: number }[];
}): ModelFault[] {
  return [
    ...outages.faults.map(({ service, fromMs, untilMs, status }) => ({ service, fromMs, untilMs, status })),
    ...outages.gameClosures.map(closureFault),
  ];
}

export interface CheckModel {
  nowMs: number;
  /** Commands this run sent (their preconditions held); a check whose runs sent none checked nothing. */
  commandsRun: number;
  readonly config: PlatformConfig;
  readonly capabilities: CheckCapabilities;
  readonly names: RunNames;
  /** Allowed distance between an answered instant and the predicted one (0 when time is exact). */
  readonly timeToleranceMs: number;
  /** The target's fault windows: an answer with a window's status inside it is not judged (model-command.ts expectAnswer). */
  readonly faults: readonly ModelFault[];
  readonly agents: (ModelAgent | undefined)[];
  readonly escrows: ModelEscrow[];
  poolMicro: bigint;
  feeIncomeMicro: bigint;
  readonly budget: RateBudget;
  /** Seeds, bets, tournaments, challenges, withdrawals, deposits (casino/model-casino.ts). */
  readonly casino: CasinoModel;
  /** The run's names: held, expiring, offered (domains/model-domains.ts). */
  readonly domains: DomainsModel;
  /** Orders and netted positions (trading/model-trading.ts). */
  readonly trading: TradingModel;
  /** Wallets, chain balances, transactions and swap orders (wallet/model-wallet.ts). */
  readonly wallet: WalletModel;
}

export interface ModelOptions {
  readonly nowMs: number;
  readonly capabilities: CheckCapabilities;
  readonly names: RunNames;
  readonly timeToleranceMs?: number;
  readonly faults?: readonly ModelFault[];
  readonly config?: PlatformConfig;
  /** The target's trading market closures (absolute instants). */
  readonly marketClosures?: readonly ModelClosure[];
  /** The target's trading seed and price shocks: the model prices the ticks time moves through with them (trading/model-prices.ts). */
  readonly tradingPrices?: { readonly seed: string; readonly shocks: readonly PriceShock[] };
}

export function createModel(options: ModelOptions): CheckModel {
  const config = options.config ?? DEFAULT_CONFIG;
  return {
    nowMs: options.nowMs,
    commandsRun: 0,
    config,
    capabilities: options.capabilities,
    names: options.names,
    timeToleranceMs: options.timeToleranceMs ?? 0,
    faults: options.faults ?? [],
    agents: Array.from({ length: SLOT_COUNT }, () => undefined),
    escrows: [],
    poolMicro: config.faucet.poolFundingMicro,
    feeIncomeMicro: 0n,
    budget: new RateBudget(config.limits),
    casino: createCasinoModel(),
    domains: createDomainsModel(),
    trading: createTradingModel(
      options.marketClosures ?? [],
      options.tradingPrices === undefined ? null : priceOracle({ ...options.tradingPrices, config: config.trading }),
    ),
    wallet: createWalletModel(),
  };
}

export function agentAt(model: Readonly<CheckModel>, slot: number): ModelAgent | undefined {
  return model.agents[slot];
}

/** The agent in `slot`; a command's precondition guarantees it is registered. */
export function requireAgent(model: Readonly<CheckModel>, slot: number): ModelAgent {
  const agent = model.agents[slot];
  assert(agent !== undefined, `command precondition: a${slot} is registered`);
  return agent;
}

/** The slot a registration of a new agent takes: the lowest unregistered one. */
export function nextFreeSlot(model: Readonly<CheckModel>): number | undefined {
  for (let slot = 0; slot < SLOT_COUNT; slot++) if (model.agents[slot] === undefined) return slot;
  return undefined;
}

export function registeredSlots(model: Readonly<CheckModel>): number[] {
  const slots: number[] = [];
  for (let slot = 0; slot < SLOT_COUNT; slot++) if (model.agents[slot] !== undefined) slots.push(slot);
  return slots;
}

/** How a request names an agent: by id, by 0x address (as issued or upper-cased), or by referral code. */
export type ReferenceVia = 'id' | 'address' | 'ADDRESS' | 'code';

export interface AgentRef {
  readonly slot: number;
  readonly via: ReferenceVia;
}

/** The text a request sends for `ref`; an unregistered slot is named by the id it would have. */
export function referenceText(model: Readonly<CheckModel>, ref: AgentRef): string {
  const agent = model.agents[ref.slot];
  if (agent === undefined) return model.names.agentId(ref.slot);
  switch (ref.via) {
    case 'id':
      return agent.id;
    case 'address':
      return agent.address;
    case 'ADDRESS':
      return `0x${agent.address.slice(2).toUpperCase()}`;
    case 'code':
      return agent.referralCode;
  }
}

export function describeRef(ref: AgentRef): string {
  return ref.via === 'id' ? `a${ref.slot}` : `a${ref.slot} by ${ref.via}`;
}

/** An escrow id no afp escrow has (afp issues `esc_` + hex), valid in form so it reaches the lookup. */
export const UNKNOWN_ESCROW_ID = 'esc_nonexistent_0000';

/** Which escrow a command means: the k-th created (modulo the count, so shrinking keeps it valid), or none. */
export type EscrowRef = { readonly index: number } | 'unknown';

export function resolveEscrow(model: Readonly<CheckModel>, ref: EscrowRef): ModelEscrow | undefined {
  if (ref === 'unknown' || model.escrows.length === 0) return undefined;
  return model.escrows[ref.index % model.escrows.length];
}

export function escrowIdOf(model: Readonly<CheckModel>, ref: EscrowRef): string {
  return resolveEscrow(model, ref)?.id ?? UNKNOWN_ESCROW_ID;
}

export function describeEscrowRef(ref: EscrowRef): string {
  return ref === 'unknown' ? 'unknown escrow' : `escrow#${ref.index}`;
}
