/**
 * Mnemonic: BIP-39 English mnemonics drawn from afp's seeded Rng, and the BIP-39 seed every
 * chain's derivation starts from.
 *
 * Invariants: a generated mnemonic carries 256 bits of entropy (24 words), drawn as eight 32-bit
 * words of `rng`, so the same seed gives the same mnemonic; the seed is PBKDF2-HMAC-SHA512 with
 * 2048 rounds over the NFKD mnemonic and "mnemonic" ‖ passphrase (BIP-39), done by node:crypto's
 * native PBKDF2: the same bytes as @scure/bip39's mnemonicToSeedSync, about 8 times faster (PBKDF2
 * was most of a wallet creation's CPU, and the check and simulations create thousands).
 * Whitespace between words is normalised to single spaces before validation and derivation.
 * Non-goals: other wordlists; the mnemonic is never stored or logged here.
 */
import { pbkdf2Sync } from 'node:crypto';
import { entropyToMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import type { Rng } from '../../../core/rng.ts';

const ENTROPY_BYTES = 32;

/** 24 words (256 bits of entropy) drawn from afp's seeded Rng: same seed, same mnemonic. */
export function generateMnemonic(rng: Rng): string {
  const entropy = new Uint8Array(ENTROPY_BYTES);
  const view = new DataView(entropy.buffer);
  for (let offset = 0; offset < ENTROPY_BYTES; offset += 4) view.setUint32(offset, rng.uint32());
  return mnemonicOfEntropy(entropy);
}

/** The BIP-39 English mnemonic of 16 to 32 bytes of entropy (checksum appended). */
export function mnemonicOfEntropy(entropy: Uint8Array): string {
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
  const password = normaliseMnemonic(mnemonic).normalize('NFKD');
  return new Uint8Array(pbkdf2Sync(password, `mnemonic${passphrase}`.normalize('NFKD'), 2048, 64, 'sha512'));
}
