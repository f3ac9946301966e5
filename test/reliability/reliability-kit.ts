// Shared parts of the reliability suite (issue 17 part 6): a digest of a served platform's state,
// a lean keep-alive HTTP client that sends exactly the bytes it is given and never throws (a
// failure is status 0, counted like any answer), and a counter of statuses printed as one line.
// The rate limiter's buckets are left out of the digest on purpose: every request counts against
// them (docs/decisions/serve.md), so a hostile request changes them by design and nothing else.
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { Platform } from '../../src/platform/platform.ts';

/** Ledger (every account, transfer count), agents, escrows and pending platform timers. */
export function stateDigest(platform: Platform): string {
  const accounts = [...platform.ledger.accounts()].map(([name, micro]) => `${name}=${micro}`).sort();
  const parts = [
    `transfers=${platform.ledger.transfers}`,
    `agents=${platform.agents.size}`,
    `escrows=${platform.escrow.size}`,
    `timers=${platform.timers.size}`,
    ...accounts,
  ];
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** One request to `baseUrl`; status 0 when the connection failed or `timeoutMs` passed. */
export function send(baseUrl: string, raw: RawRequest, timeoutMs = 10_000): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: raw.method,
        path: raw.path,
        headers: {
          ...raw.headers,
          ...(raw.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(raw.body)) }),
        },
        agent,
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', () => resolve({ status: 0, headers: {}, text: '' }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', () => resolve({ status: 0, headers: {}, text: '' }));
    outgoing.end(raw.body);
  });
}

/** JSON of an answer, or null. */
export function jsonOf(answer: RawAnswer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(answer.text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export class StatusCounts {
  readonly counts = new Map<number, number>();
  add(status: number): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
  }
  get total(): number {
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return total;
  }
  count(predicate: (status: number) => boolean): number {
    let total = 0;
    for (const [status, count] of this.counts) if (predicate(status)) total += count;
    return total;
  }
  text(): string {
    return [...this.counts]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}:${count}`)
      .join(' ');
  }
}

/** Runs `work(i)` for i in 0..count-1, `concurrency` at a time. */
export async function pool(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}
