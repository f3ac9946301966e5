/**
 * The typed array kinds a platform's state may hold, in one fixed order: the graph copy
 * (graph-copy.ts), the state codec (state-codec.ts, by name) and the checkpoint codec
 * (src/server/checkpoint-codec.ts, by index) all read this one list.
 * Invariant: append only — a checkpoint writes a kind's index in this list.
 */
export type TypedArrayKind = new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView;

export const TYPED_ARRAY_KINDS = [
  Uint8Array,
  Uint16Array,
  Uint32Array,
  Int8Array,
  Int16Array,
  Int32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
] as const;
