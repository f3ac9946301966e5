/**
 * Types for the part of autocannon 9.0.0 (a CommonJS package without declarations) that afp uses:
 * `autocannon(options)` returning an instance that is both an EventEmitter and a promise of the
 * results, `instance.stop()`, and the per-connection `Client` handed to `setupClient`.
 * Beside the documented client events (`response`, `headers`, `body`, `reset`), 9.0.0's client
 * (lib/httpClient.js) emits `request` just before each write, `headers` when an answer's head is parsed, `timeout` after reconnecting on a
 * request that got no answer in time, and `connError` on a socket error; autocannon-engine.ts
 * relies on those four, and its tests exercise each of them (the version is pinned).
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface AutocannonClient extends EventEmitter {
    on(event: 'request', listener: () => void): this;
    /** The answer's head is parsed (http-parser-js's info); `shouldKeepAlive` false: the target closes the connection after it. */
    on(
      event: 'headers',
      listener: (info: { readonly statusCode: number; readonly shouldKeepAlive: boolean }) => void,
    ): this;
    on(event: 'response', listener: (statusCode: number, responseBytes: number, responseTimeMs: number) => void): this;
    on(event: 'timeout', listener: () => void): this;
    on(event: 'connError', listener: (error: Error) => void): this;
  }

  export interface AutocannonOptions {
    readonly url: string;
    readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
    readonly body?: string | Buffer;
    readonly headers?: Readonly<Record<string, string>>;
    readonly connections?: number;
    /** Seconds; ignored when `amount` is given. */
    readonly duration?: number;
    /** Requests in all (spread over the connections); at least `connections`. */
    readonly amount?: number;
    /** Seconds without an answer before a connection is reset; at least 1. */
    readonly timeout?: number;
    /** Milliseconds between samples; the run also notices its end only on a sample. */
    readonly sampleInt?: number;
    readonly pipelining?: number;
    readonly setupClient?: (client: AutocannonClient) => void;
  }

  /** The aggregated result (lib/aggregateResult.js). */
  export interface AutocannonResult {
    /** `total`: answers received; `sent`: requests written. */
    readonly requests: { readonly total: number; readonly sent: number; readonly average: number };
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    /** Seconds, to 10 ms. */
    readonly duration: number;
    readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>;
    readonly latency: {
      readonly p50: number;
      readonly p99: number;
      readonly max: number;
      readonly average: number;
      readonly totalCount: number;
    };
  }

  export interface AutocannonInstance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }

  export default function autocannon(options: AutocannonOptions): AutocannonInstance;
}
