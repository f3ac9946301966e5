// What the subject of twin-property.test.ts goes through that its twin never does, each followed
// by the demand that both hold the same state (GET /_afp/digest against the twin's digest):
// - a digest comparison alone;
// - a time-travel round trip: POST /_afp/snapshot, a detour sent to the subject only (new agents,
//   a faucet claim, a clock move forward that runs the timers on the way), POST /_afp/revert to
//   the snapshot: the clock and the state must be back where the twin is;
// - a restart: the subject closes (its checkpoint worker writes the checkpoint due), its --data
//   file is opened again and served (recovery: the newest checkpoint, then the log's tail).
// They never change afp check's model: the twin and the model go on as if nothing happened.
import fc from 'fast-check';
import type { CheckModel } from '../../src/check/check-model.ts';
import { SNAPSHOTS_MAX } from '../../src/server/time-travel.ts';
import { TwinMismatch, type TwinSystem } from './twin-platform.ts';

type Disturbance = fc.AsyncCommand<CheckModel, TwinSystem>;
/** A command of the twin test: afp check's (over the CheckSystem TwinSystem is) or a disturbance. */
export type TwinCommand = fc.AsyncCommand<CheckModel, TwinSystem>;

class DigestAgrees implements Disturbance {
  check(): boolean {
    return true;
  }

  async run(_model: CheckModel, real: TwinSystem): Promise<void> {
    await real.pair.expectSameDigest('the commands so far');
  }

  toString(): string {
    return 'digest';
  }
}

interface Detour {
  readonly registrations: number;
  readonly claim: boolean;
  readonly advanceMs: number;
}

let detourNumber = 0;

export class RoundTrip implements Disturbance {
  readonly detour: Detour;

  constructor(detour: Detour) {
    this.detour = detour;
  }

  check(): boolean {
    return true;
  }

  async run(_model: CheckModel, real: TwinSystem): Promise<void> {
    const pair = real.pair;
    // A revert keeps its snapshot: near the bound, only the digest is compared (a reset per run frees them).
    if (pair.held >= SNAPSHOTS_MAX - 1) return await pair.expectSameDigest('a skipped round trip');
    const taken = await pair.admin('POST', '/_afp/snapshot', {});
    const id = (taken.body as { id?: unknown }).id;
    if (taken.status !== 200 || typeof id !== 'string') throw new TwinMismatch(`snapshot answered ${taken.status}`);
    const send = pair.subjectTransport();
    for (let index = 0; index < this.detour.registrations; index++) {
      detourNumber++;
      const registered = await send({
        mount: 'api',
        method: 'POST',
        path: '/register',
        headers: { 'x-forwarded-for': `10.77.${detourNumber >> 8}.${detourNumber & 255}` },
        body: { agent_id: `detour-${detourNumber}` },
      });
      const key = (registered.body as { api_key?: unknown }).api_key;
      if (this.detour.claim && typeof key === 'string')
        await send({ mount: 'api', method: 'POST', path: '/claim', headers: { authorization: `Bearer ${key}` } });
    }
    if (this.detour.advanceMs > 0) await pair.admin('POST', '/_afp/clock', { advance_ms: this.detour.advanceMs });
    const reverted = await pair.admin('POST', '/_afp/revert', { id });
    if (reverted.status !== 200) throw new TwinMismatch(`revert to ${id} answered ${reverted.status}`);
    pair.held++;
    pair.counts.roundTrips++;
    await pair.expectSameDigest(`${this.toString()} (${id})`);
  }

  toString(): string {
    const { registrations, claim, advanceMs } = this.detour;
    return `snapshot-detour-revert(${registrations} registrations${claim ? ' with claims' : ''}, +${advanceMs} ms)`;
  }
}

class Restart implements Disturbance {
  check(): boolean {
    return true;
  }

  async run(_model: CheckModel, real: TwinSystem): Promise<void> {
    await real.pair.restart();
    await real.pair.expectSameDigest('a restart from the --data file');
  }

  toString(): string {
    return 'restart';
  }
}

const HOUR_MS = 3_600_000;

/** The disturbances, drawn among afp check's commands. */
export function disturbance(): fc.Arbitrary<Disturbance> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(new DigestAgrees()) },
    {
      weight: 3,
      arbitrary: fc
        .record({
          registrations: fc.integer({ min: 0, max: 2 }),
          claim: fc.boolean(),
          advanceMs: fc.constantFrom(0, 60_000, HOUR_MS, 24 * HOUR_MS, 40 * 24 * HOUR_MS),
        })
        .map((detour) => new RoundTrip(detour)),
    },
    { weight: 1, arbitrary: fc.constant(new Restart()) },
  );
}
