/**
 * Reading a checkpoint back: one pass over its ops with a stack of the containers being filled,
 * each value given to the innermost open one, references resolved by id, frozen objects frozen once
 * whole. Why a file of its own: the decoder is the recovery half of the codec (checkpoint-codec.ts),
 * run at a restart and on the worker's start, and it checks what the encoder only writes.
 */
import { Rng, type RngState } from '../core/rng.ts';
import { StateCodecError, type ClassRegistry } from '../platform/state-codec.ts';
import { TYPED_ARRAY_KINDS } from '../platform/typed-array-kinds.ts';
import {
  CHECKPOINT_LAYOUT_VERSION,
  FIELDS_BYTES,
  HEADER_BYTES,
  MAGIC,
  NULL_PROTOTYPE,
  Tag,
  type Meta,
} from './checkpoint-layout.ts';

interface DecodedShape {
  readonly prototype: object | null;
  readonly frozen: boolean;
  readonly keys: readonly string[];
}

/** What an open container is, tested once per child (cheaper than a chain of instanceof). */
const Kind = { Object: 0, Array: 1, Map: 2, Set: 3 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** A container whose children are still being read. */
interface OpenContainer {
  readonly kind: Kind;
  readonly target: Record<string, unknown> | unknown[] | Map<unknown, unknown> | Set<unknown>;
  /** Children still to come (a Map's entries count two: key and value). */
  remaining: number;
  /** An object's keys, by its shape (empty for the other kinds). */
  readonly keys: readonly string[];
  readonly frozen: boolean;
  /** A Map's key read, waiting for its value. */
  pendingKey: unknown;
}

const NO_KEYS: readonly string[] = [];

/**
 * One pass over the ops, with a stack of the containers being filled instead of recursion (see
 * CheckpointEncoder): a value is read, given to the innermost open container, and, if it is a
 * container with children, opened in turn. A container is given to its parent before its children
 * are read (references to it can come from inside it); a frozen one is frozen once they are all in.
 */
export class CheckpointDecoder {
  private readonly ops: Int32Array;
  private readonly numbers: Float64Array;
  private readonly blob: Uint8Array;
  private readonly strings: readonly string[];
  private readonly bigints: readonly bigint[];
  private readonly shapes: readonly DecodedShape[];
  private readonly byId: unknown[] = [];
  private readonly open: OpenContainer[] = [];
  private op = 0;
  private number = 0;

  constructor(bytes: Uint8Array, registry: ClassRegistry) {
    if (bytes.byteLength < HEADER_BYTES) throw new StateCodecError('not a checkpoint (too short)');
    const header = new DataView(bytes.buffer, bytes.byteOffset, FIELDS_BYTES);
    const [magic, version, metaBytes, opCount, numberCount, blobBytes] = [0, 1, 2, 3, 4, 5].map((index) =>
      header.getUint32(index * 4, true),
    ) as [number, number, number, number, number, number];
    if (magic !== MAGIC || version !== CHECKPOINT_LAYOUT_VERSION)
      throw new StateCodecError(`not a checkpoint of layout ${CHECKPOINT_LAYOUT_VERSION}`);
    const opsAt = HEADER_BYTES + metaBytes;
    const numbersAt = opsAt + opCount * 4;
    const blobAt = numbersAt + numberCount * 8;
    if (blobAt + blobBytes !== bytes.byteLength)
      throw new StateCodecError(
        `a checkpoint of ${bytes.byteLength} bytes whose sections add up to ${blobAt + blobBytes}`,
      );
    const meta = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset + HEADER_BYTES, metaBytes).toString('utf8'),
    ) as Meta;
    // Views in place when the columns are aligned (the encoder pads the meta for it); copies when
    // not (a blob read at an odd offset, or an older checkpoint without the padding).
    const aligned = (bytes.byteOffset + numbersAt) % 8 === 0 && (bytes.byteOffset + opsAt) % 4 === 0;
    this.ops = aligned
      ? new Int32Array(bytes.buffer, bytes.byteOffset + opsAt, opCount)
      : new Int32Array(copied(bytes, opsAt, numbersAt));
    this.numbers = aligned
      ? new Float64Array(bytes.buffer, bytes.byteOffset + numbersAt, numberCount)
      : new Float64Array(copied(bytes, numbersAt, blobAt));
    this.blob = bytes.subarray(blobAt);
    this.strings = meta.strings;
    this.bigints = meta.bigints.map((text) => BigInt(text));
    this.shapes = meta.shapes.map(([classIndex, frozen, ...keys]) => {
      const className = meta.classes[classIndex as number];
      const prototype =
        className === ''
          ? Object.prototype
          : className === NULL_PROTOTYPE
            ? null
            : className === undefined
              ? undefined
              : registry.byName.get(className);
      if (prototype === undefined) throw new StateCodecError(`unknown class '${String(className)}'`);
      return { prototype, frozen: frozen === 1, keys: keys as string[] };
    });
  }

  run(into: object | undefined): unknown {
    const root = this.readValue(into);
    while (this.open.length > 0) {
      const container = this.open[this.open.length - 1] as OpenContainer;
      if (container.remaining === 0) {
        this.open.pop();
        if (container.frozen) Object.freeze(container.target);
        continue;
      }
      this.give(container, this.readValue(undefined));
    }
    if (this.op !== this.ops.length || this.number !== this.numbers.length)
      throw new StateCodecError('trailing values after the root');
    return root;
  }

  /** Puts `value` in the next place of `container`. */
  private give(container: OpenContainer, value: unknown): void {
    container.remaining--;
    switch (container.kind) {
      case Kind.Object: {
        const key = container.keys[container.keys.length - container.remaining - 1] as string;
        const target = container.target as Record<string, unknown>;
        // A JSON body's own "__proto__" key must stay a key, not become a prototype.
        if (key === '__proto__')
          Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
        else target[key] = value;
        return;
      }
      case Kind.Array:
        (container.target as unknown[]).push(value);
        return;
      case Kind.Map:
        if (container.remaining % 2 === 1) container.pendingKey = value;
        else (container.target as Map<unknown, unknown>).set(container.pendingKey, value);
        return;
      case Kind.Set:
        (container.target as Set<unknown>).add(value);
        return;
    }
  }

  private next(): number {
    if (this.op >= this.ops.length) throw new StateCodecError('the values end early');
    return this.ops[this.op++] as number;
  }

  private nextNumber(): number {
    if (this.number >= this.numbers.length) throw new StateCodecError('the numbers end early');
    return this.numbers[this.number++] as number;
  }

  private indexed<T>(table: readonly T[], what: string): T {
    const index = this.next();
    if (!(index >= 0 && index < table.length)) throw new StateCodecError(`${what} ${index} out of range`);
    return table[index] as T;
  }

  /** Reads one value; a container with children is opened (its children come next). */
  private readValue(into: object | undefined): unknown {
    const tag = this.next();
    switch (tag) {
      case Tag.Null:
        return null;
      case Tag.Undefined:
        return undefined;
      case Tag.True:
        return true;
      case Tag.False:
        return false;
      case Tag.Number:
        return this.nextNumber();
      case Tag.String:
        return this.indexed(this.strings, 'string');
      case Tag.BigInt:
        return this.indexed(this.bigints, 'bigint');
      case Tag.Reference:
        return this.indexed(this.byId, 'a reference to container');
      case Tag.Object:
        return this.openObject(into);
      case Tag.Array:
        return this.openContainer(Kind.Array, [], 1);
      case Tag.Map:
        return this.openContainer(Kind.Map, new Map(), 2);
      case Tag.Set:
        return this.openContainer(Kind.Set, new Set(), 1);
      case Tag.Rng:
        return this.readRng();
      case Tag.TypedArray:
        return this.readTypedArray();
      case Tag.ArrayBuffer:
      case Tag.Buffer:
        return this.readBytes(tag);
      default:
        throw new StateCodecError(`unknown tag ${String(tag)}`);
    }
  }

  private openContainer<T extends unknown[] | Map<unknown, unknown> | Set<unknown>>(
    kind: Kind,
    target: T,
    perItem: number,
  ): T {
    this.byId.push(target);
    const count = this.next();
    if (!(count >= 0)) throw new StateCodecError(`a container of ${count} items`);
    if (count > 0)
      this.open.push({ kind, target, remaining: count * perItem, keys: NO_KEYS, frozen: false, pendingKey: undefined });
    return target;
  }

  private openObject(into: object | undefined): object {
    const shape = this.indexed(this.shapes, 'shape');
    if (into !== undefined && Reflect.getPrototypeOf(into) !== shape.prototype)
      throw new StateCodecError('the state is not of the class of the object it is decoded into');
    const target = (into ?? (shape.prototype === Object.prototype ? {} : Object.create(shape.prototype))) as Record<
      string,
      unknown
    >;
    this.byId.push(target);
    if (shape.keys.length > 0)
      this.open.push({
        kind: Kind.Object,
        target,
        remaining: shape.keys.length,
        keys: shape.keys,
        frozen: shape.frozen,
        pendingKey: undefined,
      });
    else if (shape.frozen) Object.freeze(target);
    return target;
  }

  private readRng(): Rng {
    const seed = this.indexed(this.strings, 'string');
    const state: Record<string, number> = {};
    for (let count = this.next(); count > 0; count--) state[this.indexed(this.strings, 'string')] = this.nextNumber();
    const rng = new Rng(seed, state as unknown as RngState);
    this.byId.push(rng);
    return rng;
  }

  private readTypedArray(): ArrayBufferView {
    const Kind = TYPED_ARRAY_KINDS[this.next()];
    if (Kind === undefined) throw new StateCodecError('unknown typed array kind');
    const slot = this.byId.push(undefined) - 1; // the view's id comes before its buffer's, as when written
    const buffer = this.readValue(undefined);
    if (!(buffer instanceof ArrayBuffer))
      throw new StateCodecError('a typed array over something else than an ArrayBuffer');
    const view = new Kind(buffer, this.next(), this.next());
    this.byId[slot] = view;
    return view;
  }

  private readBytes(tag: typeof Tag.ArrayBuffer | typeof Tag.Buffer): ArrayBuffer | Buffer {
    const start = this.nextNumber();
    const length = this.nextNumber();
    if (!(start >= 0 && length >= 0 && start + length <= this.blob.byteLength))
      throw new StateCodecError('bytes out of range');
    const bytes = copied(this.blob, start, start + length); // bytes of its own, as the original's
    const value = tag === Tag.Buffer ? Buffer.from(bytes) : bytes;
    this.byId.push(value);
    return value;
  }
}

/** A fresh ArrayBuffer with bytes [start, end) of `bytes` (Buffer's own slice() would share them). */
function copied(bytes: Uint8Array, start: number, end: number): ArrayBuffer {
  const copy = new Uint8Array(end - start);
  copy.set(bytes.subarray(start, end));
  return copy.buffer;
}
