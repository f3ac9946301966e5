/**
 * The path of one value inside an object graph ("$.a.b"), for the error of a walk that refused it
 * (the graph copy, the checkpoint codec): a breadth-first search, so the shortest path. Run only
 * when a walk refused something, which is a bug; the walks themselves never pay for it.
 * Steps: a property's key, `key` / `get(K)` for a Map entry's key / value, `entry` for a Set's
 * member. Getters are not called (a descriptor's value is read); Rngs and typed arrays are leaves.
 * A walk throws Refused at the value it cannot take, and its entry point turns that into its own
 * error with the path (refusedText), so the walk itself carries no path.
 */
import { Rng } from '../core/rng.ts';

/** A value a walk cannot take: `value` is what it met (its path is searched for from the root only then). */
export class Refused extends Error {
  readonly value: unknown;

  constructor(value: unknown, what: string) {
    super(what);
    this.value = value;
  }
}

/** `$.a.b: what was refused`, for the error a walk from `root` throws. */
export function refusedText(root: unknown, refused: Refused): string {
  return `${pathTo(root, refused.value)}: ${refused.message}`;
}

export function pathTo(root: unknown, target: unknown): string {
  const parents = new Map<unknown, { parent: unknown; key: string }>([[root, { parent: undefined, key: '$' }]]);
  const queue: unknown[] = [root];
  const path = (value: unknown): string => {
    const steps: string[] = [];
    for (let at = parents.get(value); at !== undefined; at = parents.get(at.parent)) steps.unshift(at.key);
    return steps.join('.');
  };
  for (let head = 0; head < queue.length; head++) {
    const value = queue[head];
    if (value === target) return path(value);
    if (value === null || typeof value !== 'object' || value instanceof Rng || ArrayBuffer.isView(value)) continue;
    for (const [key, child] of childrenOf(value)) {
      if (child === target) return `${path(value)}.${key}`;
      if (child !== null && (typeof child === 'object' || typeof child === 'function') && !parents.has(child)) {
        parents.set(child, { parent: value, key });
        queue.push(child);
      }
    }
  }
  return '$ (somewhere)';
}

function childrenOf(value: object): Array<[string, unknown]> {
  if (value instanceof Map) {
    return [...value].flatMap(([key, item]): Array<[string, unknown]> => [
      ['key', key],
      [`get(${typeof key === 'string' ? key : '…'})`, item],
    ]);
  }
  if (value instanceof Set) return [...value].map((item): [string, unknown] => ['entry', item]);
  return Reflect.ownKeys(value).map((key): [string, unknown] => [
    String(key),
    Reflect.getOwnPropertyDescriptor(value, key)?.value,
  ]);
}
