/**
 * The raw HMAC phase of `npm run bench`: how many HMAC-SHA256 node:crypto computes per second in
 * a tight loop, `createHmac('sha256', key).update(message).digest()`, with the shapes of the
 * casino's draws (fair/draw-stream.ts): the key is a server seed's 64-character hex text, the
 * message "<client_seed>:<nonce>". The casino phase's bets/s over this rate is the issue's
 * ratio (target ≥ 0.3): every bet computes at least one such block, so the ratio says how much
 * of a bet's time the rest of the path takes.
 *
 * Keys and messages are made before the timed loop (SEEDS keys as the casino derives commitments
 * of its seeds, client seeds of 16 hex, nonces 0..NONCES−1 as one seed serves them), so the loop
 * times the HMAC only. A byte of every digest is folded into `checksum`, so the work cannot be
 * optimised away. Bounded by `count` and by `secondsMax` of wall time (checked every CHECK_EVERY).
 */
import { createHash, createHmac } from 'node:crypto';
import { measureRound, type RoundResult } from './measure.ts';

const SEEDS = 64;
const NONCES = 1_000;
const CHECK_EVERY = 4_096;

export interface HmacOptions {
  readonly count: number;
  readonly secondsMax: number;
}

export interface HmacRound extends RoundResult {
  /** XOR of the first byte of every digest (only there to keep the work observable). */
  readonly checksum: number;
}

interface Shapes {
  readonly keys: readonly string[];
  readonly messages: readonly string[];
}

let shapes: Shapes | undefined;

function makeShapes(): Shapes {
  const hex = (label: string): string => createHash('sha256').update(label).digest('hex');
  const keys = Array.from({ length: SEEDS }, (_, index) => hex(`bench-server-seed-${index}`));
  const messages = Array.from(
    { length: NONCES },
    (_, nonce) => `${hex(`bench-client-seed-${nonce % SEEDS}`).slice(0, 16)}:${nonce}`,
  );
  return { keys, messages };
}

export async function hmacRound(options: HmacOptions): Promise<HmacRound> {
  shapes ??= makeShapes();
  const { keys, messages } = shapes;
  let checksum = 0;
  const round = await measureRound(() => {
    const deadlineNs = process.hrtime.bigint() + BigInt(options.secondsMax) * 1_000_000_000n;
    let done = 0;
    while (done < options.count && (done % CHECK_EVERY !== 0 || process.hrtime.bigint() < deadlineNs)) {
      const digest = createHmac('sha256', keys[done % SEEDS] as string)
        .update(messages[done % NONCES] as string)
        .digest();
      checksum ^= digest[0] as number;
      done++;
    }
    return Promise.resolve({ ops: done, requests: done });
  });
  return { ...round, checksum };
}
