/**
 * Mnemonic: BIP-39 English mnemonics drawn from afp's seeded Rng, and the BIP-39 seed every
 * chain's derivation starts from.
 *
 * Invariants: a generated mnemonic carries 256 bits of entropy (24 words), drawn as eight 32-bit
 * words of `rng`, so the same seed gives the same mnemonic; the seed is PBKDF2-HMAC-SHA512 with
 * 2048 rounds over the NFKD mnemonic and "mnemonic" ‖ passphrase (BIP-39), done by @scure/bip39.
 * Whitespace between words is normalised to single spaces before validation and derivation.
 * Non-goals: other wordlists; the mnemonic is never stored or logged here.
 */
import { entropyToMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import type { Rng } from '../../../core/rng.ts';

const ENTROPY_BYTES = 32;

/** 24 words (256 bits of entropy) drawn from afp's seeded Rng: same seed, same mnemonic. */
export function generateMnemonic(rng: Rng): string {
  const entropy = new Uint8Array(ENTROPY_BYTES);
  const view = new DataView(entropy.buffer);
  for (let offset = 0; offset < ENTROPY_BYTES; offset += 4) view.setUint32(offset, rng.uint32());
  return entropyToMnemonic(entropy, english);
}

export function normaliseMnemonic(mnemonic: string): string {
  return mnemonic.trim().split(/\s+/u).join(' ');
}

/** A BIP-39 English mnemonic of 12 to 24 words whose checksum holds. */
export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(normaliseMnemonic(mnemonic), english);
}

/** The 64-byte BIP-39 seed (empty passphrase unless given). */
export function mnemonicSeed(mnemonic: string, passphrase = ''): Uint8Array {
  return mnemonicToSeedSync(normaliseMnemonic(mnemonic), passphrase);
}
