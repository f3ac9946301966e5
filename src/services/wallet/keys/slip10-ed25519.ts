/**
 * SLIP-10 key derivation for ed25519 (hardened children only), as Solana wallets use it.
 *
 * master: I = HMAC-SHA512(key "ed25519 seed", seed); key = I[0..32], chain code = I[32..64].
 * child i (hardened, i ≥ 2^31): I = HMAC-SHA512(chain code, 0x00 ‖ key ‖ ser32(i)).
 * SLIP-10 defines no public (non-hardened) derivation for ed25519, so a path with an unhardened
 * step is refused by an assertion: the paths are constants of this module's callers.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { assert } from '../../../core/assert.ts';

export interface Slip10Node {
  key: Uint8Array;
  chainCode: Uint8Array;
}

const HARDENED_OFFSET = 0x8000_0000;
const MASTER_KEY = utf8ToBytes('ed25519 seed');

export function slip10Master(seed: Uint8Array): Slip10Node {
  const digest = hmac(sha512, MASTER_KEY, seed);
  return { key: digest.slice(0, 32), chainCode: digest.slice(32) };
}

export function slip10HardenedChild(parent: Slip10Node, index: number): Slip10Node {
  assert(
    Number.isInteger(index) && index >= HARDENED_OFFSET && index <= 0xffff_ffff,
    'SLIP-10 ed25519 children are hardened',
  );
  const data = new Uint8Array(37);
  data.set(parent.key, 1);
  new DataView(data.buffer).setUint32(33, index);
  const digest = hmac(sha512, parent.chainCode, data);
  return { key: digest.slice(0, 32), chainCode: digest.slice(32) };
}

/** Parses `m/44'/501'/0'/0'` (every step hardened, `'` or `h`) into child indexes. */
export function parseHardenedPath(path: string): number[] {
  const steps = path.split('/');
  assert(steps[0] === 'm', 'a derivation path starts at m');
  return steps.slice(1).map((step) => {
    const match = /^(\d+)['hH]$/u.exec(step);
    assert(match !== null, `SLIP-10 ed25519 path steps are hardened: ${step}`);
    const index = Number(match[1]);
    assert(index < HARDENED_OFFSET, 'path index below 2^31');
    return index + HARDENED_OFFSET;
  });
}

export function slip10Derive(seed: Uint8Array, path: string): Slip10Node {
  let node = slip10Master(seed);
  for (const index of parseHardenedPath(path)) node = slip10HardenedChild(node, index);
  return node;
}
