/**
 * Wallet keys: the key layer of the wallet service (issue 21, points 2–3), a pure module with no
 * HTTP and no state. Mnemonics from the seeded Rng, six-chain HD derivation, addresses and their
 * validity, and real signatures over a transaction's bytes.
 *
 * Invariants: nothing here stores, logs or prints a mnemonic or key; expected failures (an
 * ill-formed key) are returned as refusals; `signMessage` and `deriveWallet` assert their
 * preconditions (a key accepted by `addressOfKey`, a mnemonic accepted by `isValidMnemonic`).
 * Signatures: secp256k1 recoverable r ‖ s ‖ v (EVM over keccak256, tron over sha256, bitcoin over
 * sha256d), ed25519 (solana), and for monero a Schnorr signature with the spend key — a
 * documented simplification of Monero's ring signatures (monero-signature.ts).
 */
import { CHAIN_KEYS } from './chain-keys.ts';
import type { AddressOutcome, WalletChain, WalletKey } from './wallet-chain.ts';

export { WALLET_CHAINS, isWalletChain } from './wallet-chain.ts';
export type { AddressOutcome, MoneroKeyPair, SingleKeyChain, WalletChain, WalletKey } from './wallet-chain.ts';
export { generateMnemonic, isValidMnemonic } from './mnemonic.ts';
export { DERIVATION_PATHS, deriveWallet, warmKeyTables } from './derive-wallet.ts';
export type { DerivedWallet } from './derive-wallet.ts';
/** Monero: whether a private view key belongs to an address (a balance needs the address's own view key). */
export { viewKeyMatchesAddress } from './monero-keys.ts';

/** The address a private key controls on `chain` (monero: from view + spend key); a refusal when the key is ill-formed. */
export function addressOfKey(chain: WalletChain, key: WalletKey): AddressOutcome {
  return CHAIN_KEYS[chain].addressOfKey(key);
}

/** Full checks: EIP-55 case when mixed, bech32/bech32m/base58check checksums, monero checksum and points. */
export function isValidAddress(chain: WalletChain, address: string): boolean {
  return CHAIN_KEYS[chain].isValidAddress(address);
}

/** A real signature over `message` (a transaction's bytes) with `key`, which `addressOfKey` accepts. */
export function signMessage(chain: WalletChain, key: WalletKey, message: Uint8Array): Uint8Array {
  return CHAIN_KEYS[chain].sign(key, message);
}

/** True when `signature` over `message` was made by the key that controls `address` on `chain`. */
export function verifySignature(
  chain: WalletChain,
  address: string,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  return CHAIN_KEYS[chain].verify(address, message, signature);
}
