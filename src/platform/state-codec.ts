/**
 * The platform state as a JSON tree: the state digest (state-digest.ts), and the class registry
 * and transient fields the checkpoints' binary codec shares (src/server/checkpoint-codec.ts: a
 * leaner layout that loads fast, for bounded recovery; this tree is not read back).
 *
 * The format (STATE_CODEC_VERSION) is a tagged tree over the object graph, in one depth-first
 * pass; every container gets an id in the order it is first met, and a later meeting is a
 * reference, so shared objects and cycles come back shared:
 *   JSON string | boolean | null | finite number (not -0)      itself
 *   ["n", "NaN" | "Infinity" | "-Infinity" | "-0"]             the other numbers
 *   ["u"]  undefined          ["b", "123"]  bigint              ["r", id]  a container met before
 *   ["o", class, k1, v1, ...] an object of a registered class ("" = a plain object, "#null" = no prototype)
 *   ["f", class, k1, v1, ...] the same, frozen
 *   ["a", v...]  array   ["m", k1, v1, ...]  Map   ["s", v...]  Set
 *   ["t", kind, buffer, byteOffset, length]  typed array (its ArrayBuffer shared by views of it)
 *   ["A", base64]  ArrayBuffer   ["B", base64]  Buffer (its own bytes, not its pool)   ["g", seed, state]  Rng
 *   (typed arrays and ArrayBuffers in the machine's byte order: checkpoints do not move between machines of
 *   another endianness)
 * Classes are named by a registry (state-classes.ts): a prototype that is not registered, a
 * function, a symbol key or a non-enumerable property throws (a bug: state the codec would drop;
 * own accessors are not looked for — the state's classes define none, their getters live on
 * prototypes); its fingerprint (the sorted class names) is stored beside each checkpoint, so a
 * checkpoint of another build's classes is not loaded (the command log is replayed instead).
 * Transient fields (TRANSIENT) are written as their empty value: the Authorization memo holds key
 * texts (keys never at rest) and is a cache a restart rebuilds.
 * Why generic over the classes and not one hand-written serializer per class: the classes are
 * data (graph-copy.ts checks the same), and a walker that refuses what it does not know cannot
 * silently forget a field added later; explicit per-class codecs would have to be kept in step by
 * hand. Determinism: Map, Set and property orders are insertion orders, themselves deterministic.
 */
import { createHash } from 'node:crypto';
import { Rng } from '../core/rng.ts';

export const STATE_CODEC_VERSION = 1;
/** The class name of an object without a prototype (no class can be named so). */
const NULL_PROTOTYPE = '#null';

export class StateCodecError extends Error {}

/** The classes a state may hold, by name (names unique). */
export interface ClassRegistry {
  readonly byPrototype: ReadonlyMap<object, string>;
  readonly byName: ReadonlyMap<string, object>;
  /** SHA-256 of the sorted names and the codec version. */
  readonly fingerprint: string;
}

/** Fields (by class prototype) written as an empty value, and the empty value to write. */
export type TransientFields = ReadonlyMap<object, Readonly<Record<string, () => unknown>>>;

export function classRegistry(
  classes: ReadonlyArray<{ readonly prototype: object; readonly name: string }>,
  extra: ReadonlyArray<readonly [string, object]> = [],
): ClassRegistry {
  const byPrototype = new Map<object, string>();
  const byName = new Map<string, object>();
  const entries: Array<readonly [string, object]> = [
    ...classes.map((kind) => [kind.name, kind.prototype] as const),
    ...extra,
  ];
  for (const [name, prototype] of entries) {
    if (byName.has(name) || name === '') throw new StateCodecError(`class name '${name}' registered twice (or empty)`);
    byPrototype.set(prototype, name);
    byName.set(name, prototype);
  }
  const fingerprint = createHash('sha256')
    .update(`v${STATE_CODEC_VERSION}:${[...byName.keys()].sort().join(',')}`)
    .digest('hex');
  return { byPrototype, byName, fingerprint };
}

/** Typed array kinds: a view is written as its kind, its ArrayBuffer (shared by views of one buffer), offset and length. */
const TYPED_ARRAYS: Readonly<
  Record<string, new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView>
> = {
  Uint8Array,
  Uint16Array,
  Uint32Array,
  Int8Array,
  Int16Array,
  Int32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};
const TYPED_ARRAY_NAMES: ReadonlyMap<object, string> = new Map(
  Object.entries(TYPED_ARRAYS).map(([name, kind]) => [kind.prototype as object, name]),
);

/** Deepest nesting of the graph walked (the state has no long chains; an inline cycle stops here). */
const GRAPH_NESTING_MAX = 2_000;

/**
 * The tree of `root` (JSON-ready); throws StateCodecError naming the path of what it cannot write.
 * `inline` (the digest's form, not decodable): plain objects and arrays are written out at every
 * place they are met, never as references — whether two equal records are one object or two
 * depends on process-wide parse memos, not on the state (a replay and a checkpoint share them
 * differently), while class instances, Maps and Sets keep their identity.
 */
export function encodeState(
  root: unknown,
  registry: ClassRegistry,
  transient: TransientFields,
  options: { inline?: boolean } = {},
): unknown {
  return new StateEncoder(registry, transient, options.inline === true).encode(root, '$');
}

/** One pass of encodeState. The path of a value is kept as a stack of keys and written out only in an error. */
class StateEncoder {
  private readonly ids = new Map<unknown, number>();
  private readonly keys: string[] = [];
  private readonly registry: ClassRegistry;
  private readonly transient: TransientFields;
  private readonly inline: boolean;

  constructor(registry: ClassRegistry, transient: TransientFields, inline: boolean) {
    this.registry = registry;
    this.transient = transient;
    this.inline = inline;
  }

  encode(value: unknown, key: string): unknown {
    if (this.keys.length > GRAPH_NESTING_MAX)
      this.fail(`nested deeper than ${GRAPH_NESTING_MAX} (a cycle of plain records?)`);
    this.keys.push(key);
    try {
      return this.encodeValue(value);
    } finally {
      this.keys.pop();
    }
  }

  private fail(what: string): never {
    throw new StateCodecError(`${this.keys.join('.')}: ${what}`);
  }

  private encodeValue(value: unknown): unknown {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) && !Object.is(value, -0)
          ? value
          : ['n', Object.is(value, -0) ? '-0' : String(value)];
      case 'bigint':
        return ['b', value.toString()];
      case 'undefined':
        return ['u'];
      case 'function':
      case 'symbol':
        return this.fail(`a ${typeof value} in the state`);
      case 'object':
        break;
    }
    if (value === null) return null;
    const known = this.ids.get(value);
    if (known !== undefined) return ['r', known];
    const prototype = Reflect.getPrototypeOf(value) as object | null;
    const plain = prototype === Object.prototype || prototype === Array.prototype;
    if (!(this.inline && plain)) this.ids.set(value, this.ids.size);
    if (prototype === Array.prototype) return this.encodeItems('a', value as unknown[]);
    if (prototype === Map.prototype) {
      const out: unknown[] = ['m'];
      for (const [key, item] of value as Map<unknown, unknown>)
        out.push(this.encode(key, 'key'), this.encode(item, typeof key === 'string' ? key : 'value'));
      return out;
    }
    if (prototype === Set.prototype) return this.encodeItems('s', value as Set<unknown>);
    if (value instanceof Rng) return ['g', value.seed, value.state()];
    if (Buffer.isBuffer(value)) return ['B', value.toString('base64')];
    if (prototype === ArrayBuffer.prototype) return ['A', Buffer.from(value as ArrayBuffer).toString('base64')];
    const typedName = prototype === null ? undefined : TYPED_ARRAY_NAMES.get(prototype);
    if (typedName !== undefined) {
      const view = value as Uint8Array;
      return ['t', typedName, this.encode(view.buffer, 'buffer'), view.byteOffset, view.length];
    }
    const className =
      prototype === Object.prototype
        ? ''
        : prototype === null
          ? NULL_PROTOTYPE
          : this.registry.byPrototype.get(prototype);
    if (className === undefined)
      return this.fail(
        `an instance of ${String((value as { constructor?: { name?: string } }).constructor?.name)}, a class not in the state registry`,
      );
    return this.encodeFields(value, className, prototype);
  }

  private encodeItems(tag: string, items: Iterable<unknown>): unknown[] {
    const out: unknown[] = [tag];
    let index = 0;
    for (const item of items) out.push(this.encode(item, String(index++)));
    return out;
  }

  /** Own enumerable data properties (a symbol key or a non-enumerable property throws: the codec would drop it). */
  private encodeFields(value: object, className: string, prototype: object | null): unknown[] {
    const keys = Object.keys(value);
    if (Reflect.ownKeys(value).length !== keys.length) this.fail('a symbol key or a non-enumerable property');
    const out: unknown[] = [Object.isFrozen(value) ? 'f' : 'o', className];
    const empties = prototype === null ? undefined : this.transient.get(prototype);
    const fields = value as Record<string, unknown>;
    for (const key of keys) {
      const empty = empties?.[key];
      out.push(key, this.encode(empty === undefined ? fields[key] : empty(), key));
    }
    return out;
  }
}
