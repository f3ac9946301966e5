/**
 * `npm run bench`: how fast afp answers, measured in ONE run (the machine is shared and noisy;
 * ratios only mean something within a run). The quickstart traffic, three ways:
 *   1. in-process — through `inProcessTransport` → Dispatcher → route rows (the agents' path);
 *   2. http — the same traffic to a real `afp serve` on 127.0.0.1 (bounded prefix, concurrent lanes);
 *   3. bare — the same domain calls on the services directly (no routing, auth, limiter, rendering);
 * then the ratios in-process / bare (target ≥ 0.5, PASS/MISS) and http / in-process; then the
 * write phase (write-phase.ts): a saturating load of registrations to `afp serve` in memory and to
 * `afp serve --data` (a fresh log per round), rounds alternated: durable / in-memory writes/s,
 * target ≥ 0.5 (group commit, src/server/group-commit.ts). And the
 * casino: dice bets/s of a population on the in-process path (casino-phase.ts) over the raw
 * HMAC-SHA256 rate of node:crypto (hmac-phase.ts), target ≥ 0.3. And the load part (load-phase.ts):
 * `afp load URL` as a user runs it beside autocannon and k6 on a neutral target (afp/autocannon
 * ≥ 0.9, afp/k6 ≥ 1.0 on the median of per-round ratios), coordinated omission through `afp load
 * URL --rate` against a server that stalls 1 s every 5 s (p99 ≥ 500 ms, a closed loop's p99 beside
 * it), and afp serve over a bare node:http server under wrk, read and write. And the recovery of `afp serve --data`
 * (recovery-phase.ts): a logged history of 1,000,000 commands recovered from its newest checkpoint
 * plus the tail, target < 2 s per million commands. The sweep part (sweep-phase.ts): `afp sweep` on two
 * worker threads over one, target ≥ 1.8×. The memory
 * part (memory-phase.ts): bytes per agent and virtual seconds per wall second of the quickstart
 * mix at 10k, 100k and 1M agents, each size in a fresh child process, target <= 4 KB per agent,
 * and an afp serve's resident bytes per agent after 50,000 registrations over HTTP (served-memory.ts).
 * The travel part (travel-phase.ts): the longest GET /health wait while afp serve snapshots, reverts
 * and digests a platform of 67k agents (sliced jobs under its platform lock), target <= 100 ms.
 * The pauses part (pauses-phase.ts): afp serve's own longest event-loop delay (target <= 50 ms) and a
 * GET /health probe's longest wait (<= 100 ms) over 30 s of registrations and of a scenario's mixed
 * traffic, in memory and with --data, a bare node:http server's wait beside them as the floor;
 * only with `--only pauses` (ten runs of 30 s a round: too long to add to every full run).
 * `--only mix|casino|load|recovery|sweep|memory|travel|pauses` runs one part.
 *
 * Order: the mix is captured once (simulator run, untimed), the bare phase's commands are taken
 * in an untimed pre-pass, then one warm-up round of each phase and `--mix-rounds` timed rounds,
 * in-process and bare interleaved so drift of the machine hits both alike; http after them; the
 * casino next, in a fresh child process (casino-child.ts), casino and HMAC rounds interleaved the same way;
 * the load part last, in a fresh child process too, its targets in child processes of their own.
 * The report says how steady the rounds were and the machine's load average around the run
 * (bench-report.ts), so a figure taken on a busy machine is seen as such.
 * Progress goes to stderr; the table (or `--json`) to stdout. Exit 0 when measured (a MISS is
 * reported, not an error: timing on a shared machine must not fail builds), 2 for bad flags,
 * 1 for a crash.
 */
import { availableParallelism, loadavg } from 'node:os';
import { EXIT } from '../src/core/exit-codes.ts';
import { captureDomainCalls, bareRound, type BareRound } from './bare-phase.ts';
import { parseBenchFlags, USAGE, WINDOW_REQUESTS_MAX, type BenchFlags } from './bench-flags.ts';
import {
  formatJson,
  formatTable,
  type BenchResult,
  type CasinoResult,
  type LoadPartResult,
  type MixResult,
  type WriteResult,
} from './bench-report.ts';
import { casinoInChild, CHILD_ENV, partInChild } from './casino-child.ts';
import { casinoRound, type CasinoBenchOptions, type CasinoRound } from './casino-phase.ts';
import { hmacRound, type HmacRound } from './hmac-phase.ts';
import { planHttp } from './http-plan.ts';
import { httpRound, type HttpRound } from './http-phase.ts';
import { inProcessRound, type InProcessRound } from './in-process-phase.ts';
import { loadPart } from './load-phase.ts';
import { STALL_EVERY_2S, STALL_EVERY_5S } from './load-servers.ts';
import { loadFailures } from './load-report.ts';
import { MEMORY_SIZES, MEMORY_SIZES_SMALL, memoryPart } from './memory-phase.ts';
import { SERVED_AGENTS, SERVED_AGENTS_SMALL } from './served-memory.ts';
import { collectGarbage, summarize } from './measure.ts';
import { quickstartMix, quickstartUnavailable } from './quickstart-mix.ts';
import { recoveryPart, type RecoveryResult } from './recovery-phase.ts';
import { sweepPart } from './sweep-phase.ts';
import { travelPart } from './travel-phase.ts';
import { pausesPart } from './pauses-phase.ts';
import { SYNTHETIC_FULL, SYNTHETIC_SMALL, syntheticMix } from './synthetic-mix.ts';
import type { TrafficMix } from './traffic-mix.ts';
import {
  BENCH_CHECKPOINT_EVERY,
  WARM_UP_WRITES,
  WRITE_WRK_THREADS,
  writeRound,
  type WriteRound,
} from './write-phase.ts';
import { wrkPath } from './wrk-run.ts';
import { cpuPerWrite, roundCpuText } from './server-cpu.ts';

const log = (line: string): void => {
  process.stderr.write(`bench: ${line}\n`);
};

async function loadMix(flags: BenchFlags): Promise<TrafficMix | string> {
  const bodiesKept = flags.http ? flags.httpRequests : 0;
  const missing = flags.mix === 'synthetic' ? 'synthetic requested' : await quickstartUnavailable();
  if (missing === null) return quickstartMix({ seed: flags.seed, small: flags.small, bodiesKept });
  if (flags.mix === 'quickstart') return `the quickstart mix is not available: ${missing}`;
  if (flags.mix === 'auto') log(`quickstart mix not available (${missing}); using the synthetic mix`);
  const size = flags.small ? SYNTHETIC_SMALL : SYNTHETIC_FULL;
  return syntheticMix({ seed: flags.seed ?? '1', agents: size.agents, durationMs: size.durationMs, bodiesKept });
}

async function inProcessAndBare(
  mix: TrafficMix,
  rounds: number,
): Promise<{ inProcess: InProcessRound[]; bare: BareRound[] }> {
  log('pre-pass: capturing the domain calls');
  const calls = await captureDomainCalls(mix);
  if (calls.length === 0) throw new Error('the mix makes no domain call: nothing to compare with');
  log(`warm-up: ${mix.exchanges.length} requests, ${calls.length} domain calls`);
  await inProcessRound(mix);
  await bareRound(mix, calls);
  const inProcess: InProcessRound[] = [];
  const bare: BareRound[] = [];
  for (let round = 1; round <= rounds; round++) {
    inProcess.push(await inProcessRound(mix));
    bare.push(await bareRound(mix, calls));
    log(
      `round ${round}/${rounds}: in-process ${inProcess.at(-1)?.wallMs.toFixed(0)} ms, bare ${bare.at(-1)?.wallMs.toFixed(0)} ms`,
    );
  }
  return { inProcess, bare };
}

async function httpRounds(mix: TrafficMix, flags: BenchFlags): Promise<{ rounds: HttpRound[]; windows: number }> {
  const prefix: TrafficMix = { ...mix, exchanges: mix.exchanges.slice(0, flags.httpRequests) };
  const plan = planHttp(prefix.exchanges, {
    concurrency: flags.concurrency,
    windowMs: flags.httpWindowMs,
    windowRequestsMax: WINDOW_REQUESTS_MAX,
  });
  log(
    `http: ${prefix.exchanges.length} requests in ${plan.windows.length} windows, ${flags.concurrency} lanes; warm-up`,
  );
  const options = { maxSeconds: flags.httpSeconds, client: flags.httpClient, concurrency: flags.concurrency };
  await httpRound(prefix, plan, options);
  const rounds: HttpRound[] = [];
  for (let round = 1; round <= flags.rounds; round++) {
    rounds.push(await httpRound(prefix, plan, options));
    log(
      `http round ${round}/${flags.rounds}: ${rounds.at(-1)?.requests} requests in ${rounds.at(-1)?.wallMs.toFixed(0)} ms`,
    );
  }
  return { rounds, windows: plan.windows.length };
}

/** The write phase: in memory and --data rounds alternated, after one warm-up of each. */
async function writeRounds(mix: TrafficMix, flags: BenchFlags): Promise<{ result: WriteResult; failed: number }> {
  const wrk = wrkPath();
  const options = {
    seed: mix.seed,
    startMs: mix.startMs,
    connections: flags.writeConnections,
    durationMs: flags.writeRoundMs,
    warmUpWrites: WARM_UP_WRITES,
    generator: wrk === null ? ('node' as const) : { wrk },
  };
  const generator = wrk === null ? 'Node writers (wrk is not installed)' : `wrk (${WRITE_WRK_THREADS} thread)`;
  log(
    `writes: ${options.connections} connections registering agents for ${options.durationMs} ms from ${generator} (each server after ${WARM_UP_WRITES} unmeasured registrations and, with --data, its first checkpoint), in memory and with --data alternated; warm-up`,
  );
  await writeRound({ ...options, durable: false });
  await writeRound({ ...options, durable: true });
  const memory: WriteRound[] = [];
  const durable: WriteRound[] = [];
  for (let round = 1; round <= flags.rounds; round++) {
    memory.push(await writeRound({ ...options, durable: false }));
    durable.push(await writeRound({ ...options, durable: true }));
    log(
      `write round ${round}/${flags.rounds}: ${memory.at(-1)?.ops} in memory, ${durable.at(-1)?.ops} with --data (${durable.at(-1)?.checkpoints} checkpoints, the longest block of the loop ${durable.at(-1)?.checkpointBlockingMsMax.toFixed(1)} ms, cpu ${durable.at(-1)?.checkpointBlockingCpuMsMax.toFixed(1)} ms) in ${options.durationMs} ms; longest /health wait ${memory.at(-1)?.stallMsMax.toFixed(1)} / ${durable.at(-1)?.stallMsMax.toFixed(1)} ms; load average ${loadavg()[0]?.toFixed(1)}`,
    );
    for (const [name, last] of [
      ['in memory', memory.at(-1)],
      ['--data', durable.at(-1)],
    ] as const)
      if (last !== undefined) log(`  ${name} ${roundCpuText(last.cpu)}`);
  }
  const failed = [...memory, ...durable].reduce((sum, round) => sum + round.failed, 0);
  const stallMsMax = {
    memory: Math.max(...memory.map((round) => round.stallMsMax)),
    durable: Math.max(...durable.map((round) => round.stallMsMax)),
  };
  const checkpointsPerRoundMin = Math.min(...durable.map((round) => round.checkpoints));
  const checkpointBlockingMsMax = Math.max(...durable.map((round) => round.checkpointBlockingMsMax));
  const checkpointBlockingCpuMsMax = Math.max(...durable.map((round) => round.checkpointBlockingCpuMsMax));
  return {
    result: {
      connections: options.connections,
      generator,
      roundMs: options.durationMs,
      memory: summarize(memory),
      durable: summarize(durable),
      stallMsMax,
      checkpointEvery: BENCH_CHECKPOINT_EVERY,
      checkpointsPerRoundMin,
      checkpointBlockingMsMax,
      checkpointBlockingCpuMsMax,
      cpuPerWrite: { memory: cpuPerWrite(memory), durable: cpuPerWrite(durable) },
    },
    failed,
  };
}

const MISMATCH_KINDS_SHOWN = 6;

/** The most frequent HTTP status differences over all rounds (ties by name, for a stable order). */
function topKinds(rounds: readonly HttpRound[]): [string, number][] {
  const totals = new Map<string, number>();
  for (const round of rounds)
    for (const [kind, count] of round.mismatchKinds) totals.set(kind, (totals.get(kind) ?? 0) + count);
  return [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MISMATCH_KINDS_SHOWN);
}

async function casinoAndHmac(flags: BenchFlags): Promise<{ result: CasinoResult; refused: number }> {
  const options: CasinoBenchOptions = {
    seed: flags.seed ?? '1',
    agents: flags.casinoAgents,
    betsMax: flags.casinoBets,
    secondsMax: flags.casinoSeconds,
    style: flags.casinoStyle,
  };
  const hmacOptions = { count: flags.hmacCount, secondsMax: flags.casinoSeconds };
  log(
    `casino: ${options.agents} dice bettors (style ${options.style}), at most ${options.betsMax} bets per round; raw HMAC at most ${hmacOptions.count}; warm-up`,
  );
  await casinoRound(options);
  await hmacRound(hmacOptions);
  const bets: CasinoRound[] = [];
  const hmacs: HmacRound[] = [];
  for (let round = 1; round <= flags.rounds; round++) {
    bets.push(await casinoRound(options));
    hmacs.push(await hmacRound(hmacOptions));
    const last = bets.at(-1);
    const lastHmac = hmacs.at(-1);
    if (last !== undefined && lastHmac !== undefined) {
      log(
        `casino round ${round}/${flags.rounds}: ${last.ops} bets in ${last.wallMs.toFixed(0)} ms, ${lastHmac.ops} HMACs in ${lastHmac.wallMs.toFixed(0)} ms`,
      );
    }
  }
  const result: CasinoResult = {
    seed: options.seed,
    agents: options.agents,
    style: options.style,
    betsMax: options.betsMax,
    secondsMax: options.secondsMax,
    hmacCountMax: hmacOptions.count,
    bets: summarize(bets),
    hmac: summarize(hmacs),
  };
  return { result, refused: bets.reduce((sum, round) => sum + round.refused, 0) };
}

/** Quickstart seeds per sweep round: enough that two workers each run several once warm (--small: 2 seeds of k6-smoke). */
const SWEEP_BENCH_SEEDS = 12;

async function recoveryOf(flags: BenchFlags, mix: TrafficMix | string | null): Promise<RecoveryResult | null> {
  if ((flags.only !== 'all' && flags.only !== 'recovery') || mix === null) return null;
  if (typeof mix === 'string') throw new Error(mix);
  return recoveryPart({ mix, commands: flags.recoveryCommands, rounds: flags.rounds, log });
}

async function loadOnly(flags: BenchFlags): Promise<LoadPartResult> {
  return loadPart({
    connections: flags.loadConnections,
    roundMs: flags.loadRoundMs,
    rounds: flags.rounds,
    stalls: flags.small ? STALL_EVERY_2S : STALL_EVERY_5S,
    log,
  });
}

interface MixRun {
  readonly result: MixResult;
  readonly checks: Pick<
    BenchResult['checks'],
    | 'inProcessStatusMismatches'
    | 'bareOutcomeMismatches'
    | 'httpStatusMismatches'
    | 'httpTransportErrors'
    | 'httpMismatchKinds'
    | 'writeFailures'
  >;
}

async function mixPhases(flags: BenchFlags, mix: TrafficMix | string): Promise<MixRun | string> {
  if (typeof mix === 'string') return mix;
  log(`seed ${mix.seed}, mix ${mix.name}: ${mix.exchanges.length} requests`);
  if (mix.exchanges.length === 0) throw new Error('the mix has no requests');
  const { inProcess, bare } = await inProcessAndBare(mix, flags.mixRounds);
  const http = flags.http ? await httpRounds(mix, flags) : null;
  const httpSummary = http === null ? null : summarize(http.rounds);
  const bestHttp = httpSummary === null ? null : (httpSummary.best as HttpRound);
  const writes = flags.http ? await writeRounds(mix, flags) : null;
  const result: MixResult = {
    seed: mix.seed,
    mix: {
      name: mix.name,
      agents: mix.agents,
      durationMs: mix.durationMs,
      requests: mix.exchanges.length,
      startIso: new Date(mix.startMs).toISOString(),
    },
    inProcess: summarize(inProcess),
    bare: summarize(bare),
    http:
      http === null || httpSummary === null || bestHttp === null
        ? null
        : {
            ...httpSummary,
            client: flags.httpClient,
            concurrency: flags.concurrency,
            windows: http.windows,
            clockMoves: bestHttp.clockMoves,
            clientCpuMs: bestHttp.clientCpuMs,
            serverCpuMs: bestHttp.serverCpuMs,
          },
    writes: writes === null ? null : writes.result,
  };
  const checks: MixRun['checks'] = {
    inProcessStatusMismatches: inProcess.reduce((sum, round) => sum + round.statusMismatches, 0),
    bareOutcomeMismatches: bare.reduce((sum, round) => sum + round.outcomeMismatches, 0),
    httpStatusMismatches: http === null ? null : http.rounds.reduce((sum, round) => sum + round.statusMismatches, 0),
    httpTransportErrors: http === null ? null : http.rounds.reduce((sum, round) => sum + round.transportErrors, 0),
    httpMismatchKinds: http === null ? [] : topKinds(http.rounds),
    writeFailures: writes === null ? null : writes.failed,
  };
  return { result, checks };
}

async function main(argv: string[]): Promise<number> {
  const flags = parseBenchFlags(argv);
  if (flags === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if ('errors' in flags) {
    process.stderr.write(`${flags.errors.map((error) => `bench: ${error}`).join('\n')}\n${USAGE}\n`);
    return EXIT.invalidInput;
  }
  const gcForced = collectGarbage();
  const loadAverageStart = loadavg()[0] ?? 0;
  const needsMix = flags.only === 'all' || flags.only === 'mix' || flags.only === 'recovery';
  const mix = needsMix && process.env[CHILD_ENV] === undefined ? await loadMix(flags) : null;
  const mixRun =
    flags.only === 'casino' ||
    flags.only === 'load' ||
    flags.only === 'recovery' ||
    flags.only === 'sweep' ||
    flags.only === 'memory' ||
    flags.only === 'travel' ||
    flags.only === 'pauses'
      ? null
      : await mixPhases(flags, mix ?? (await loadMix(flags)));
  if (typeof mixRun === 'string') {
    process.stderr.write(`bench: ${mixRun}\n`);
    return EXIT.invalidInput;
  }
  if (process.env[CHILD_ENV] === 'casino') {
    const own = await casinoAndHmac(flags);
    process.stdout.write(`${JSON.stringify(own)}\n`);
    return EXIT.ok;
  }
  if (process.env[CHILD_ENV] === 'load') {
    process.stdout.write(`${JSON.stringify(await loadOnly(flags))}\n`);
    return EXIT.ok;
  }
  // A full run measures the casino and the load part each in a fresh process (casino-child.ts says why).
  const casino =
    flags.only === 'mix' ||
    flags.only === 'load' ||
    flags.only === 'recovery' ||
    flags.only === 'sweep' ||
    flags.only === 'memory' ||
    flags.only === 'travel' ||
    flags.only === 'pauses'
      ? null
      : flags.only === 'casino'
        ? await casinoAndHmac(flags)
        : await casinoInChild(argv);
  const load =
    flags.only === 'mix' ||
    flags.only === 'casino' ||
    flags.only === 'recovery' ||
    flags.only === 'sweep' ||
    flags.only === 'memory' ||
    flags.only === 'travel' ||
    flags.only === 'pauses'
      ? null
      : flags.only === 'load'
        ? await loadOnly(flags)
        : await partInChild<LoadPartResult>('load', argv);
  const recovery = await recoveryOf(flags, mix);
  const sweep =
    flags.only === 'all' || flags.only === 'sweep'
      ? await sweepPart({
          seeds: flags.small ? 2 : SWEEP_BENCH_SEEDS,
          rounds: flags.rounds,
          log,
          ...(flags.small ? { scenario: 'scenarios/k6-smoke.yaml' } : {}),
        })
      : null;
  const memory =
    flags.only === 'all' || flags.only === 'memory'
      ? await memoryPart({
          sizes: (flags.small ? MEMORY_SIZES_SMALL : MEMORY_SIZES).filter((agents) => agents <= flags.memoryAgentsMax),
          hours: flags.memoryHours,
          servedAgents: flags.small ? SERVED_AGENTS_SMALL : SERVED_AGENTS,
          log,
        })
      : null;
  const travel =
    flags.only === 'all' || flags.only === 'travel'
      ? await travelPart({ agents: flags.travelAgents, rounds: flags.rounds, log })
      : null;
  // Not in a full run: 10 runs of 30 s a round, on their own machine's quiet (`--only pauses`).
  const pauses =
    flags.only === 'pauses'
      ? await pausesPart({
          seconds: flags.pauseSeconds,
          rounds: flags.rounds,
          serveNodeFlags: flags.serveNodeFlags,
          log,
        })
      : null;
  const result: BenchResult = {
    node: [process.version, ...process.execArgv].join(' '),
    machine: { cpus: availableParallelism(), loadAverageStart, loadAverageEnd: loadavg()[0] ?? 0 },
    rounds: flags.rounds,
    mixRounds: flags.mixRounds,
    gcForced,
    mixPart: mixRun === null ? null : mixRun.result,
    casino: casino === null ? null : casino.result,
    load,
    recovery,
    sweep,
    memory,
    travel,
    pauses,
    checks: {
      ...(mixRun === null
        ? {
            inProcessStatusMismatches: null,
            bareOutcomeMismatches: null,
            httpStatusMismatches: null,
            httpTransportErrors: null,
            httpMismatchKinds: [],
            writeFailures: null,
          }
        : mixRun.checks),
      casinoRefusedBets: casino === null ? null : casino.refused,
      loadFailedRequests: load === null ? null : loadFailures(load),
      loadDroppedIterations: load?.stalls.openModel?.dropped ?? null,
    },
  };
  process.stdout.write(flags.json ? formatJson(result) : formatTable(result));
  return EXIT.ok;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: crash: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.crash;
  },
);
