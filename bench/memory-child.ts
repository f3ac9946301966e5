/**
 * One size of the memory part (memory-phase.ts), in a process of its own: the quickstart mix
 * scaled to `agents` for `hours` of virtual time; prints one JSON line (MemorySize). Run with
 * --expose-gc: the reading at the run's end follows a forced full collection, taken from the
 * runner's last progress call (fraction 1), while the simulation is still live.
 * Usage: node --expose-gc bench/memory-child.ts AGENTS HOURS
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SystemClock } from '../src/core/clock.ts';
import { scenarioFromTable } from '../src/agent/load-scenario.ts';
import { runSimulationWith } from '../src/sim/runner.ts';
import { collectGarbage } from './measure.ts';
import type { MemorySize } from './memory-phase.ts';
import { AGENTS } from '../agents/index.ts';

const HOUR_MS = 3_600_000;
const QUICKSTART_AGENTS = 1_000;

function liveBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

async function main(argv: readonly string[]): Promise<MemorySize> {
  const agents = Number(argv[0]);
  const hours = Number(argv[1]);
  if (!(Number.isSafeInteger(agents) && agents >= QUICKSTART_AGENTS && agents % QUICKSTART_AGENTS === 0))
    throw new Error(`agents must be a multiple of ${QUICKSTART_AGENTS}, got '${argv[0]}'`);
  if (!(Number.isSafeInteger(hours) && hours >= 1 && hours <= 168))
    throw new Error(`hours must be a whole number in 1..168, got '${argv[1]}'`);
  const quickstart = scenarioFromTable(
    readFileSync(join(import.meta.dirname, '..', 'scenarios', 'quickstart.yaml'), 'utf8'),
    { agents: AGENTS },
  );
  const factor = agents / QUICKSTART_AGENTS;
  const scenario = {
    ...quickstart,
    durationMs: hours * HOUR_MS,
    populations: quickstart.populations.map((population) => ({ ...population, count: population.count * factor })),
  };
  if (!collectGarbage()) throw new Error('a full collection cannot be forced (run with --expose-gc)');
  const beforeBytes = liveBytes();
  let endBytes: number | null = null;
  const clock = new SystemClock();
  const startMs = clock.nowMs();
  const { record } = await runSimulationWith(scenario, {
    agents: AGENTS,
    seed: quickstart.seed,
    streamEvents: true,
    onProgress: (fraction) => {
      if (fraction < 1) return;
      collectGarbage();
      endBytes = liveBytes();
    },
  });
  const wallMs = clock.nowMs() - startMs;
  record.events.dispose();
  if (endBytes === null) throw new Error('the run never reported its end');
  return {
    agents,
    virtualMs: scenario.durationMs,
    wallMs,
    requests: record.totals.requests,
    events: record.events.count,
    liveBytes: endBytes - beforeBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    outcome: record.outcome,
  };
}

main(process.argv.slice(2)).then(
  (size) => {
    process.stdout.write(`${JSON.stringify(size)}\n`);
  },
  (error: unknown) => {
    process.stderr.write(
      `bench: memory child: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
