/**
 * A deep copy of an object graph that keeps prototypes, shared references and cycles: the
 * in-memory snapshot of a Platform (POST /_afp/snapshot, src/server/time-travel.ts).
 *
 * Why generic, and why it is complete: the platform's state is data — plain objects, class
 * instances whose methods live on their prototypes, arrays, Maps, Sets, bigints — plus one kind of
 * hidden state, the rng streams (seedrandom keeps its position in a closure), copied through
 * `Rng.state()`. Completeness is checked, not hoped for: a function found as a value anywhere in
 * the graph (a closure may hide state the copy cannot see) throws, naming its path, unless the
 * caller declared that very object shared (immutable module tables). Everything else that is not
 * one of the known kinds (a DataView, a Date, a WeakMap, a Promise...) throws too.
 *
 * Invariants: each source object is copied once (a memo keeps identity: two references to one
 * object stay two references to one copy); `seed` pre-maps objects to existing ones (a revert
 * copies a snapshot INTO the live Platform object, so everything that points at the root points at
 * the live object); property descriptors (getters excepted: they are refused) and frozenness are
 * kept. Recursion depth is bounded (GRAPH_DEPTH_MAX): the state holds no long linked chains.
 * Non-goals: serialization to bytes (src/platform/state-codec.ts), copying functions.
 */
import { Rng } from '../core/rng.ts';

export const GRAPH_DEPTH_MAX = 2_000;

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
const TYPED_ARRAY_PROTOTYPES: ReadonlySet<unknown> = new Set([Uint8Array, Uint16Array, Uint32Array, Int8Array, Int16Array, Int32Array, Float64Array, BigInt64Array, BigUint64Array].map((kind) => kind.prototype));

export class GraphCopyError extends Error {}

/** The copy of `root`; throws GraphCopyError naming the path of anything it cannot copy. */
export function copyGraph<T>(root: T, options: GraphCopyOptions = {}): T {
  return new GraphCopier(options).copy(root, '$', 0) as T;
}

/** Copies every own property of `source` onto `target` (the revert: the live object keeps its identity). */
export function copyGraphInto(source: object, target: object, options: { shared?: ReadonlySet<unknown>; skip?: ReadonlySet<string> } = {}): void {
  const copier = new GraphCopier({ ...(options.shared === undefined ? {} : { shared: options.shared }), seed: new Map([[source, target]]) });
  for (const key of Reflect.ownKeys(source)) {
    if (typeof key === 'string' && options.skip?.has(key) === true) continue;
    const descriptor = Reflect.getOwnPropertyDescriptor(source, key) as PropertyDescriptor;
    const value = copier.copy(descriptor.value, `$.${String(key)}`, 1);
    Reflect.defineProperty(target, key, { ...descriptor, value });
  }
}

class GraphCopier {
  private readonly memo = new Map<unknown, unknown>();
  private readonly shared: ReadonlySet<unknown>;

  constructor(options: GraphCopyOptions) {
    this.shared = options.shared ?? new Set();
    for (const [from, to] of options.seed ?? []) this.memo.set(from, to);
  }

  copy(value: unknown, path: string, depth: number): unknown {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
    if (this.shared.has(value)) return value;
    const known = this.memo.get(value);
    if (known !== undefined) return known;
    if (depth > GRAPH_DEPTH_MAX) throw new GraphCopyError(`${path}: deeper than ${GRAPH_DEPTH_MAX} objects`);
    if (typeof value === 'function') throw new GraphCopyError(`${path}: a function (${value.name || 'anonymous'}) in the state; a closure may hold state a copy cannot see`);
    if (value instanceof Rng) return this.remember(value, new Rng(value.seed, value.state()));
    if (Array.isArray(value)) return this.copyArray(value, path, depth);
    if (value instanceof Map) return this.copyMap(value, path, depth);
    if (value instanceof Set) return this.copySet(value, path, depth);
    const prototype: unknown = Reflect.getPrototypeOf(value);
    if (TYPED_ARRAY_PROTOTYPES.has(prototype)) return this.copyView(value as Uint8Array);
    if (value instanceof ArrayBuffer) return this.copyBuffer(value);
    if (prototype === Buffer.prototype) return this.remember(value, Buffer.from(value as Buffer));
    if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof WeakMap || value instanceof WeakSet || value instanceof Promise) {
      throw new GraphCopyError(`${path}: a ${value.constructor.name}, not a kind the copy knows`);
    }
    return this.copyObject(value, prototype as object | null, path, depth);
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
    return this.remember(source, new Kind(this.copyBuffer(source.buffer as ArrayBuffer), source.byteOffset, source.length));
  }

  private copyArray(source: unknown[], path: string, depth: number): unknown[] {
    const copy = this.remember(source, new Array<unknown>(source.length));
    for (let index = 0; index < source.length; index++) copy[index] = this.copy(source[index], `${path}[${index}]`, depth + 1);
    if (Object.isFrozen(source)) Object.freeze(copy);
    return copy;
  }

  private copyMap(source: Map<unknown, unknown>, path: string, depth: number): Map<unknown, unknown> {
    if (Reflect.getPrototypeOf(source) !== Map.prototype) throw new GraphCopyError(`${path}: a subclass of Map`);
    const copy = this.remember(source, new Map<unknown, unknown>());
    for (const [key, entry] of source) copy.set(this.copy(key, `${path}.key`, depth + 1), this.copy(entry, `${path}.get(${typeof key === 'string' ? key : '…'})`, depth + 1));
    return copy;
  }

  private copySet(source: Set<unknown>, path: string, depth: number): Set<unknown> {
    if (Reflect.getPrototypeOf(source) !== Set.prototype) throw new GraphCopyError(`${path}: a subclass of Set`);
    const copy = this.remember(source, new Set<unknown>());
    for (const entry of source) copy.add(this.copy(entry, `${path}.entry`, depth + 1));
    return copy;
  }

  private copyObject(source: object, prototype: object | null, path: string, depth: number): object {
    const copy = this.remember(source, Object.create(prototype) as object);
    for (const key of Reflect.ownKeys(source)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(source, key) as PropertyDescriptor;
      const where = `${path}.${String(key)}`;
      if (descriptor.get !== undefined || descriptor.set !== undefined) throw new GraphCopyError(`${where}: an accessor property`);
      Reflect.defineProperty(copy, key, { ...descriptor, value: this.copy(descriptor.value, where, depth + 1) });
    }
    if (Object.isFrozen(source)) Object.freeze(copy);
    else if (!Object.isExtensible(source)) Object.preventExtensions(copy);
    return copy;
  }
}
