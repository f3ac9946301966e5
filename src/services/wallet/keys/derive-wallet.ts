/**
 * deriveWallet: a BIP-39 mnemonic's addresses and private keys on the six chains, by the paths
 * and methods of NOTES.md "Wallet".
 *
 * | chain          | derivation                                   | key text              |
 * | ethereum, base | BIP-32 m/44'/60'/0'/0/0                       | 0x + 64 hex           |
 * | solana         | SLIP-10 ed25519 m/44'/501'/0'/0'              | base58 64-byte keypair|
 * | bitcoin        | BIP-32 m/84'/0'/0'/0/0 (BIP-84 P2WPKH)        | WIF, compressed       |
 * | tron           | BIP-32 m/44'/195'/0'/0/0                      | 64 hex                |
 * | monero         | HMAC-SHA512("monero seed", seed) → spend, view| 64 hex each           |
 *
 * Invariant: every address here equals `addressOfKey(chain, privateKeys[chain])`, so a key
 * returned at creation signs for its address. The result holds secrets: the caller returns it
 * once and stores none of it; this module keeps nothing.
 */
import { HDKey } from './bip32-private.ts';
import { assert } from '../../../core/assert.ts';
import { encodeWif, p2wpkhAddress } from './bitcoin-address.ts';
import { evmAddressOfPublicKey } from './evm-address.ts';
import { toHex } from './key-text.ts';
import { isValidMnemonic, mnemonicSeed, normaliseMnemonic } from './mnemonic.ts';
import { moneroAddress, moneroScalarsOfSeed, publicKeyOfScalar, scalarText } from './monero-keys.ts';
import { compressedPublicKey, uncompressedPublicKey } from './secp256k1-signature.ts';
import { slip10Derive } from './slip10-ed25519.ts';
import { solanaKeysOfSeed } from './solana-address.ts';
import { tronAddressOfPublicKey } from './tron-address.ts';
import type { SingleKeyChain, WalletChain } from './wallet-chain.ts';

export const DERIVATION_PATHS: Readonly<Record<WalletChain, string>> = {
  ethereum: "m/44'/60'/0'/0/0",
  base: "m/44'/60'/0'/0/0",
  solana: "m/44'/501'/0'/0'",
  bitcoin: "m/84'/0'/0'/0/0",
  tron: "m/44'/195'/0'/0/0",
  monero:
    'spend key = first 32 bytes of HMAC-SHA512(key "monero seed", BIP-39 seed) mod l; view key = keccak256(spend key) mod l; address = Monero base58 of 0x12 || public spend || public view || 4-byte keccak256 checksum',
};

export interface DerivedWallet {
  mnemonic: string;
  addresses: Record<WalletChain, string>;
  derivationPaths: Record<WalletChain, string>;
  privateKeys: Record<SingleKeyChain, string>;
  monero: { spendKey: string; viewKey: string; publicSpendKey: string; publicViewKey: string };
}

/** Any valid secret on both curves (1 < k < both orders); its keys are thrown away. */
const WARM_UP_SECRET = new Uint8Array(32).fill(7);

/**
 * Builds the curves' precomputed base-point tables (secp256k1's and ed25519's) that the first
 * derivation would otherwise build, with one public key on each curve instead of a whole wallet
 * (PBKDF2 and three BIP-32 paths more: in a k6 VU about 0.1 s of the 0.3 a throwaway wallet took).
 */
export function warmKeyTables(): void {
  uncompressedPublicKey(WARM_UP_SECRET);
  solanaKeysOfSeed(WARM_UP_SECRET);
}

function bip32Secret(root: HDKey, path: string): Uint8Array {
  const secret = root.derive(path).privateKey;
  assert(secret !== null, 'a BIP-32 node derived from a seed holds its private key');
  return secret;
}

/** The wallet of a valid BIP-39 mnemonic (check it with `isValidMnemonic` first). */
export function deriveWallet(mnemonic: string): DerivedWallet {
  assert(isValidMnemonic(mnemonic), 'deriveWallet takes a valid BIP-39 mnemonic');
  const seed = mnemonicSeed(mnemonic);
  const root = HDKey.fromMasterSeed(seed);

  const evmSecret = bip32Secret(root, DERIVATION_PATHS.ethereum);
  const evmAddress = evmAddressOfPublicKey(uncompressedPublicKey(evmSecret));
  const bitcoinSecret = bip32Secret(root, DERIVATION_PATHS.bitcoin);
  const tronSecret = bip32Secret(root, DERIVATION_PATHS.tron);
  const solana = solanaKeysOfSeed(slip10Derive(seed, DERIVATION_PATHS.solana).key);
  const monero = moneroScalarsOfSeed(seed);
  const publicSpend = publicKeyOfScalar(monero.spend);
  const publicView = publicKeyOfScalar(monero.view);

  return {
    mnemonic: normaliseMnemonic(mnemonic),
    addresses: {
      ethereum: evmAddress,
      base: evmAddress,
      solana: solana.address,
      bitcoin: p2wpkhAddress(compressedPublicKey(bitcoinSecret)),
      tron: tronAddressOfPublicKey(uncompressedPublicKey(tronSecret)),
      monero: moneroAddress(publicSpend, publicView),
    },
    derivationPaths: { ...DERIVATION_PATHS },
    privateKeys: {
      ethereum: `0x${toHex(evmSecret)}`,
      base: `0x${toHex(evmSecret)}`,
      solana: solana.keypair,
      bitcoin: encodeWif(bitcoinSecret),
      tron: toHex(tronSecret),
    },
    monero: {
      spendKey: scalarText(monero.spend),
      viewKey: scalarText(monero.view),
      publicSpendKey: toHex(publicSpend),
      publicViewKey: toHex(publicView),
    },
  };
}
