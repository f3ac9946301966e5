/**
 * The layout of a checkpoint's bytes (checkpoint-codec.ts describes it): its version, the header's
 * fields and checksum, the tag that opens every value, the typed-array kinds by index and the meta
 * section's record. Why a file of its own: the encoder (checkpoint-encoder.ts) and the decoder
 * (checkpoint-decoder.ts) must agree on exactly these numbers, and each reads them from here.
 */
import { createHash } from 'node:crypto';
import { TYPED_ARRAY_KINDS } from '../platform/typed-array-kinds.ts';

/**
 * Bumped when the layout changes, or the fields of a state class (the fingerprint names the classes,
 * not their fields); part of the checkpoint's codec fingerprint (checkpoints.ts): a checkpoint of
 * another version is not loaded, and the worker replays the command log from the start instead.
 * 2: the casino journal's rings keep plain arrays (journal-ring.ts).
 * 3: a SHA-256 of the whole checkpoint in the header; the trading service's tick bookkeeping (tick-planner.ts).
 */
export const CHECKPOINT_LAYOUT_VERSION = 3;
export const MAGIC = 0x43_50_46_41; // "AFPC" read as a little-endian u32
export const FIELDS_BYTES = 24;
export const CHECKSUM_BYTES = 32;
export const HEADER_BYTES = FIELDS_BYTES + CHECKSUM_BYTES;
export const SECTION_ENTRIES_MAX = 2 ** 31 - 1;
/** The class name of an object without a prototype (no class can be named so). */
export const NULL_PROTOTYPE = '#null';

/** What a value is: the first op of every value. */
export const Tag = {
  Null: 0,
  Undefined: 1,
  True: 2,
  False: 3,
  Number: 4,
  String: 5,
  BigInt: 6,
  Reference: 7,
  Object: 8,
  Array: 9,
  Map: 10,
  Set: 11,
  Rng: 12,
  TypedArray: 13,
  ArrayBuffer: 14,
  Buffer: 15,
} as const;
type Tag = (typeof Tag)[keyof typeof Tag];

/** Typed array kinds, by their index in TYPED_ARRAY_KINDS (append only: the index is written). */
export const TYPED_ARRAY_INDEX: ReadonlyMap<object, number> = new Map(
  TYPED_ARRAY_KINDS.map((kind, index) => [kind.prototype as object, index]),
);

export interface Meta {
  readonly classes: string[];
  /** [class index, 1 if frozen else 0, ...keys] */
  readonly shapes: Array<Array<string | number>>;
  readonly strings: string[];
  readonly bigints: string[];
}

/** SHA-256 of a checkpoint's bytes but the checksum's own place in the header. */
export function checksumOf(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes.subarray(0, FIELDS_BYTES)).update(bytes.subarray(HEADER_BYTES)).digest();
}
