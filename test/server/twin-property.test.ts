// Model-based property test of the served platform (issue 43, part 1): random command sequences
// from afp check's command table, across all six services, go to `afp serve` (in-process
// listeners, --data, checkpoints by the worker, a manual clock moved in slices) and to a twin that
// never checkpoints, restarts or travels in time (twin-platform.ts). Every answer must be the
// twin's and afp check's model's; between commands the subject alone is snapshotted, sent a detour
// and reverted, or restarted from its --data file (twin-disturbances.ts), and its state digest must
// then be the twin's. A failure prints fast-check's seed and path (AFP_TWIN_SEED, AFP_TWIN_RUNS
// replay or widen it). Bounded: TWIN_RUNS runs of at most COMMANDS_MAX commands, one server for all
// (reset through POST /_afp/reset between runs).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkCommand, type CheckCommand } from '../../src/check/command-table.ts';
import { registerCommand } from '../../src/check/faucet/command-faucet.ts';
import { ModelCommand } from '../../src/check/model-command.ts';
import { disturbance, RoundTrip, type TwinCommand } from './twin-disturbances.ts';
import { TwinPair } from './twin-platform.ts';

const TWIN_RUNS = Number(process.env['AFP_TWIN_RUNS'] ?? 6);
const TWIN_SEED = process.env['AFP_TWIN_SEED'] === undefined ? undefined : Number(process.env['AFP_TWIN_SEED']);
const COMMANDS_MAX = 40;

/** Two registrations before the drawn commands (the second referred by the first): most commands need agents. */
const PRELUDE: readonly CheckCommand[] = [
  new ModelCommand(registerCommand({ style: 'B', again: null, referrer: null })),
  new ModelCommand(registerCommand({ style: 'A', again: null, referrer: { slot: 0, via: 'id' } })),
];

const pair = new TwinPair();
beforeAll(async () => await pair.start());
afterAll(async () => await pair.close());

describe('afp serve and its twin', () => {
  test('agree on every answer and on the state after snapshots, reverts, checkpoints and restarts', async () => {
    // About one disturbance in eight commands: most of a run is traffic for them to meet.
    const command: fc.Arbitrary<TwinCommand> = fc.oneof(
      { weight: 7, arbitrary: checkCommand() },
      { weight: 1, arbitrary: disturbance() },
    );
    const commands = fc.commands([command], { maxCommands: COMMANDS_MAX, size: 'max' });
    await fc.assert(
      fc.asyncProperty(commands, async (drawn) => {
        const run = await pair.newRun();
        for (const command of PRELUDE) if (command.check(run.model)) await command.run(run.model, run.real);
        await fc.asyncModelRun(() => run, drawn);
        await pair.expectSameDigest('the last command');
      }),
      { numRuns: TWIN_RUNS, ...(TWIN_SEED === undefined ? {} : { seed: TWIN_SEED }) },
    );
    // Whatever the draws: one more run with a round trip that crosses a day of timers, then a restart
    // (recovery from a checkpoint and its tail), each compared.
    const last = await pair.newRun();
    for (const command of PRELUDE) await command.run(last.model, last.real);
    await new RoundTrip({ registrations: 1, claim: true, advanceMs: 86_400_000 }).run(last.model, last.real);
    await pair.restart();
    await pair.expectSameDigest('the final restart');
    const counts = pair.counts;
    process.stdout.write(
      `twin: ${TWIN_RUNS} runs, ${counts.requests} mirrored requests, ${counts.digests} digests compared, ${counts.roundTrips} snapshot-revert round trips, ${counts.restarts} restarts (${counts.checkpointLoads} from a checkpoint)\n`,
    );
    // At least the preludes' registrations and their read-backs (5 a run) went to both.
    expect(counts.requests).toBeGreaterThanOrEqual((TWIN_RUNS + 1) * 5);
    expect(counts.roundTrips).toBeGreaterThan(0);
    expect(counts.checkpointLoads).toBeGreaterThan(0);
  });
});
