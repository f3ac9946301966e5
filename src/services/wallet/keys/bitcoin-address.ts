/**
 * Bitcoin mainnet addresses and keys: BIP-84 P2WPKH (`bc1q…`, bech32 of witness v0 ‖
 * hash160(compressed public key)) for derived wallets; WIF for private keys.
 *
 * Valid destinations are every standard mainnet form, each with its checksum: P2PKH (`1…`) and
 * P2SH (`3…`) base58check, bech32 witness v0 of 20 or 32 bytes (BIP-173), bech32m witness v1..16
 * of 2..40 bytes (BIP-350). Testnet prefixes, mixed case and the wrong checksum variant are refused.
 * WIF: base58check(0x80 ‖ key ‖ 0x01), compressed only (a P2WPKH needs the compressed key).
 */
import { bech32, bech32m } from '@scure/base';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { decodeBase58check, encodeBase58check } from './tron-address.ts';

const HRP = 'bc';
const WIF_VERSION = 0x80;
const WIF_COMPRESSED = 0x01;
const P2PKH_VERSION = 0x00;
const P2SH_VERSION = 0x05;

export function hash160(bytes: Uint8Array): Uint8Array {
  return ripemd160(sha256(bytes));
}

export function p2wpkhAddress(compressedPublicKey: Uint8Array): string {
  return bech32.encode(HRP, [0, ...bech32.toWords(hash160(compressedPublicKey))]);
}

export function encodeWif(secretKey: Uint8Array): string {
  const payload = new Uint8Array(34);
  payload[0] = WIF_VERSION;
  payload.set(secretKey, 1);
  payload[33] = WIF_COMPRESSED;
  return encodeBase58check(payload);
}

export type WifOutcome = { ok: true; secretKey: Uint8Array } | { ok: false; reason: string };

export function decodeWif(text: string): WifOutcome {
  const payload = decodeBase58check(text);
  if (payload === undefined)
    return { ok: false, reason: 'bitcoin key is not base58check WIF (bad alphabet or checksum)' };
  if (payload[0] !== WIF_VERSION)
    return { ok: false, reason: 'bitcoin key is not a mainnet WIF (version byte is not 0x80)' };
  if (payload.length === 33)
    return { ok: false, reason: 'bitcoin key is an uncompressed WIF; P2WPKH needs a compressed key' };
  if (payload.length !== 34 || payload[33] !== WIF_COMPRESSED)
    return { ok: false, reason: 'bitcoin WIF has the wrong length' };
  const secretKey = payload.slice(1, 33);
  if (!secp256k1.utils.isValidSecretKey(secretKey))
    return { ok: false, reason: 'bitcoin key is out of the curve order' };
  return { ok: true, secretKey };
}

export function isValidBitcoinAddress(address: string): boolean {
  if (/^bc1/iu.test(address)) return isValidSegwitAddress(address);
  const payload = decodeBase58check(address);
  if (payload === undefined || payload.length !== 21) return false;
  return payload[0] === P2PKH_VERSION || payload[0] === P2SH_VERSION;
}

function isValidSegwitAddress(address: string): boolean {
  // bech32 and bech32m differ only in the checksum constant: the version decides which applies.
  const v0 = bech32.decodeUnsafe(address, 90);
  if (v0 !== undefined) {
    const [version, ...words] = v0.words;
    const program = bech32.fromWordsUnsafe(words);
    return (
      v0.prefix === HRP && version === 0 && program !== undefined && (program.length === 20 || program.length === 32)
    );
  }
  const v1 = bech32m.decodeUnsafe(address, 90);
  if (v1 === undefined) return false;
  const [version, ...words] = v1.words;
  const program = bech32m.fromWordsUnsafe(words);
  if (v1.prefix !== HRP || version === undefined || version < 1 || version > 16 || program === undefined) return false;
  return program.length >= 2 && program.length <= 40;
}

/** The 20-byte key hash of a P2WPKH address, or undefined for any other form. */
export function p2wpkhProgram(address: string): Uint8Array | undefined {
  const decoded = bech32.decodeUnsafe(address, 90);
  if (decoded === undefined || decoded.prefix !== HRP) return undefined;
  const [version, ...words] = decoded.words;
  const program = bech32.fromWordsUnsafe(words);
  return version === 0 && program !== undefined && program.length === 20 ? program : undefined;
}
