/**
 * Writing a checkpoint: one depth-first walk over a platform's object graph with its own stack,
 * into the flat columns of checkpoint-layout.ts — each shape, string and bigint once, each
 * container an id at first meeting and a reference after. Why a file of its own: the encoder is
 * one half of the codec (checkpoint-codec.ts), run on the worker or the loop, never at a restart.
 */
import { Rng } from '../core/rng.ts';
import { Refused, refusedText } from '../platform/object-path.ts';
import { StateCodecError, type ClassRegistry, type TransientFields } from '../platform/state-codec.ts';
import {
  CHECKPOINT_LAYOUT_VERSION,
  FIELDS_BYTES,
  HEADER_BYTES,
  MAGIC,
  NULL_PROTOTYPE,
  SECTION_ENTRIES_MAX,
  TYPED_ARRAY_INDEX,
  Tag,
  checksumOf,
  type Meta,
} from './checkpoint-layout.ts';

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
export class CheckpointEncoder {
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
