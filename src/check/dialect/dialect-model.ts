/**
 * The model of `afp check --target` through a target's dialects: what a few shared accounts must
 * look like after any sequence of afp operations (src/live/operations.ts) sent through a
 * LiveSession. It is the documents' and the deployment's common money rules, written from the
 * wire contract alone: a bet debits its stake and credits its gross return; a refusal moves
 * nothing; an escrow holds its amount at creation and its release pays amount − its fee to the
 * counterparty, once (the fee the creation answer states; where it states none, the release measures
 * it from the counterparty's balance, between nothing and the whole amount); bets on one server seed take consecutive nonces, a new seed
 * starts at 0, and a rotation reveals the seed whose SHA-256 is the seed hash the bets showed.
 *
 * Accounts are opened once per invocation (the target's way) and shared by every run, so a run
 * starts by reading their balances: the model knows each balance from that read on. A dialect
 * that shows amounts rounded (the deployment's 2 dp display fields) has each shown figure compared
 * within its rounding (`roundingMicro`); credits are booked as stake × multiplier
 * (live/bet-credit.ts), never from a display field, and one with digits below the micro (a target
 * keeping doubles) adds a micro to `slackMicro`, cleared by the next balance read (it re-anchors).
 * Non-goals: the documents-only rules (tiers, cooldowns, expiry, disputes, referral): the
 * documents' model (src/check/check-model.ts) checks those on afp serve.
 */
import { assert } from '../../core/assert.ts';
import type { Micro } from '../../core/money.ts';
import type { LiveAccount, LiveSession, SentRequest } from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import type { DialectDomainsModel, DialectTradingModel, DialectWalletModel } from './dialect-model-services.ts';

export interface DialectAccount {
  readonly slot: number;
  readonly agentId: string;
  readonly apiKey: string;
  balanceMicro: Micro;
  /** How far a shown (rounded) figure may have put `balanceMicro` off the target's exact balance. */
  slackMicro: Micro;
  /** The seed the last bet showed and its nonce; null until a bet of this run shows one. */
  seed: { readonly hash: string; readonly nonce: number } | null;
  /** A rotation was answered: the next bet is on a new seed, nonce 0, not `rotatedHash`. */
  rotatedHash: string | null;
}

export type EscrowState = 'held' | 'released';

export interface DialectEscrow {
  readonly id: string;
  readonly creatorSlot: number;
  readonly counterpartySlot: number;
  readonly amountMicro: Micro;
  /**
   * The fee its release takes, as the creation answer stated it; null where it stated none: the
   * release then measures it from the counterparty's balance (never the documents' 1% recited).
   */
  readonly feeMicro: Micro | null;
  state: EscrowState;
}

export interface DialectModel {
  /** Commands this run sent (their preconditions held); a check whose runs sent none checked nothing. */
  commandsRun: number;
  readonly accounts: DialectAccount[];
  readonly escrows: DialectEscrow[];
  /** The rounding of the casino's shown amounts (SHOWN_ROUNDING_MICRO of its dialect). */
  readonly roundingMicro: Micro;
  /** The trading and domains accounts of a service keeping its own (dialect-model-services.ts); null when not opened. */
  readonly trading: DialectTradingModel | null;
  readonly domains: DialectDomainsModel | null;
  /** The check's wallet agent and its two wallets (wallet-commands.ts); null when not opened. */
  readonly wallet: DialectWalletModel | null;
  /**
   * Per game, the minimum bet the target stated in a refusal above what was sent (stated-minimum.ts),
   * and under `escrow.create` the escrow's minimum stated so: one map for the whole invocation (the
   * target's rule does not change between runs), so each bet and escrow goes out at least at it
   * (betAmountFor). Measured, not the documents' 0.01 (0.10 for an escrow) recited.
   */
  readonly minimums: Map<string, Micro>;
  /**
   * Per game, the smallest stake the target placed: a later refusal of a stake at or above it named
   * as the minimum rule with no amount contradicts the target's own answers (dialect-commands.ts
   * learnedMinimum). Shared by the invocation's runs, like `minimums`.
   */
  readonly placedMinimums: Map<string, Micro>;
  /**
   * The most bets a batch holds, as the target stated in a refusal of a larger one
   * (stated-batch-maximum.ts); null until one is stated. Shared by the invocation's runs, like `minimums`.
   */
  readonly batchLimit: { maximum: number | null };
  /**
   * Per game, the Kelly limit the target stated in a refusal of a larger bet and the balance it was
   * stated at (stated-kelly-limit.ts): later bets of the game stake within that share of the balance
   * (stakeFor). Shared by the invocation's runs, like `minimums`. One share per game: the check's
   * choices of one game have one win probability (coin heads or tails, dice over or under 50).
   */
  readonly kellyLimits: Map<string, KellyShare>;
}

/** A Kelly limit a target stated, and the balance before the refused bet (its bankroll). */
export interface KellyShare {
  readonly limitMicro: Micro;
  readonly balanceMicro: Micro;
}

/** What the check learns of a target's own rules from its refusals: one set for a whole invocation. */
export type LearnedRules = Pick<DialectModel, 'minimums' | 'placedMinimums' | 'batchLimit' | 'kellyLimits'>;

export function newLearnedRules(): LearnedRules {
  return { minimums: new Map(), placedMinimums: new Map(), batchLimit: { maximum: null }, kellyLimits: new Map() };
}

/** What the commands talk to: the session, and where findings go. */
export interface DialectSystem {
  readonly session: LiveSession;
  raise(finding: FindingInput): void;
  readonly curlOf: (request: SentRequest) => string;
  /**
   * Whether an answer of `status` from `service`, now, is one of the target's announced fault
   * windows (an afp serve's, target-outage.ts); absent where the target announces none.
   */
  readonly inOutage?: (service: string, status: number) => Promise<boolean>;
  /** Told of a command skipped because it met such an outage. */
  readonly outageMet?: (label: string) => void;
}

/** Escrows a run may hold (commands index them modulo the count). */
export const ESCROWS_MAX = 16;

export function createDialectModel(
  accounts: readonly LiveAccount[],
  balancesMicro: readonly Micro[],
  roundingMicro: Micro,
  services: {
    trading: DialectTradingModel | null;
    domains: DialectDomainsModel | null;
    wallet?: DialectWalletModel | null;
  } = {
    trading: null,
    domains: null,
  },
  learned: LearnedRules = newLearnedRules(),
): DialectModel {
  assert(accounts.length === balancesMicro.length, 'one starting balance per account');
  return {
    commandsRun: 0,
    accounts: accounts.map((account, slot) => ({
      slot,
      agentId: account.agentId,
      apiKey: account.apiKey,
      balanceMicro: balancesMicro[slot] as Micro,
      slackMicro: 0n,
      seed: null,
      rotatedHash: null,
    })),
    escrows: [],
    roundingMicro,
    wallet: null,
    minimums: learned.minimums,
    placedMinimums: learned.placedMinimums,
    batchLimit: learned.batchLimit,
    kellyLimits: learned.kellyLimits,
    ...services,
  };
}

/** What a bet of `game` (or an escrow, under `escrow.create`) drawn at `drawnMicro` is sent at: at least the target's stated minimum. */
export function betAmountFor(model: Readonly<DialectModel>, game: string, drawnMicro: Micro): Micro {
  const minimum = model.minimums.get(game);
  return minimum !== undefined && minimum > drawnMicro ? minimum : drawnMicro;
}

/** The smallest bet the check draws: the documents' minimum (0.01). */
const SMALLEST_BET_MICRO: Micro = 10_000n;

/**
 * What a bet of `game` drawn at `drawnMicro` stakes from `account`: betAmountFor, within nine
 * tenths of the Kelly share the target stated for the game (the tenth covers its rounding of the
 * limit and the account's slack); null when that share of the balance is below the game's minimum
 * (the target's rule lets no bet of it be placed now).
 */
export function stakeFor(
  model: Readonly<DialectModel>,
  account: Readonly<DialectAccount>,
  game: string,
  drawnMicro: Micro,
): Micro | null {
  const amountMicro = betAmountFor(model, game, drawnMicro);
  const share = model.kellyLimits.get(game);
  if (share === undefined) return amountMicro;
  const spendable = spendableMicro(account);
  const capMicro =
    share.balanceMicro > 0n && spendable > 0n ? (spendable * share.limitMicro * 9n) / (share.balanceMicro * 10n) : 0n;
  if (capMicro >= amountMicro) return amountMicro;
  return capMicro >= (model.minimums.get(game) ?? SMALLEST_BET_MICRO) ? capMicro : null;
}

export function accountAt(model: Readonly<DialectModel>, slot: number): DialectAccount {
  const account = model.accounts[slot % model.accounts.length];
  assert(account !== undefined, 'a dialect model has at least one account');
  return account;
}

/** The escrow fee both the documents and the deployment take: 1% of the amount, rounded up to the micro. */
export function deployedEscrowFeeMicro(amountMicro: Micro): Micro {
  return (amountMicro + 99n) / 100n;
}

/** The balance an account can surely spend (its model balance less the slack). */
export function spendableMicro(account: Readonly<DialectAccount>): Micro {
  return account.balanceMicro - account.slackMicro;
}
