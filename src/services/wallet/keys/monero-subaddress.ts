/**
 * Monero subaddresses (Monero's `get_subaddress`): the deposit addresses one wallet hands out
 * without new keys. For index (major, minor) ≠ (0, 0):
 *   m = Hs("SubAddr\0" ‖ private view key ‖ u32le(major) ‖ u32le(minor))
 *   D = B + m·G (public spend key of the subaddress), C = a·D (its public view key)
 *   address = Monero base58 of 0x2a ‖ D ‖ C ‖ checksum.
 * Only the private view key `a` and the public spend key `B` are needed, so a holder of the view
 * key sees every subaddress's deposits; spending needs b + m. Index (0, 0) is the primary address.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { assert } from '../../../core/assert.ts';
import { hashToScalar, moneroAddress, scalarBytes, SUBADDRESS_PREFIX } from './monero-keys.ts';

const SUBADDRESS_TAG = new TextEncoder().encode('SubAddr\0');

/** The subaddress scalar m of (major, minor) under the private view key. */
export function subaddressScalar(viewKey: bigint, major: number, minor: number): bigint {
  const data = new Uint8Array(SUBADDRESS_TAG.length + 32 + 8);
  data.set(SUBADDRESS_TAG, 0);
  data.set(scalarBytes(viewKey), SUBADDRESS_TAG.length);
  const view = new DataView(data.buffer);
  view.setUint32(SUBADDRESS_TAG.length + 32, major, true);
  view.setUint32(SUBADDRESS_TAG.length + 36, minor, true);
  return hashToScalar(data);
}

/** The subaddress (major, minor) of the wallet whose private view key is `viewKey` and public spend key `publicSpend`. */
export function moneroSubaddress(viewKey: bigint, publicSpend: Uint8Array, major: number, minor: number): string {
  assert(major !== 0 || minor !== 0, 'subaddress (0, 0) is the primary address');
  assert(
    Number.isInteger(major) &&
      Number.isInteger(minor) &&
      major >= 0 &&
      minor >= 0 &&
      major <= 0xffff_ffff &&
      minor <= 0xffff_ffff,
    'subaddress indexes are u32',
  );
  const spend = ed25519.Point.fromBytes(publicSpend).add(
    ed25519.Point.BASE.multiply(subaddressScalar(viewKey, major, minor)),
  );
  const view = spend.multiply(viewKey);
  return moneroAddress(spend.toBytes(), view.toBytes(), SUBADDRESS_PREFIX);
}
