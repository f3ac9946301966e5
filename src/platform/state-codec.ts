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
import { TYPED_ARRAY_KINDS, type TypedArrayKind } from './typed-array-kinds.ts';
import { IdentityMemo } from './identity-memo.ts';

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
const TYPED_ARRAYS: Readonly<Record<string, TypedArrayKind>> = Object.fromEntries(
  TYPED_ARRAY_KINDS.map((kind) => [kind.name, kind]),
);
const TYPED_ARRAY_NAMES: ReadonlyMap<object, string> = new Map(
  Object.entries(TYPED_ARRAYS).map(([name, kind]) => [kind.prototype as object, name]),
);

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
  return JSON.parse(encodeStateText(root, registry, transient, options));
}

/**
 * The JSON text of encodeState's tree (exactly `JSON.stringify(encodeState(...))`), written by a walk
 * with its own stack: the tree nests as deep as the graph, and the rate limiter's entries form a
 * list by last use (`older`/`newer`) as long as the limiter holds entries, where a recursive walk
 * (or JSON.stringify of the tree) runs out of stack. An inline plain record met again inside
 * itself (a cycle the inline form cannot write) is refused.
 */
export function encodeStateText(
  root: unknown,
  registry: ClassRegistry,
  transient: TransientFields,
  options: { inline?: boolean } = {},
): string {
  return new StateEncoder(registry, transient, options.inline === true).run(root);
}

/** `encodeStateText` in steps: `step(units)` writes about `units` more items into `text`, which the caller may take away between steps. */
export function stateTextSliced(
  root: unknown,
  registry: ClassRegistry,
  transient: TransientFields,
  options: { inline?: boolean } = {},
): { text: string; step(units: number): boolean } {
  const encoder = new StateEncoder(registry, transient, options.inline === true);
  encoder.begin(root);
  return encoder;
}

/**
 * A container being written: `step` writes its next item (a ',' then a piece of text, or a value
 * handed to `enter`) and says whether there was one. `inline`: the inline record it is, or null.
 */
interface Frame {
  readonly inline: object | null;
  step(encoder: StateEncoder): boolean;
}

/** One pass of encodeStateText. The path of a value is kept as a stack of keys and written out only in an error. */
class StateEncoder {
  /** Object → its id (an IdentityMemo: one Map's rehash of 600k ids held a digest's slice ~35 ms). */
  private readonly ids = new IdentityMemo<number>();
  private readonly keys: string[] = [];
  private readonly registry: ClassRegistry;
  private readonly transient: TransientFields;
  private readonly inline: boolean;
  /** Inline records being written (an ancestor met again is a cycle). */
  private readonly open = new Set<object>();
  /** The text so far (one string grown in place: many small pieces, joined by the engine as they come). */
  text = '';

  constructor(registry: ClassRegistry, transient: TransientFields, inline: boolean) {
    this.registry = registry;
    this.transient = transient;
    this.inline = inline;
  }

  run(root: unknown): string {
    this.begin(root);
    while (!this.step(Number.MAX_SAFE_INTEGER));
    return this.text;
  }

  /** Containers being written, innermost last. */
  private readonly stack: Frame[] = [];

  /** Writes `root`'s leaf or opening; `step` writes the rest. */
  begin(root: unknown): void {
    const enter = (value: unknown, key: string): void => {
      this.keys.push(key);
      const frame = this.start(value);
      if (frame === null) this.keys.pop();
      else this.stack.push(frame);
    };
    enter(root, '$');
    this.enter = enter;
  }

  /**
   * Writes about `units` more items; true when the text is whole. Resumable, for a digest taken
   * in slices (state-digest.ts `digestSliced`): the caller may take `text` away between steps.
   */
  step(units: number): boolean {
    let left = units;
    for (let frame = this.stack.at(-1); frame !== undefined && left > 0; frame = this.stack.at(-1), left--) {
      if (frame.step(this)) continue;
      this.text += ']';
      this.stack.pop();
      this.keys.pop();
      if (frame.inline !== null) this.open.delete(frame.inline);
    }
    return this.stack.length === 0;
  }

  /** Writes a value inside the current container (set by `run`). */
  enter: (value: unknown, key: string) => void = () => undefined;

  private fail(what: string): never {
    throw new StateCodecError(`${this.keys.join('.')}: ${what}`);
  }

  /** Writes a leaf whole, or a container's opening (its tag and class): then its frame, whose tokens follow. */
  private start(value: unknown): Frame | null {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        this.text += JSON.stringify(value);
        return null;
      case 'number':
        this.text +=
          Number.isFinite(value) && !Object.is(value, -0)
            ? JSON.stringify(value)
            : JSON.stringify(['n', Object.is(value, -0) ? '-0' : String(value)]);
        return null;
      case 'bigint':
        this.text += `["b","${value.toString()}"]`;
        return null;
      case 'undefined':
        this.text += '["u"]';
        return null;
      case 'function':
      case 'symbol':
        return this.fail(`a ${typeof value} in the state`);
      case 'object':
        break;
    }
    if (value === null) {
      this.text += 'null';
      return null;
    }
    const known = this.ids.get(value);
    if (known !== undefined) {
      this.text += `["r",${known}]`;
      return null;
    }
    const prototype = Reflect.getPrototypeOf(value) as object | null;
    const written = this.inline && (prototype === Object.prototype || prototype === Array.prototype);
    if (written) {
      if (this.open.has(value)) this.fail('a plain record inside itself (a cycle the inline form cannot write)');
      this.open.add(value);
    } else this.ids.set(value, this.ids.size);
    return this.container(value, prototype, written ? value : null);
  }

  /** The opening of a container and its frame; null for the kinds written whole here. */
  private container(value: object, prototype: object | null, inline: object | null): Frame | null {
    if (prototype === Array.prototype) return this.opened('a', new ItemsFrame((value as unknown[]).values(), inline));
    if (prototype === Map.prototype) return this.opened('m', new MapFrame(value as Map<unknown, unknown>, inline));
    if (prototype === Set.prototype) return this.opened('s', new ItemsFrame((value as Set<unknown>).values(), inline));
    if (value instanceof Rng) return this.whole(['g', value.seed, value.state()]);
    if (Buffer.isBuffer(value)) return this.whole(['B', value.toString('base64')]);
    if (prototype === ArrayBuffer.prototype)
      return this.whole(['A', Buffer.from(value as ArrayBuffer).toString('base64')]);
    const typedName = prototype === null ? undefined : TYPED_ARRAY_NAMES.get(prototype);
    if (typedName !== undefined) {
      const view = value as Uint8Array;
      this.text += `["t",${JSON.stringify(typedName)},`;
      this.keys.push('buffer');
      this.start(view.buffer); // an ArrayBuffer: written whole (or a reference)
      this.keys.pop();
      this.text += `,${view.byteOffset},${view.length}]`;
      return null;
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
    const keys = Object.keys(value);
    if (Reflect.ownKeys(value).length !== keys.length) this.fail('a symbol key or a non-enumerable property');
    this.text += `[${JSON.stringify(Object.isFrozen(value) ? 'f' : 'o')},${JSON.stringify(className)}`;
    const empties = prototype === null ? undefined : this.transient.get(prototype);
    return new FieldsFrame(value as Record<string, unknown>, keys, empties, inline);
  }

  private opened(tag: string, frame: Frame): Frame {
    this.text += `[${JSON.stringify(tag)}`;
    return frame;
  }

  private whole(tree: unknown[]): null {
    this.text += JSON.stringify(tree);
    return null;
  }
}

/** An array's or a Set's values, each with its index as its key. */
class ItemsFrame implements Frame {
  readonly inline: object | null;
  private readonly values: Iterator<unknown>;
  private index = 0;

  constructor(values: Iterator<unknown>, inline: object | null) {
    this.values = values;
    this.inline = inline;
  }

  step(encoder: StateEncoder): boolean {
    const next = this.values.next();
    if (next.done === true) return false;
    encoder.text += ',';
    encoder.enter(next.value, String(this.index++));
    return true;
  }
}

/** A Map's entries: each key (path 'key'), then its value (path: the key when a string). */
class MapFrame implements Frame {
  readonly inline: object | null;
  private readonly entries: Iterator<[unknown, unknown]>;
  private pending: [unknown, unknown] | null = null;

  constructor(map: Map<unknown, unknown>, inline: object | null) {
    this.entries = map.entries();
    this.inline = inline;
  }

  step(encoder: StateEncoder): boolean {
    const pending = this.pending;
    if (pending !== null) {
      this.pending = null;
      encoder.text += ',';
      encoder.enter(pending[1], typeof pending[0] === 'string' ? pending[0] : 'value');
      return true;
    }
    const next = this.entries.next();
    if (next.done === true) return false;
    this.pending = next.value;
    encoder.text += ',';
    encoder.enter(next.value[0], 'key');
    return true;
  }
}

/** Own enumerable data properties, each its name then its value (a transient field's empty value instead of its own). */
class FieldsFrame implements Frame {
  readonly inline: object | null;
  private readonly fields: Record<string, unknown>;
  private readonly keys: readonly string[];
  private readonly empties: Readonly<Record<string, () => unknown>> | undefined;
  private index = 0;

  constructor(
    fields: Record<string, unknown>,
    keys: readonly string[],
    empties: Readonly<Record<string, () => unknown>> | undefined,
    inline: object | null,
  ) {
    this.fields = fields;
    this.keys = keys;
    this.empties = empties;
    this.inline = inline;
  }

  step(encoder: StateEncoder): boolean {
    const key = this.keys[this.index++];
    if (key === undefined) return false;
    const empty = this.empties?.[key];
    encoder.text += `,${JSON.stringify(key)},`;
    encoder.enter(empty === undefined ? this.fields[key] : empty(), key);
    return true;
  }
}
