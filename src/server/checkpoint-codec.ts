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
 */
import { createHash } from 'node:crypto';
import { Rng, type RngState } from '../core/rng.ts';
import { Refused, refusedText } from '../platform/object-path.ts';
import { TYPED_ARRAY_KINDS } from '../platform/typed-array-kinds.ts';
import { StateCodecError, type ClassRegistry, type TransientFields } from '../platform/state-codec.ts';

/**
 * Bumped when the layout changes, or the fields of a state class (the fingerprint names the classes,
 * not their fields); part of the checkpoint's codec fingerprint (checkpoints.ts): a checkpoint of
 * another version is not loaded, and the worker replays the command log from the start instead.
 * 2: the casino journal's rings keep plain arrays (journal-ring.ts).
 * 3: a SHA-256 of the whole checkpoint in the header; the trading service's tick bookkeeping (tick-planner.ts).
 */
export const CHECKPOINT_LAYOUT_VERSION = 3;
const MAGIC = 0x43_50_46_41; // "AFPC" read as a little-endian u32
const FIELDS_BYTES = 24;
const CHECKSUM_BYTES = 32;
const HEADER_BYTES = FIELDS_BYTES + CHECKSUM_BYTES;
const SECTION_ENTRIES_MAX = 2 ** 31 - 1;
/** The class name of an object without a prototype (no class can be named so). */
const NULL_PROTOTYPE = '#null';

/** What a value is: the first op of every value. */
const Tag = {
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
const TYPED_ARRAY_INDEX: ReadonlyMap<object, number> = new Map(
  TYPED_ARRAY_KINDS.map((kind, index) => [kind.prototype as object, index]),
);

interface Meta {
  readonly classes: string[];
  /** [class index, 1 if frozen else 0, ...keys] */
  readonly shapes: Array<Array<string | number>>;
  readonly strings: string[];
  readonly bigints: string[];
}

/** What a checkpoint's codec column holds: the layout and the state classes (another build's is not loaded). */
export function checkpointCodec(registry: ClassRegistry): string {
  return `afpc${CHECKPOINT_LAYOUT_VERSION}:${registry.fingerprint}`;
}

/** The checkpoint bytes of `root`; throws StateCodecError naming the path of what it cannot write. */
export function encodeCheckpoint(root: unknown, registry: ClassRegistry, transient: TransientFields): Buffer {
  return new CheckpointEncoder(registry, transient).run(root);
}

/** A growable column of one typed-array kind. */
class Column<T extends Int32Array | Float64Array> {
  private items: T;
  length = 0;
  private readonly make: (size: number) => T;

  constructor(make: (size: number) => T) {
    this.make = make;
    this.items = make(1 << 16);
  }

  push(value: number): void {
    if (this.length === this.items.length) {
      if (this.length >= SECTION_ENTRIES_MAX / 2)
        throw new StateCodecError(`a checkpoint column holds at most ${SECTION_ENTRIES_MAX} entries`);
      const grown = this.make(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = value;
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.items.buffer, 0, this.length * this.items.BYTES_PER_ELEMENT);
  }
}

/** One shape per (prototype, frozenness, keys); the last shape of each prototype is tried first (collections are homogeneous). */
interface Shape {
  readonly index: number;
  readonly frozen: boolean;
  readonly keys: readonly string[];
}

/**
 * One walk, with an explicit stack instead of recursion: the limiter's entries form a list by last
 * use (`older`/`newer`), so a depth-first walk descends as deep as the list is long — up to the
 * limiter's bound, far past any call stack. A container writes its header and pushes its children
 * in reverse, so they are popped, and written, in order.
 */
class CheckpointEncoder {
  private readonly registry: ClassRegistry;
  private readonly transient: TransientFields;
  private readonly ids = new Map<unknown, number>();
  private readonly ops = new Column((size) => new Int32Array(size));
  private readonly numbers = new Column((size) => new Float64Array(size));
  private readonly blobs: Uint8Array[] = [];
  private blobBytes = 0;
  private readonly stringIndex = new Map<string, number>();
  private readonly bigintIndex = new Map<bigint, number>();
  private readonly classIndex = new Map<string, number>();
  private readonly shapeIndex = new Map<string, Shape>();
  private readonly lastShape = new Map<object | null, Shape>();
  private readonly meta: Meta = { classes: [], shapes: [], strings: [], bigints: [] };
  /** Values still to write, the next on top. */
  private readonly stack: unknown[] = [];

  constructor(registry: ClassRegistry, transient: TransientFields) {
    this.registry = registry;
    this.transient = transient;
  }

  run(root: unknown): Buffer {
    this.stack.push(root);
    try {
      while (this.stack.length > 0) this.write(this.stack.pop());
    } catch (error) {
      if (error instanceof Refused) throw new StateCodecError(refusedText(root, error));
      throw error;
    }
    const metaText = Buffer.from(JSON.stringify(this.meta), 'utf8');
    // Padded with spaces (still JSON) so the columns after it start 8-byte aligned: a reader can view them in place.
    const meta = Buffer.concat([metaText, Buffer.alloc((8 - ((HEADER_BYTES + metaText.length) % 8)) % 8, ' ')]);
    const ops = this.ops.bytes();
    const numbers = this.numbers.bytes();
    const header = Buffer.alloc(HEADER_BYTES);
    [MAGIC, CHECKPOINT_LAYOUT_VERSION, meta.length, this.ops.length, this.numbers.length, this.blobBytes].forEach(
      (value, index) => header.writeUInt32LE(value, index * 4),
    );
    const bytes = Buffer.concat([header, meta, ops, numbers, ...this.blobs]);
    checksumOf(bytes).copy(bytes, FIELDS_BYTES);
    return bytes;
  }

  private string(value: string): number {
    let index = this.stringIndex.get(value);
    if (index === undefined) {
      index = this.meta.strings.push(value) - 1;
      this.stringIndex.set(value, index);
    }
    return index;
  }

  private write(value: unknown): void {
    switch (typeof value) {
      case 'string':
        this.ops.push(Tag.String);
        this.ops.push(this.string(value));
        return;
      case 'number':
        this.ops.push(Tag.Number);
        this.numbers.push(value);
        return;
      case 'boolean':
        this.ops.push(value ? Tag.True : Tag.False);
        return;
      case 'bigint': {
        let index = this.bigintIndex.get(value);
        if (index === undefined) {
          index = this.meta.bigints.push(value.toString()) - 1;
          this.bigintIndex.set(value, index);
        }
        this.ops.push(Tag.BigInt);
        this.ops.push(index);
        return;
      }
      case 'undefined':
        this.ops.push(Tag.Undefined);
        return;
      case 'function':
      case 'symbol':
        throw new Refused(value, `a ${typeof value} in the state`);
      case 'object':
        break;
    }
    if (value === null) {
      this.ops.push(Tag.Null);
      return;
    }
    const known = this.ids.get(value);
    if (known !== undefined) {
      this.ops.push(Tag.Reference);
      this.ops.push(known);
      return;
    }
    this.ids.set(value, this.ids.size);
    this.writeContainer(value);
  }

  private writeContainer(value: object): void {
    const prototype = Reflect.getPrototypeOf(value);
    if (prototype === Object.prototype) return this.writeFields(value, '', prototype);
    if (prototype === Array.prototype)
      return this.writeItems(Tag.Array, value as unknown[], (value as unknown[]).length);
    if (prototype === Map.prototype) return this.writeMap(value as Map<unknown, unknown>);
    if (prototype === Set.prototype)
      return this.writeItems(Tag.Set, value as Set<unknown>, (value as Set<unknown>).size);
    if (value instanceof Rng) return this.writeRng(value);
    if (Buffer.isBuffer(value)) return this.writeBytes(Tag.Buffer, value);
    if (prototype === ArrayBuffer.prototype)
      return this.writeBytes(Tag.ArrayBuffer, new Uint8Array(value as ArrayBuffer));
    const typedIndex = prototype === null ? undefined : TYPED_ARRAY_INDEX.get(prototype);
    if (typedIndex !== undefined) return this.writeTypedArray(value as Uint8Array, typedIndex);
    const className = prototype === null ? NULL_PROTOTYPE : this.registry.byPrototype.get(prototype);
    if (className === undefined)
      throw new Refused(
        value,
        `an instance of ${String((value as { constructor?: { name?: string } }).constructor?.name)}, a class not in the state registry`,
      );
    return this.writeFields(value, className, prototype);
  }

  /** Pushes `items` (an iterable of `size`) to be written after this header, first on top. */
  private writeItems(
    tag: typeof Tag.Array | typeof Tag.Set | typeof Tag.Map,
    items: Iterable<unknown>,
    size: number,
  ): void {
    this.ops.push(tag);
    this.ops.push(size);
    const at = this.stack.length;
    for (const item of items) this.stack.push(item);
    reverseFrom(this.stack, at);
  }

  private writeMap(map: Map<unknown, unknown>): void {
    this.ops.push(Tag.Map);
    this.ops.push(map.size);
    const at = this.stack.length;
    for (const [key, item] of map) this.stack.push(key, item);
    reverseFrom(this.stack, at);
  }

  /** An rng is a leaf: its seed, then its position's fields (all numbers: the Alea state, src/core/alea.ts). */
  private writeRng(rng: Rng): void {
    const state = rng.state() as unknown as Record<string, unknown>;
    const keys = Object.keys(state);
    this.ops.push(Tag.Rng);
    this.ops.push(this.string(rng.seed));
    this.ops.push(keys.length);
    for (const key of keys) {
      const field = state[key];
      if (typeof field !== 'number') throw new Refused(rng, `an rng whose state field '${key}' is not a number`);
      this.ops.push(this.string(key));
      this.numbers.push(field);
    }
  }

  /** A typed array is a leaf too: its kind, its ArrayBuffer (bytes, or a reference to them), offset and length. */
  private writeTypedArray(view: Uint8Array, typedIndex: number): void {
    this.ops.push(Tag.TypedArray);
    this.ops.push(typedIndex);
    this.write(view.buffer);
    this.ops.push(view.byteOffset);
    this.ops.push(view.length);
  }

  private writeBytes(tag: typeof Tag.ArrayBuffer | typeof Tag.Buffer, bytes: Uint8Array): void {
    this.ops.push(tag);
    this.numbers.push(this.blobBytes);
    this.numbers.push(bytes.byteLength);
    this.blobs.push(Buffer.from(bytes)); // a copy: the bytes are taken now, as the rest of the graph
    this.blobBytes += bytes.byteLength;
  }

  /** Own enumerable data properties (a symbol key or a non-enumerable property throws: the codec would drop it). */
  private writeFields(value: object, className: string, prototype: object | null): void {
    const keys = Object.keys(value);
    if (Reflect.ownKeys(value).length !== keys.length)
      throw new Refused(value, 'a symbol key or a non-enumerable property');
    const shape = this.shapeOf(className, prototype, Object.isFrozen(value), keys);
    this.ops.push(Tag.Object);
    this.ops.push(shape.index);
    const empties = prototype === null ? undefined : this.transient.get(prototype);
    const fields = value as Record<string, unknown>;
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index] as string;
      const empty = empties?.[key];
      this.stack.push(empty === undefined ? fields[key] : empty());
    }
  }

  private shapeOf(className: string, prototype: object | null, frozen: boolean, keys: readonly string[]): Shape {
    const last = this.lastShape.get(prototype);
    if (last !== undefined && last.frozen === frozen && sameKeys(last.keys, keys)) return last;
    const signature = `${className}\u0000${frozen ? 1 : 0}\u0000${keys.join('\u0000')}`;
    let shape = this.shapeIndex.get(signature);
    if (shape === undefined) {
      let classIndex = this.classIndex.get(className);
      if (classIndex === undefined) {
        classIndex = this.meta.classes.push(className) - 1;
        this.classIndex.set(className, classIndex);
      }
      shape = { index: this.meta.shapes.push([classIndex, frozen ? 1 : 0, ...keys]) - 1, frozen, keys };
      this.shapeIndex.set(signature, shape);
    }
    this.lastShape.set(prototype, shape);
    return shape;
  }
}

function reverseFrom(stack: unknown[], at: number): void {
  for (let low = at, high = stack.length - 1; low < high; low++, high--) {
    const swap = stack[low];
    stack[low] = stack[high];
    stack[high] = swap;
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
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

/** SHA-256 of a checkpoint's bytes but the checksum's own place in the header. */
function checksumOf(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes.subarray(0, FIELDS_BYTES)).update(bytes.subarray(HEADER_BYTES)).digest();
}

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
class CheckpointDecoder {
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
