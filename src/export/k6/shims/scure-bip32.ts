/**
 * @scure/bip32's HDKey as derive-wallet.ts uses it inside the k6 bundle (fromMasterSeed, derive,
 * privateKey): BIP-32 private derivation computing a public key only where the next step needs
 * one (a non-hardened child hashes its parent's public key).
 *
 * Why: @scure/bip32 builds every node's public key and its hash160 (for fingerprints and extended
 * keys, which a wallet agent never reads): five secp256k1 multiplications a path, fifteen per
 * wallet. In k6's interpreter (goja) each costs milliseconds of BigInt work, and a wallet agent
 * derives its keys in the iteration that creates its wallet, so those iterations overran their
 * arrivals. Here a path m/44'/60'/0'/0/0 costs two multiplications.
 * The same keys as @scure/bip32's (test/export/k6-native-hashes.test.ts compares them), and the
 * agent checks every derived address against the one the service answered. Only derive-wallet.ts
 * is pointed here (k6-bundle.ts); the server's deposit keyring keeps the library.
 * BIP-32: I = HMAC-SHA512(chain code, 0x00 ‖ k ‖ i) for a hardened i, else (serP(k·G) ‖ i); the
 * child key is (I_L + k) mod n and its chain code I_R; an I_L ≥ n or a zero key moves on to the
 * next index, as @scure/bip32 does (probability below 2^-127).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToNumberBE, numberToBytesBE } from '@noble/curves/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The base-point window of both curves of a wallet's keys, in place of noble's 6. Each VU builds
 * the tables once, in its first derivation (warmWalletKeys at init); in goja 6 made that cost
 * about 0.5 s of CPU, 4 about 0.33 s, while each later derivation costs about the same (~0.15 s:
 * a window of 4 adds a few point additions a multiplication). A VU derives the wallets of its own
 * agents only, a few. The keys do not depend on the window.
 */
const BASE_WINDOW = 4;
secp256k1.Point.BASE.precompute(BASE_WINDOW);
ed25519.Point.BASE.precompute(BASE_WINDOW);

const MASTER_SECRET = utf8ToBytes('Bitcoin seed');
const HARDENED_OFFSET = 0x80000000;
const ORDER = secp256k1.Point.Fn.ORDER;
const SEED_BYTES_MIN = 16;
const SEED_BYTES_MAX = 64;
const DEPTH_MAX = 255;

export class HDKey {
  readonly privateKey: Uint8Array;
  private readonly chainCode: Uint8Array;

  private constructor(privateKey: Uint8Array, chainCode: Uint8Array) {
    this.privateKey = privateKey;
    this.chainCode = chainCode;
  }

  static fromMasterSeed(seed: Uint8Array): HDKey {
    if (seed.length < SEED_BYTES_MIN || seed.length > SEED_BYTES_MAX)
      throw new RangeError(`HDKey: seed length must be between 128 and 512 bits, got ${seed.length} bytes`);
    const out = hmac(sha512, MASTER_SECRET, seed);
    const key = out.slice(0, 32);
    if (!secp256k1.utils.isValidSecretKey(key)) throw new Error('Invalid private key');
    return new HDKey(key, out.slice(32));
  }

  /** The node at `path` (m/44'/60'/0'/0/0), as @scure/bip32 reads it. */
  derive(path: string): HDKey {
    if (!/^[mM]'?/.test(path)) throw new Error('Path must start with "m" or "M"');
    if (/^[mM]'?$/.test(path)) return this;
    const parts = path.replace(/^[mM]'?\//, '').split('/');
    if (parts.length > DEPTH_MAX) throw new Error('HDKey: path exceeds the serializable depth 255');
    return parts.reduce((node: HDKey, part) => {
      const match = /^(\d+)('?)$/.exec(part);
      const index = Number(match?.[1]);
      if (match === null || !Number.isSafeInteger(index) || index >= HARDENED_OFFSET)
        throw new Error(`invalid child index: ${part}`);
      return node.deriveChild(match[2] === "'" ? index + HARDENED_OFFSET : index);
    }, this);
  }

  deriveChild(index: number): HDKey {
    for (let at = index; at <= 0xffffffff; at++) {
      const data = new Uint8Array(37);
      if (at >= HARDENED_OFFSET) data.set(this.privateKey, 1);
      else data.set(secp256k1.getPublicKey(this.privateKey, true), 0);
      new DataView(data.buffer).setUint32(33, at, false);
      const out = hmac(sha512, this.chainCode, data);
      const tweak = bytesToNumberBE(out.subarray(0, 32));
      const child = (tweak + bytesToNumberBE(this.privateKey)) % ORDER;
      if (tweak < ORDER && child !== 0n) return new HDKey(numberToBytesBE(child, 32), out.slice(32));
    }
    throw new Error(`HDKey: cannot derive a child at or after index ${index}`);
  }
}
