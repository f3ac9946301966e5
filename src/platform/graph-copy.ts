/**
 * A deep copy of an object graph that keeps prototypes, shared references and cycles: the
 * in-memory snapshot of a Platform (POST /_afp/snapshot, src/server/time-travel.ts).
 *
 * Why generic, and why it is complete: the platform's state is data — plain objects, class
 * instances whose methods live on their prototypes, arrays, Maps, Sets, bigints — plus one kind of
 * hidden state, the rng streams (their position is copied, not shared), copied through
 * `Rng.state()`. Completeness is checked, not hoped for: a function found as a value anywhere in
 * the graph (a closure may hide state the copy cannot see) throws, naming its path, unless the
 * caller declared that very object shared (immutable module tables). Everything else that is not
 * one of the known kinds (a DataView, a Date, a WeakMap, a Promise...) throws too.
 *
 * Invariants: each source object is copied once (a memo keeps identity: two references to one
 * object stay two references to one copy); `seed` pre-maps objects to existing ones (a revert
 * copies a snapshot INTO the live Platform object, so everything that points at the root points at
 * the live object); property descriptors (getters excepted: they are refused) and frozenness are
 * kept. No recursion: a container's copy is made empty when first met and filled later from a work
 * list, because the rate limiter's entries form a list by last use (`older`/`newer`) that a
 * depth-first walk would descend as deep as it is long (up to the limiter's bound). A refusal's
 * path is searched for only when one happens.
 * Non-goals: serialization to bytes (src/platform/state-codec.ts), copying functions.
 */
import { Rng } from '../core/rng.ts';
import { Refused, refusedText } from './object-path.ts';
import { TYPED_ARRAY_KINDS } from './typed-array-kinds.ts';

export interface GraphCopyOptions {
  /** Objects kept by reference (immutable tables, functions of module scope). */
  readonly shared?: ReadonlySet<unknown>;
  /** Source object → the object to use instead (the revert's root mapping). */
  readonly seed?: ReadonlyMap<object, object>;
}

/**
 * Typed arrays: views are copied over a copy of their ArrayBuffer, one copy per buffer, so two
 * views of one buffer (the casino journal's Float64Array and BigInt64Array) stay two views of one
 * copy. A Buffer is copied alone (Buffer.from): its pool is not state, and holds other bytes.
 */
const TYPED_ARRAY_PROTOTYPES: ReadonlySet<unknown> = new Set(TYPED_ARRAY_KINDS.map((kind) => kind.prototype));

export class GraphCopyError extends Error {}

/** The copy of `root`; throws GraphCopyError naming the path of anything it cannot copy. */
export function copyGraph<T>(root: T, options: GraphCopyOptions = {}): T {
  const copier = new GraphCopier(options);
  return copier.run(root, () => copier.copy(root)) as T;
}

/** Copies every own property of `source` onto `target` (the revert: the live object keeps its identity). */
export function copyGraphInto(
  source: object,
  target: object,
  options: { shared?: ReadonlySet<unknown>; skip?: ReadonlySet<string> } = {},
): void {
  const copier = new GraphCopier({
    ...(options.shared === undefined ? {} : { shared: options.shared }),
    seed: new Map([[source, target]]),
  });
  copier.run(source, () => {
    for (const key of Reflect.ownKeys(source)) {
      if (typeof key === 'string' && options.skip?.has(key) === true) continue;
      const descriptor = Reflect.getOwnPropertyDescriptor(source, key) as PropertyDescriptor;
      Reflect.defineProperty(target, key, { ...descriptor, value: copier.copy(descriptor.value) });
    }
  });
}

class GraphCopier {
  private readonly memo = new Map<unknown, unknown>();
  private readonly shared: ReadonlySet<unknown>;
  /** Source containers whose copies are made but not yet filled. */
  private readonly unfilled: object[] = [];

  constructor(options: GraphCopyOptions) {
    this.shared = options.shared ?? new Set();
    for (const [from, to] of options.seed ?? []) this.memo.set(from, to);
  }

  /** Runs `start` (which copies the first values), then fills every copy made, until none is left. */
  run<T>(root: unknown, start: () => T): T {
    try {
      const result = start();
      for (let source = this.unfilled.pop(); source !== undefined; source = this.unfilled.pop()) this.fill(source);
      return result;
    } catch (error) {
      if (error instanceof Refused) throw new GraphCopyError(refusedText(root, error));
      throw error;
    }
  }

  /** The copy of `value`: itself if a primitive or shared; a container's copy is made now and filled later. */
  copy(value: unknown): unknown {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
    if (this.shared.has(value)) return value;
    const known = this.memo.get(value);
    if (known !== undefined) return known;
    if (typeof value === 'function')
      throw new Refused(
        value,
        `a function (${value.name || 'anonymous'}) in the state; a closure may hold state a copy cannot see`,
      );
    if (value instanceof Rng) return this.remember(value, new Rng(value.seed, value.state()));
    const prototype: unknown = Reflect.getPrototypeOf(value);
    if (TYPED_ARRAY_PROTOTYPES.has(prototype)) return this.copyView(value as Uint8Array);
    if (value instanceof ArrayBuffer) return this.copyBuffer(value);
    if (prototype === Buffer.prototype) return this.remember(value, Buffer.from(value as Buffer));
    if (
      ArrayBuffer.isView(value) ||
      value instanceof Date ||
      value instanceof WeakMap ||
      value instanceof WeakSet ||
      value instanceof Promise
    ) {
      throw new Refused(value, `a ${value.constructor.name}, not a kind the copy knows`);
    }
    if ((value instanceof Map || value instanceof Set) && prototype !== Map.prototype && prototype !== Set.prototype)
      throw new Refused(value, `a subclass of ${value instanceof Map ? 'Map' : 'Set'}`);
    const empty = Array.isArray(value)
      ? new Array<unknown>(value.length)
      : value instanceof Map
        ? new Map<unknown, unknown>()
        : value instanceof Set
          ? new Set<unknown>()
          : (Object.create(prototype as object | null) as object);
    this.unfilled.push(value);
    return this.remember(value, empty);
  }

  private remember<T>(source: unknown, copy: T): T {
    this.memo.set(source, copy);
    return copy;
  }

  private copyBuffer(source: ArrayBuffer): ArrayBuffer {
    const known = this.memo.get(source);
    return known === undefined ? this.remember(source, source.slice(0)) : (known as ArrayBuffer);
  }

  private copyView(source: Uint8Array): Uint8Array {
    const Kind = source.constructor as new (buffer: ArrayBuffer, byteOffset: number, length: number) => Uint8Array;
    return this.remember(
      source,
      new Kind(this.copyBuffer(source.buffer as ArrayBuffer), source.byteOffset, source.length),
    );
  }

  /** Fills the copy of `source` (made by `copy`) with copies of its contents. */
  private fill(source: object): void {
    const copy = this.memo.get(source);
    if (Array.isArray(source)) {
      const array = copy as unknown[];
      for (let index = 0; index < source.length; index++) array[index] = this.copy(source[index]);
      if (Object.isFrozen(source)) Object.freeze(array);
    } else if (source instanceof Map) {
      const map = copy as Map<unknown, unknown>;
      for (const [key, entry] of source) map.set(this.copy(key), this.copy(entry));
    } else if (source instanceof Set) {
      const set = copy as Set<unknown>;
      for (const entry of source) set.add(this.copy(entry));
    } else this.fillObject(source, copy as object);
  }

  private fillObject(source: object, copy: object): void {
    for (const key of Reflect.ownKeys(source)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(source, key) as PropertyDescriptor;
      if (descriptor.get !== undefined || descriptor.set !== undefined)
        throw new Refused(source, `an accessor property '${String(key)}'`);
      Reflect.defineProperty(copy, key, { ...descriptor, value: this.copy(descriptor.value) });
    }
    if (Object.isFrozen(source)) Object.freeze(copy);
    else if (!Object.isExtensible(source)) Object.preventExtensions(copy);
  }
}
