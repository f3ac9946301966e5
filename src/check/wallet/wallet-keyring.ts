/**
 * The run's wallet keys, kept on the command side only: the private keys (and monero's view and
 * spend keys) of each wallet the run created, by wallet index, so later sends can sign. The
 * mnemonic itself is dropped once the addresses are derived and compared. Why apart from the
 * model: the model (and every label and mismatch message printed from it) holds public addresses
 * only; this keyring lives in a WeakMap keyed by the run's wallet model, so it goes with the run.
 * A fixed "foreign" wallet (the BIP-39 test mnemonic, never used by afp) supplies keys that
 * control none of the run's addresses, for the 403 cases when the run has one wallet only.
 */
import { assert } from '../../core/assert.ts';
import { deriveWallet, type SingleKeyChain, type WalletChain } from '../../services/wallet/keys/wallet-keys.ts';
import type { WalletModel } from './wallet-state.ts';

export interface WalletSecrets {
  readonly addresses: Readonly<Record<WalletChain, string>>;
  readonly privateKeys: Readonly<Record<SingleKeyChain, string>>;
  readonly monero: { readonly viewKey: string; readonly spendKey: string };
}

const KEYRINGS = new WeakMap<WalletModel, Map<number, WalletSecrets>>();

export function keepSecrets(wallet: WalletModel, index: number, secrets: WalletSecrets): void {
  let ring = KEYRINGS.get(wallet);
  if (ring === undefined) {
    ring = new Map();
    KEYRINGS.set(wallet, ring);
  }
  ring.set(index, secrets);
}

export function secretsOf(wallet: WalletModel, index: number): WalletSecrets {
  const secrets = KEYRINGS.get(wallet)?.get(index);
  assert(secrets !== undefined, `the keyring holds the keys of wallet #${index}`);
  return secrets;
}

/** The 24-word BIP-39 test vector (entropy of zeros): valid, public, and never drawn by afp. */
const FOREIGN_MNEMONIC = `${'abandon '.repeat(23)}art`;
let foreign: WalletSecrets | null = null;

export function foreignSecrets(): WalletSecrets {
  if (foreign === null) {
    const derived = deriveWallet(FOREIGN_MNEMONIC);
    foreign = {
      addresses: derived.addresses,
      privateKeys: derived.privateKeys,
      monero: { viewKey: derived.monero.viewKey, spendKey: derived.monero.spendKey },
    };
  }
  return foreign;
}
