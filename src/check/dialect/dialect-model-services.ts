/**
 * The trading, domains and wallet part of `afp check --target`'s dialect model (dialect-model.ts): where a
 * target's trading or domains service keeps accounts and balances of its own (the deployment's,
 * DEPLOYED.md §1.1: `sk_trade_`, `sk_domains_`), the check opens its own accounts there once per
 * invocation and reads their balances at the start of every run. The money rules, from the wire
 * contract alone: a position holds margin = size / leverage and pays its opening fee from the
 * balance; its close gives back the margin plus the PnL less the closing fee; a refused order
 * moves nothing. A domain registration costs what its answer says; a gift moves the name and no
 * money; a refused registration moves nothing; a name has one holder, the one whois shows.
 * Non-goals: funding (the deployment's trading and domains take deposits on chains afp cannot
 * reach: only an afp serve's admin deposit funds them), the price path (PnL is read, not predicted).
 */
import type { Micro } from '../../core/money.ts';

export interface DialectServiceAccount {
  readonly agentId: string;
  readonly apiKey: string;
  balanceMicro: Micro;
  /** An answer left out a figure the balance depends on: the next balance read re-anchors without comparing. */
  unsure: boolean;
}

interface ModelPosition {
  readonly id: string;
  readonly symbol: string;
  readonly marginMicro: Micro;
}

export interface DialectTradingModel {
  readonly account: DialectServiceAccount;
  readonly positions: ModelPosition[];
  /** Margin in use when the run began (a position an earlier run could not close), read then. */
  readonly baseMarginMicro: Micro;
}

export interface HeldName {
  /** 0: the funded account; 1: the second (gift) account. */
  holder: 0 | 1;
  readonly domainId: string | null;
  /** What its registration cost, where the answer said (the check's price must match it). */
  readonly costMicro?: Micro | null;
}

export interface DialectDomainsModel {
  readonly accounts: readonly [DialectServiceAccount, DialectServiceAccount];
  /** Names of this run, unique per invocation and run (`tag`), and who holds each. */
  readonly tag: string;
  readonly held: Map<string, HeldName>;
}

/** The accounts a check opened on a service of its own accounts (null: the rows are left out, with the reason). */
export interface ServiceAccounts {
  readonly trading: readonly { readonly agentId: string; readonly apiKey: string }[] | null;
  readonly domains: readonly { readonly agentId: string; readonly apiKey: string }[] | null;
}

/** Positions a run may hold (one per market at a time: a deployed open on a held market adds to it). */
export const POSITIONS_MAX = 3;
/** Names a run registers at most (each costs a year's price). */
export const NAMES_PER_RUN = 4;

export function serviceAccount(
  opened: { readonly agentId: string; readonly apiKey: string },
  balanceMicro: Micro,
): DialectServiceAccount {
  return { agentId: opened.agentId, apiKey: opened.apiKey, balanceMicro, unsure: false };
}

/** The domain name of slot `index` in a run tagged `tag`: a fresh .xyz label per invocation and run. */
export function runDomainName(tag: string, index: number): string {
  return `afp-check-${tag}-${index}.xyz`;
}

/** One of the check's two wallets (wallet-commands.ts): its base address, key and balance as the model holds it. */
export interface WalletSlot {
  readonly address: string;
  readonly privateKey: string;
  /** The base balance as the model holds it (a decimal text of whole ETH). */
  balance: string;
  /** A send touched the address: its balance moves at blocks the check does not see, so it is no longer compared. */
  moved: boolean;
}

/** The wallet part: the check's wallet agent and its two wallets (opened by wallet-commands.ts). */
export interface DialectWalletModel {
  readonly apiKey: string;
  readonly wallets: readonly [WalletSlot, WalletSlot];
  readonly funded: boolean;
}
