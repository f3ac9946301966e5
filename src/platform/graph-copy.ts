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
 * path is searched for only when one happens. That work list also makes the copy resumable: it
 * can run in bounded steps (`copyGraphSliced`), a big container filled a piece per step, so afp
 * serve copies a large platform without holding its event loop; the one-shot copy is the same
 * steps run to the end.
 * Non-goals: serialization to bytes (src/platform/state-codec.ts), copying functions.
 */
import { Rng } from '../core/rng.ts';
import { IdentityMemo } from './identity-memo.ts';
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

/** Bytes of a buffer copied per unit of a step: a unit is about one value's copy (~0.1 µs), as 256 bytes are. */
const BYTES_PER_UNIT = 256;

export class GraphCopyError extends Error {}

/**
 * A copy made a bounded piece at a time (afp serve's snapshot and revert run it in slices, the
 * event loop free between them): `step(units)` copies about `units` values (BYTES_PER_UNIT bytes of
 * a buffer count as one: a casino journal's buffer spans steps) and says whether it is done;
 * `result()` is the copy once it is. The source must not change between steps (afp serve holds its
 * platform lock, src/server/platform-lock.ts). Steps do the very work of the one-shot copy in the
 * very same order, so the result is the same copy.
 */
export interface SlicedCopy<T> {
  step(units: number): boolean;
  result(): T;
}

/** The copy of `root`; throws GraphCopyError naming the path of anything it cannot copy. */
export function copyGraph<T>(root: T, options: GraphCopyOptions = {}): T {
  return copyToEnd(copyGraphSliced(root, options));
}

/** Copies every own property of `source` onto `target` (the revert: the live object keeps its identity). */
export function copyGraphInto(source: object, target: object, options: GraphCopyIntoOptions = {}): void {
  copyToEnd(copyGraphIntoSliced(source, target, options));
}

export interface GraphCopyIntoOptions {
  readonly shared?: ReadonlySet<unknown>;
  /** Own properties of the source left alone. */
  readonly skip?: ReadonlySet<string>;
}

/** `copyGraph` in steps. */
export function copyGraphSliced<T>(root: T, options: GraphCopyOptions = {}): SlicedCopy<T> {
  const copier = new GraphCopier(options);
  let copy: unknown;
  let started = false;
  return {
    step: (units) =>
      copier.guard(root, () => {
        if (!started) copy = copier.copy(root);
        started = true;
        return copier.fillSome(units);
      }),
    result: () => {
      assertDone(copier, started);
      return copy as T;
    },
  };
}

/**
 * `copyGraphInto` in steps. `target` is not touched before the last step: its own properties are
 * set to the finished copies all at once then, so until then it stays what it was.
 */
export function copyGraphIntoSliced(
  source: object,
  target: object,
  options: GraphCopyIntoOptions = {},
): SlicedCopy<void> {
  const copier = new GraphCopier({
    ...(options.shared === undefined ? {} : { shared: options.shared }),
    seed: new Map([[source, target]]),
  });
  let pending: Array<[PropertyKey, PropertyDescriptor]> | null = null;
  return {
    step: (units) =>
      copier.guard(source, () => {
        pending ??= Reflect.ownKeys(source)
          .filter((key) => typeof key !== 'string' || options.skip?.has(key) !== true)
          .map((key) => {
            const descriptor = Reflect.getOwnPropertyDescriptor(source, key) as PropertyDescriptor;
            descriptor.value = copier.copy(descriptor.value);
            return [key, descriptor];
          });
        if (!copier.fillSome(units)) return false;
        for (const [key, descriptor] of pending) Reflect.defineProperty(target, key, descriptor);
        pending = [];
        return true;
      }),
    result: () => assertDone(copier, pending !== null),
  };
}

/** Runs a sliced copy's steps to the end, in one go: its result. */
export function copyToEnd<T>(sliced: SlicedCopy<T>): T {
  while (!sliced.step(Number.MAX_SAFE_INTEGER));
  return sliced.result();
}

function assertDone(copier: GraphCopier, started: boolean): void {
  if (!started || !copier.done) throw new Error('a sliced graph copy is read before its last step');
}

class GraphCopier {
  private readonly memo = new IdentityMemo<unknown>();
  private readonly shared: ReadonlySet<unknown>;
  /** Source containers whose copies are made but not yet filled. */
  private readonly unfilled: object[] = [];
  /** The container being filled (in pieces: see fillSome). */
  private filling: Filling | null = null;

  constructor(options: GraphCopyOptions) {
    this.shared = options.shared ?? new Set();
    for (const [from, to] of options.seed ?? []) this.memo.set(from, to);
  }

  /** Runs `work`; a refusal becomes a GraphCopyError naming its path from `root`. */
  guard<T>(root: unknown, work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof Refused) throw new GraphCopyError(refusedText(root, error));
      throw error;
    }
  }

  /** True when every copy made is filled. */
  get done(): boolean {
    return this.filling === null && this.unfilled.length === 0;
  }

  /**
   * Fills copies made (the one being filled first, then the newest made) for about `units`
   * values; true when none is left. Containers are filled in pieces, so a Map of a million
   * entries spans many steps; the order of work is the one-shot copy's whatever the units.
   */
  fillSome(units: number): boolean {
    let left = units;
    while (left > 0) {
      if (this.filling === null) {
        const source = this.unfilled.pop();
        if (source === undefined) return true;
        this.filling = startFilling(source, this.memo.get(source));
      }
      left -= this.fillPiece(this.filling, left);
    }
    return this.done;
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

  /** A buffer's copy is made empty now, its bytes filled later, BYTES_PER_UNIT to a unit (a journal spans steps). */
  private copyBuffer(source: ArrayBuffer): ArrayBuffer {
    const known = this.memo.get(source);
    if (known !== undefined) return known as ArrayBuffer;
    this.unfilled.push(source);
    return this.remember(source, new ArrayBuffer(source.byteLength));
  }

  private copyView(source: Uint8Array): Uint8Array {
    const Kind = source.constructor as new (buffer: ArrayBuffer, byteOffset: number, length: number) => Uint8Array;
    return this.remember(
      source,
      new Kind(this.copyBuffer(source.buffer as ArrayBuffer), source.byteOffset, source.length),
    );
  }

  /** Fills up to `units` values of `filling`; ends it (frozenness kept) when its source is exhausted. Returns the units used. */
  private fillPiece(filling: Filling, units: number): number {
    let used = 0;
    const { source } = filling;
    if (filling.kind === 'bytes') return this.fillBytes(filling, units);
    if (filling.kind === 'array') {
      const array = filling.copy;
      const from = filling.next;
      const to = Math.min((source as unknown[]).length, from + units);
      for (let index = from; index < to; index++) array[index] = this.copy((source as unknown[])[index]);
      filling.next = to;
      used = to - from;
      if (to < (source as unknown[]).length) return used;
      if (Object.isFrozen(source)) Object.freeze(array);
    } else if (filling.kind === 'map' || filling.kind === 'set') {
      for (; used < units; used++) {
        const next = filling.entries.next();
        if (next.done === true) break;
        if (filling.kind === 'map') {
          const [key, entry] = next.value as [unknown, unknown];
          filling.copy.set(this.copy(key), this.copy(entry));
        } else filling.copy.add(this.copy(next.value));
      }
      if (used === units) return used;
    } else {
      const { keys, copy } = filling;
      for (; used < units && filling.next < keys.length; used++) {
        const key = keys[filling.next++] as PropertyKey;
        const descriptor = Reflect.getOwnPropertyDescriptor(source, key) as PropertyDescriptor;
        if (descriptor.get !== undefined || descriptor.set !== undefined)
          throw new Refused(source, `an accessor property '${String(key)}'`);
        // The descriptor is a fresh object of ours: its value is replaced in place (a spread copy
        // was one more object of garbage per property copied).
        descriptor.value = this.copy(descriptor.value);
        Reflect.defineProperty(copy, key, descriptor);
      }
      if (filling.next < keys.length) return used;
      if (Object.isFrozen(source)) Object.freeze(copy);
      else if (!Object.isExtensible(source)) Object.preventExtensions(copy);
    }
    this.filling = null;
    return Math.max(1, used);
  }

  /** Copies up to `units` × BYTES_PER_UNIT bytes of a buffer; ends it when all are copied. Returns the units used. */
  private fillBytes(filling: Filling & { kind: 'bytes' }, units: number): number {
    const from = filling.next;
    const to = Math.min(filling.source.byteLength, from + units * BYTES_PER_UNIT);
    new Uint8Array(filling.copy, from, to - from).set(new Uint8Array(filling.source, from, to - from));
    filling.next = to;
    if (to === filling.source.byteLength) this.filling = null;
    return Math.max(1, Math.ceil((to - from) / BYTES_PER_UNIT));
  }
}

/** A container being filled, and how far. */
type Filling =
  | { readonly kind: 'bytes'; readonly source: ArrayBuffer; readonly copy: ArrayBuffer; next: number }
  | { readonly kind: 'array'; readonly source: object; readonly copy: unknown[]; next: number }
  | {
      readonly kind: 'map';
      readonly source: object;
      readonly copy: Map<unknown, unknown>;
      readonly entries: Iterator<unknown>;
    }
  | { readonly kind: 'set'; readonly source: object; readonly copy: Set<unknown>; readonly entries: Iterator<unknown> }
  | {
      readonly kind: 'object';
      readonly source: object;
      readonly copy: object;
      readonly keys: PropertyKey[];
      next: number;
    };

function startFilling(source: object, copy: unknown): Filling {
  if (source instanceof ArrayBuffer) return { kind: 'bytes', source, copy: copy as ArrayBuffer, next: 0 };
  if (Array.isArray(source)) return { kind: 'array', source, copy: copy as unknown[], next: 0 };
  if (source instanceof Map)
    return { kind: 'map', source, copy: copy as Map<unknown, unknown>, entries: source.entries() };
  if (source instanceof Set) return { kind: 'set', source, copy: copy as Set<unknown>, entries: source.values() };
  return { kind: 'object', source, copy: copy as object, keys: Reflect.ownKeys(source), next: 0 };
}
