/**
 * Buffer for the k6 bundle (k6 has no node globals): a Uint8Array with the few Buffer calls afp's
 * client-side code makes (alloc, from a string or an ArrayBuffer view, byteLength, concat,
 * toString as hex or UTF-8, readUInt32BE). esbuild injects it where bundled code names `Buffer`
 * (k6-bundle.ts); the node:crypto shim's digests are made of it, as node's are Buffers.
 * Non-goal: the rest of node's Buffer (base64, writes, comparisons): a call to it fails loudly.
 */
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

const UTF8 = /^utf-?8$/i;

/** The bytes: a Uint8Array with node Buffer's toString and readUInt32BE. */
export class ShimBuffer extends Uint8Array {
  override toString(encoding = 'utf8'): string {
    if (encoding === 'hex') return bytesToHex(this);
    if (!UTF8.test(encoding)) throw new Error(`the k6 bundle's Buffer writes hex and utf8 only, not ${encoding}`);
    return decodeURIComponent(Array.from(this, (byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''));
  }

  readUInt32BE(offset = 0): number {
    return new DataView(this.buffer, this.byteOffset, this.byteLength).getUint32(offset, false);
  }
}

/** A ShimBuffer holding a copy of `bytes`. */
export function copyOf(bytes: Uint8Array): ShimBuffer {
  const copy = new ShimBuffer(bytes.length);
  copy.set(bytes);
  return copy;
}

function from(value: string | ArrayBuffer | ArrayLike<number>, encodingOrOffset?: string | number, length?: number) {
  if (typeof value === 'string') {
    const encoding = typeof encodingOrOffset === 'string' ? encodingOrOffset : 'utf8';
    if (encoding === 'hex') return copyOf(hexToBytes(value));
    if (!UTF8.test(encoding)) throw new Error(`the k6 bundle's Buffer reads hex and utf8 only, not ${encoding}`);
    return copyOf(utf8ToBytes(value));
  }
  if (value instanceof ArrayBuffer) {
    const offset = typeof encodingOrOffset === 'number' ? encodingOrOffset : 0;
    return new ShimBuffer(value, offset, length ?? value.byteLength - offset);
  }
  return copyOf(Uint8Array.from(value));
}

function concat(list: readonly Uint8Array[]): ShimBuffer {
  const out = new ShimBuffer(list.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of list) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export const Buffer = {
  alloc: (size: number): ShimBuffer => new ShimBuffer(size),
  from,
  byteLength: (text: string): number => utf8ToBytes(text).length,
  concat,
  isBuffer: (value: unknown): boolean => value instanceof ShimBuffer,
};
