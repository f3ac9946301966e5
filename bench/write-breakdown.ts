/**
 * `node bench/write-breakdown.ts [--rounds N] [--seconds S] [--connections C] [--cold] [--modes A,B] [--wrk]`: where the durable
 * write gap goes. The write phase's round (write-phase.ts) in three servers, alternated so that
 * each sees the same noise of a shared machine: in memory; --data with no checkpoint in the round
 * (--checkpoint-every 999999999); --data as the bench runs it (BENCH_CHECKPOINT_EVERY). One line
 * per round: writes/s, and the CPU seconds of the server process, its loop, its SQLite commits, its
 * checkpoint blocks on the loop, the checkpoint worker (replay / encode), and the load generator;
 * the load average beside them. Each round after the bench's warm-up (write-phase.ts WARM_UP_WRITES;
 * `--cold`: none, the server's start-up and the worker's in the round). `--modes` picks and orders the
 * servers (default: all three); `--wrk`: wrk drives the rounds (write-phase.ts WRITE_WRK_THREADS) instead
 * of Node writers, as the bench does where wrk is installed. Diagnostic only: nothing is asserted, nothing is written.
 * Bounded: rounds ≤ 10, seconds ≤ 120.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { roundCpuText } from './server-cpu.ts';
import { wrkPath } from './wrk-run.ts';
import { BENCH_CHECKPOINT_EVERY, WARM_UP_WRITES, writeRound, type WriteRound } from './write-phase.ts';

const MODES: ReadonlyArray<{ name: string; durable: boolean; checkpointEvery?: number }> = [
  { name: 'memory', durable: false },
  { name: 'data-no-ckpt', durable: true, checkpointEvery: 999_999_999 },
  { name: 'data', durable: true, checkpointEvery: BENCH_CHECKPOINT_EVERY },
];
const DEFAULT_MODES = 'memory,data-no-ckpt,data';

function bounded(text: string | undefined, fallback: number, max: number): number {
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`expected a whole number 1..${max}`);
  return value;
}

function line(name: string, round: WriteRound): string {
  return [
    name.padEnd(13),
    `${((round.ops * 1000) / round.wallMs).toFixed(0).padStart(6)} writes/s`,
    `${round.checkpoints} checkpoints`,
    `stall ${round.stallMsMax.toFixed(0)} ms`,
    `load ${loadavg()[0]?.toFixed(1)}`,
    roundCpuText(round.cpu),
  ].join('  ');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      cold: { type: 'boolean' },
      modes: { type: 'string' },
      wrk: { type: 'boolean' },
    },
  });
  const rounds = bounded(values.rounds, 3, 10);
  const durationMs = bounded(values.seconds, 30, 120) * 1000;
  const connections = bounded(values.connections, 64, 255);
  const warmUpWrites = values.cold === true ? 0 : WARM_UP_WRITES;
  const wrk = values.wrk === true ? wrkPath() : null;
  if (values.wrk === true && wrk === null) throw new Error('--wrk: wrk is not on PATH');
  const generator = wrk === null ? ('node' as const) : { wrk };
  const options = { seed: '1', startMs: Date.UTC(2026, 0, 1), connections, durationMs, warmUpWrites, generator };
  const modes = (values.modes ?? DEFAULT_MODES).split(',').map((name) => {
    const mode = MODES.find((candidate) => candidate.name === name);
    if (mode === undefined) throw new Error(`--modes: '${name}' is none of ${MODES.map((m) => m.name).join(', ')}`);
    return mode;
  });
  for (const mode of modes) await writeRound({ ...options, ...mode, durationMs: Math.min(durationMs, 5_000) });
  for (let round = 1; round <= rounds; round++)
    for (const mode of modes)
      console.log(`round ${round} ${line(mode.name, await writeRound({ ...options, ...mode }))}`);
}

await main();
