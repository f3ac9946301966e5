/**
 * Scheduler: a priority queue of events ordered by (time, sequence) — a total order, so two
 * events at the same instant always run in the order they were scheduled.
 *
 * The simulator pops events and moves its VirtualClock to each event's time before running it.
 * Limits: the queue size is bounded (`maxPending`); scheduling past the bound is a bug.
 */
import { assert } from './assert.ts';

export interface ScheduledEvent<T> {
  readonly atMs: number;
  readonly sequence: number;
  readonly payload: T;
}

export class Scheduler<T> {
  private readonly heap: ScheduledEvent<T>[] = [];
  private nextSequence = 0;
  private readonly maxPending: number;

  constructor(options: { maxPending?: number } = {}) {
    this.maxPending = options.maxPending ?? 1_000_000;
  }

  get size(): number {
    return this.heap.length;
  }

  schedule(atMs: number, payload: T): ScheduledEvent<T> {
    assert(Number.isSafeInteger(atMs), 'events are scheduled at integer milliseconds');
    assert(this.heap.length < this.maxPending, `scheduler holds at most ${this.maxPending} events`);
    const event: ScheduledEvent<T> = { atMs, sequence: this.nextSequence++, payload };
    this.heap.push(event);
    this.siftUp(this.heap.length - 1);
    return event;
  }

  peek(): ScheduledEvent<T> | undefined {
    return this.heap[0];
  }

  pop(): ScheduledEvent<T> | undefined {
    const top = this.heap[0];
    if (top === undefined) return undefined;
    const last = this.heap.pop() as ScheduledEvent<T>;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private static before<T>(a: ScheduledEvent<T>, b: ScheduledEvent<T>): boolean {
    return a.atMs < b.atMs || (a.atMs === b.atMs && a.sequence < b.sequence);
  }

  private siftUp(start: number): void {
    const heap = this.heap;
    let index = start;
    const item = heap[index] as ScheduledEvent<T>;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as ScheduledEvent<T>;
      if (!Scheduler.before(item, parent)) break;
      heap[index] = parent;
      index = parentIndex;
    }
    heap[index] = item;
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    const length = heap.length;
    let index = start;
    const item = heap[index] as ScheduledEvent<T>;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= length) break;
      const right = left + 1;
      let child = left;
      if (right < length && Scheduler.before(heap[right] as ScheduledEvent<T>, heap[left] as ScheduledEvent<T>))
        child = right;
      const childItem = heap[child] as ScheduledEvent<T>;
      if (!Scheduler.before(childItem, item)) break;
      heap[index] = childItem;
      index = child;
    }
    heap[index] = item;
  }
}
