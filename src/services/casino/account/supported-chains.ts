/**
 * The chains the casino accepts USDC deposits on, as data (STYLE rule 6: a new chain is a new
 * row), with the confirmation delay a simulated deposit waits on the clock before it is credited.
 *
 * Invariants: `confirmationMs` is exactly `blockTimeMs × confirmationsRequired` (built by `row`);
 * ids are lowercase and unique; withdrawal is allowed on Base only (casino.md Limits rule 3).
 * The delays are afp's choice (docs/decisions/casino.md "Casino service"): realistic orders of magnitude
 * for each chain's finality, round numbers so tests and scenarios can aim at exact instants.
 * Non-goals: real chain ids, gas, token contracts; every chain carries USDC only.
 */

export type ChainId = 'base' | 'ethereum' | 'polygon' | 'arbitrum' | 'optimism' | 'solana';

/** How deposit addresses and transaction hashes look on the chain. */
export type AddressFormat = 'evm' | 'solana';

export interface ChainInfo {
  readonly id: ChainId;
  readonly name: string;
  readonly token: 'USDC';
  readonly addressFormat: AddressFormat;
  readonly blockTimeMs: number;
  readonly confirmationsRequired: number;
  /** From a deposit's arrival to its credit: blockTimeMs × confirmationsRequired. */
  readonly confirmationMs: number;
  readonly withdraw: boolean;
}

function row(
  id: ChainId,
  name: string,
  addressFormat: AddressFormat,
  blockTimeMs: number,
  confirmationsRequired: number,
  withdraw = false,
): ChainInfo {
  return {
    id,
    name,
    token: 'USDC',
    addressFormat,
    blockTimeMs,
    confirmationsRequired,
    confirmationMs: blockTimeMs * confirmationsRequired,
    withdraw,
  };
}

/** In display order: Base first (the withdrawal chain), then by name. */
export const SUPPORTED_CHAINS: readonly ChainInfo[] = [
  row('base', 'Base', 'evm', 2_000, 60, true), // 2 min
  row('arbitrum', 'Arbitrum One', 'evm', 250, 480), // 2 min
  row('ethereum', 'Ethereum', 'evm', 12_000, 75), // 15 min
  row('optimism', 'OP Mainnet', 'evm', 2_000, 60), // 2 min
  row('polygon', 'Polygon PoS', 'evm', 2_000, 150), // 5 min
  row('solana', 'Solana', 'solana', 400, 150), // 1 min
];

const BY_ID = new Map<string, ChainInfo>(SUPPORTED_CHAINS.map((chain) => [chain.id, chain]));

/** The chain named `text` (its id, any case, surrounding blanks ignored), if supported. */
export function findChain(text: string): ChainInfo | undefined {
  return BY_ID.get(text.trim().toLowerCase());
}

export function supportedChains(): readonly ChainInfo[] {
  return SUPPORTED_CHAINS;
}

/** "base" or "base, ethereum, ..." for error messages. */
export function chainList(filter: (chain: ChainInfo) => boolean = () => true): string {
  return SUPPORTED_CHAINS.filter(filter)
    .map((chain) => chain.id)
    .join(', ');
}
