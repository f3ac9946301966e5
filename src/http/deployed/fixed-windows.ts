/**
 * Fixed windows in memory, as the deployment counts (spec/DEPLOYED.md §1.3; agent-casino
 * src/middleware/rateLimit.ts): a key's window opens at its first request and lasts `windowMs`; a
 * request after `resetAtMs` opens a new one; every request counts, refused ones too; a request is
 * allowed while its window's count is at most the limit. Time comes in as `nowMs` (the served
 * clock, so a manual clock moves the windows).
 * Limits: at most `keysMax` live keys; past it the expired windows are swept, and if every window
 * is still live the oldest is dropped (Map order: deterministic).
 */
import { assert } from '../../core/assert.ts';

interface Window {
  count: number;
  readonly resetAtMs: number;
}

export interface WindowCount {
  readonly allowed: boolean;
  readonly count: number;
  readonly resetAtMs: number;
}

export const WINDOW_KEYS_MAX = 100_000;

export class FixedWindows {
  private readonly windows = new Map<string, Window>();
  private readonly keysMax: number;

  constructor(keysMax: number = WINDOW_KEYS_MAX) {
    assert(Number.isSafeInteger(keysMax) && keysMax >= 1, 'a window table holds at least one key');
    this.keysMax = keysMax;
  }

  get size(): number {
    return this.windows.size;
  }

  /** Counts one request under `key`. */
  hit(key: string, limit: number, windowMs: number, nowMs: number): WindowCount {
    let window = this.live(key, nowMs);
    if (window === undefined) {
      this.makeRoom(nowMs);
      window = { count: 0, resetAtMs: nowMs + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { allowed: window.count <= limit, count: window.count, resetAtMs: window.resetAtMs };
  }

  /** Whether `key` has a live window (counted without a new request). */
  isOpen(key: string, nowMs: number): boolean {
    return this.live(key, nowMs) !== undefined;
  }

  private live(key: string, nowMs: number): Window | undefined {
    const window = this.windows.get(key);
    if (window === undefined) return undefined;
    if (nowMs > window.resetAtMs) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private makeRoom(nowMs: number): void {
    if (this.windows.size < this.keysMax) return;
    for (const [key, window] of this.windows) if (nowMs > window.resetAtMs) this.windows.delete(key);
    if (this.windows.size < this.keysMax) return;
    const oldest = this.windows.keys().next();
    if (oldest.done !== true) this.windows.delete(oldest.value);
  }
}
