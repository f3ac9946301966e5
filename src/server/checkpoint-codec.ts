/**
 * The bytes of a checkpoint (src/server/checkpoints.ts): a platform's object graph in a compact
 * binary layout that loads fast, which is what bounds the recovery of `afp serve --data`.
 *
 * Why not the state codec's JSON tree (state-codec.ts, kept for the digest): a 1,000,000-command
 * quickstart state is 220k escrow records and 220k ledger slots, and the tree spelled every key of
 * every record and wrapped every bigint and reference in an array of its own, so JSON.parse built
 * millions of short-lived arrays before a single state object was made (110 MB; parse + decode
 * was most of a recovery). Here the graph is one walk in each direction over flat columns:
 *   header    magic "AFPC", layout version, section sizes (u32, little-endian), then the SHA-256
 *             of every byte of the checkpoint but these 32: a damaged checkpoint (a flipped
 *             byte anywhere) is refused before anything is decoded (verifyCheckpoint)
 *   meta      JSON: class names, shapes, the distinct strings, the distinct bigints (decimal)
 *   ops       Int32Array: each value's tag, then its operands (indices, lengths)
 *   numbers   Float64Array: every number, in the order met (-0, NaN and ±Infinity exact)
 *   bytes     the raw bytes of ArrayBuffers and Buffers, one after the other
 * A shape is a class (or plain object) with its frozenness and its keys in order: an object is its
 * shape's index followed by its values, so 220k records of one shape spell their keys once. Strings
 * and bigints are written once each and referred to by index (agent ids recur in every record).
 * Every container (object, array, Map, Set, Rng, typed array, ArrayBuffer, Buffer) gets an id in
 * the order it is first met; a later meeting is a reference, so sharing and cycles come back as
 * they were. Typed arrays and ArrayBuffers are in the machine's byte order (checkpoints do not
 * move between machines of another endianness), as in the state codec.
 * What the state codec refuses, this refuses too, with the path (a class not registered, a
 * function, a symbol key, a non-enumerable property); transient fields are written empty.
 * Determinism: one depth-first walk in Map, Set and property insertion order: the same graph
 * gives the same bytes.
 * Both walks keep their own stack (no recursion): the limiter's list of entries by last use nests
 * as deep as it is long. Limits: sections below 2^31 entries (a state that large fails loudly).
 * The layout's numbers are checkpoint-layout.ts; the walks checkpoint-encoder.ts and
 * checkpoint-decoder.ts; this file is the codec's face: what the rest of afp calls.
 */
import { StateCodecError, type ClassRegistry, type TransientFields } from '../platform/state-codec.ts';
import { CheckpointDecoder } from './checkpoint-decoder.ts';
import { CheckpointEncoder } from './checkpoint-encoder.ts';
import {
  CHECKPOINT_LAYOUT_VERSION,
  CHECKSUM_BYTES,
  FIELDS_BYTES,
  HEADER_BYTES,
  MAGIC,
  checksumOf,
} from './checkpoint-layout.ts';

/** What a checkpoint's codec column holds: the layout and the state classes (another build's is not loaded). */
export function checkpointCodec(registry: ClassRegistry): string {
  return `afpc${CHECKPOINT_LAYOUT_VERSION}:${registry.fingerprint}`;
}

/** The checkpoint bytes of `root`; throws StateCodecError naming the path of what it cannot write. */
export function encodeCheckpoint(root: unknown, registry: ClassRegistry, transient: TransientFields): Buffer {
  return new CheckpointEncoder(registry, transient).run(root);
}

/**
 * The graph of checkpoint bytes; throws StateCodecError on bytes it cannot read. `into`: the root
 * object's fields are written onto this object (of the same class) instead of a new one, so what
 * points at the root (a recovered Platform's dispatcher) keeps pointing at it.
 */
export function decodeCheckpoint(bytes: Uint8Array, registry: ClassRegistry, into?: object): unknown {
  const damage = verifyCheckpoint(bytes);
  if (damage !== null) throw new StateCodecError(damage);
  return new CheckpointDecoder(bytes, registry).run(into);
}

/** null when the bytes are a whole checkpoint of this layout whose checksum holds; else what is wrong with them. */
export function verifyCheckpoint(bytes: Uint8Array): string | null {
  if (bytes.byteLength < HEADER_BYTES) return `damaged: ${bytes.byteLength} bytes, shorter than a checkpoint's header`;
  const header = new DataView(bytes.buffer, bytes.byteOffset, FIELDS_BYTES);
  if (header.getUint32(0, true) !== MAGIC || header.getUint32(4, true) !== CHECKPOINT_LAYOUT_VERSION)
    return `not a checkpoint of layout ${CHECKPOINT_LAYOUT_VERSION} (damaged, or written by another afp)`;
  const stored = Buffer.from(bytes.buffer, bytes.byteOffset + FIELDS_BYTES, CHECKSUM_BYTES);
  const computed = checksumOf(bytes);
  if (!stored.equals(computed))
    return `damaged: its SHA-256 is ${computed.toString('hex').slice(0, 16)}…, its header says ${stored.toString('hex').slice(0, 16)}… (${bytes.byteLength} bytes)`;
  return null;
}

/** The SHA-256 a checkpoint's header holds (hex; read, not computed: verifyCheckpoint checks it), or '' for bytes too short to hold one. */
export function stateChecksum(bytes: Uint8Array): string {
  if (bytes.byteLength < HEADER_BYTES) return '';
  return Buffer.from(bytes.buffer, bytes.byteOffset + FIELDS_BYTES, CHECKSUM_BYTES).toString('hex');
}
