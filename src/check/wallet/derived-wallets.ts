/**
 * derivedWallet: `deriveWallet` for the check's model, remembered for the check process by the
 * SHA-256 of the mnemonic (the mnemonic itself is not kept), at most DERIVED_WALLETS_MAX wallets.
 *
 * Why: every run of a check starts a fresh platform from the same seed, so its k-th wallet has the
 * same mnemonic in every run (seed 11, 80 runs: 51 creates, 3 mnemonics), and the model re-derives
 * each answer's mnemonic to predict its addresses and keys: a BIP-39 seed (2048 rounds of
 * HMAC-SHA512) and keys on five curves, most of a wallet command's cost. A derivation is a pure
 * function of the mnemonic, so a remembered one is the same answer.
 * The keys live as long as the process, as the run's keyring (wallet-keyring.ts) holds them for a
 * run; the check prints none of them.
 */
import { createHash } from 'node:crypto';
import { BoundedMemo } from '../../core/bounded-memo.ts';
import { deriveWallet, type DerivedWallet } from '../../services/wallet/keys/wallet-keys.ts';

export const DERIVED_WALLETS_MAX = 32;

const derived = new BoundedMemo<string, DerivedWallet>(DERIVED_WALLETS_MAX);

export function derivedWallet(mnemonic: string): DerivedWallet {
  return derived.get(createHash('sha256').update(mnemonic).digest('hex'), () => deriveWallet(mnemonic));
}
