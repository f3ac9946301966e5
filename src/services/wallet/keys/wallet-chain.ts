/**
 * WalletChain: the six chains the wallet derives keys for, and the shapes of keys and outcomes
 * shared by every chain's row (wallet.md "Chain values"; NOTES.md "Wallet").
 *
 * Invariant: `WALLET_CHAINS` lists every member of `WalletChain` once, in the spec's order, so a
 * table keyed by chain (the chain rows, the derived addresses) is complete when it has one entry
 * per element.
 */

export type WalletChain = 'ethereum' | 'base' | 'solana' | 'bitcoin' | 'tron' | 'monero';

export const WALLET_CHAINS: readonly WalletChain[] = ['ethereum', 'base', 'solana', 'bitcoin', 'tron', 'monero'];

/** Chains whose private key is one text; monero's key is a pair (view + spend). */
export type SingleKeyChain = Exclude<WalletChain, 'monero'>;

/** Monero's private keys, each a 32-byte scalar as 64 lowercase hex digits (Monero's own form). */
export interface MoneroKeyPair {
  viewKey: string;
  spendKey: string;
}

/** What `addressOfKey` and `signMessage` take: a key text, or monero's key pair. */
export type WalletKey = string | MoneroKeyPair;

export type AddressOutcome = { ok: true; address: string } | { ok: false; reason: string };

export function isWalletChain(value: unknown): value is WalletChain {
  return typeof value === 'string' && (WALLET_CHAINS as readonly string[]).includes(value);
}
