/**
 * One instance kept alive for the life of the process, per class whose instances are otherwise all
 * short-lived (a failure, a bet's draw stream, an HMAC).
 * Why: V8 reaches a class's instance layout (its hidden class) from the constructor only weakly. A
 * full collection that finds no instance alive drops the layout, and with it the optimized code of
 * every function that checked it, which then runs unoptimized until compiled again
 * (--trace-deopt-verbose: "embedded weak objects cleared"). One live instance keeps the layout.
 * Memory: module-level calls only, a handful of small objects (KEPT_MAX bounds it).
 */
import { assert } from './assert.ts';

const KEPT_MAX = 64;
const kept: object[] = [];

/** Keeps `instance` reachable for good and returns it. */
export function keepLayout<T extends object>(instance: T): T {
  assert(kept.length < KEPT_MAX, `at most ${KEPT_MAX} instances are kept for their layout`);
  kept.push(instance);
  return instance;
}
