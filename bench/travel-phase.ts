/**
 * The travel part of `npm run bench` (`--only travel`): how long GET /health waits while afp serve
 * snapshots, reverts, digests, audits (GET /_afp/state) and resets a large platform (issue 43:
 * /health is never blocked more than 100 ms by an admin call; those calls run as sliced jobs under
 * the platform lock, src/server/platform-lock.ts), and how long a century's clock move takes
 * (century-phase.ts). An in-process `afp serve` on 127.0.0.1 is given `agents` registered
 * agents through its dispatcher (the path every request takes, without sockets: registering 67k
 * over HTTP would take the part's whole time), then each round sends POST /_afp/snapshot,
 * POST /_afp/revert (to that snapshot), GET /_afp/digest and GET /_afp/state in turn, and the part
 * ends with one POST /_afp/reset, each while a probe on its own connection sends GET /health every
 * PROBE_EVERY_MS (travel-probe.ts, which also notes the longest garbage-collection pause during
 * the call: a /health wait longer than the call's slices is then the runtime's, not the call's).
 * Reported per call: its wall time (worst round), the longest /health wait during it, the probes
 * answered during it, the longest GC pause and its job's longest slice in CPU and wall ms (the lock's
 * `last_job_*`, read after the call: CPU time is what a busy machine distorts least); beside it, the same work done in one go on the same
 * platform (the one-shot copy, restore, digest, ledger audit and reset: how long /health waited
 * before the slices); and the lock's longest slice in wall and CPU ms. The verdict is on the CPU
 * time of the longest slice (the longest the loop was held by a job: loop-block.ts says why a
 * loaded machine's wall time cannot carry a bound), with the wall figures, the /health waits among
 * them, shown beside it.
 */
import { request } from 'node:http';
import { ALL_ROUTES } from '../src/http/routes/index.ts';
import { LOOPBACK_PROXIES } from '../src/http/trusted-proxies.ts';
import { copyToEnd } from '../src/platform/graph-copy.ts';
import { Platform } from '../src/platform/platform.ts';
import { capturePlatform, replaceSliced, restorePlatform } from '../src/platform/platform-snapshot.ts';
import { platformDigest } from '../src/platform/state-digest.ts';
import { startServe, type ServeHandle, type ServeOptions } from '../src/server/listeners.ts';
import { startBlock, type BlockTime } from '../src/server/loop-block.ts';
import { TARGET_CENTURY_MS, centuryLine, centuryMove, centuryVerdict, type CenturyResult } from './century-phase.ts';
import {
  TARGET_CROWD_CPU_MS,
  TARGET_CROWD_HEALTH_MS,
  crowdCentury,
  crowdLine,
  crowdVerdict,
  type CrowdResult,
} from './crowd-century-phase.ts';
import { PROBE_EVERY_MS, probed, type GcKind } from './travel-probe.ts';

/** Issue 43's bound on a /health wait during any admin call. */
export const TARGET_HEALTH_WAIT_MS = 100;
/** Rounds at most (each round holds one more snapshot; SNAPSHOTS_MAX is 32). */
const ROUNDS_MAX = 10;
const START_MS = Date.UTC(2026, 0, 1);
const SEED = '43';
/** The calls of every round; the reset follows the last round. */
const CALLS = ['snapshot', 'revert', 'digest', 'state'] as const;
type CallName = (typeof CALLS)[number] | 'reset';

export interface TravelCall {
  readonly name: CallName;
  /** The slowest round's answer time (ms). */
  readonly wallMs: number;
  /** The longest GET /health wait while the call was in flight, over every round (ms). */
  readonly healthWaitMsMax: number;
  /** /health answers received while the call was in flight, in the slowest round. */
  readonly probes: number;
  /** The longest garbage-collection pause while the call was in flight, over every round (ms), and its kind. */
  readonly gcPauseMsMax: number;
  readonly gcPauseKind: GcKind | null;
  /** The call's job's longest slice over every round, in CPU and wall ms (the lock's `last_job_*`, read after the call). */
  readonly longestSliceCpuMs: number;
  readonly longestSliceMs: number;
  /** The same work in one go on the same platform (ms): what /health waited for before the slices... */
  readonly oneShotMs: number;
  /** ...and its CPU time (ms, loop-block.ts): the block itself, whatever else the machine runs. */
  readonly oneShotCpuMs: number;
}

export interface TravelBenchResult {
  readonly agents: number;
  readonly rounds: number;
  readonly buildMs: number;
  readonly calls: readonly TravelCall[];
  readonly century: CenturyResult;
  /** The crowded century (crowd-century-phase.ts). */
  readonly crowd: CrowdResult;
  readonly lock: { readonly slices: number; readonly longestSliceMs: number; readonly longestSliceCpuMs: number };
}

export async function travelPart(options: {
  agents: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<TravelBenchResult> {
  const handle = await travelServe();
  try {
    const buildMs = registerAgents(handle, options.agents, 'travel');
    options.log(`travel: ${options.agents} agents registered in ${buildMs.toFixed(0)} ms`);
    const api = handle.urls.api as string;
    const worst = new Map<CallName, Omit<TravelCall, 'name' | 'oneShotMs' | 'oneShotCpuMs'>>();
    const measure = async (name: CallName, label: string, snapshotId: string): Promise<string> => {
      let answered = '';
      const measured = await probed(api, async () => {
        answered = String((await callOf(api, name, snapshotId))['id']);
      });
      const job = await lastJobOf(api);
      const before = worst.get(name);
      worst.set(name, {
        longestSliceCpuMs: Math.max(before?.longestSliceCpuMs ?? 0, job.longestSliceCpuMs),
        longestSliceMs: Math.max(before?.longestSliceMs ?? 0, job.longestSliceMs),
        wallMs: Math.max(before?.wallMs ?? 0, measured.wallMs),
        healthWaitMsMax: Math.max(before?.healthWaitMsMax ?? 0, measured.healthWaitMsMax),
        probes: before === undefined || measured.wallMs >= before.wallMs ? measured.probes : before.probes,
        ...(before !== undefined && before.gcPauseMsMax >= measured.gcPauseMsMax
          ? { gcPauseMsMax: before.gcPauseMsMax, gcPauseKind: before.gcPauseKind }
          : { gcPauseMsMax: measured.gcPauseMsMax, gcPauseKind: measured.gcPauseKind }),
      });
      options.log(
        `travel ${label}: ${name} ${measured.wallMs.toFixed(0)} ms, longest /health wait ${measured.healthWaitMsMax.toFixed(1)} ms (${measured.probes} probes), longest GC pause ${measured.gcPauseMsMax.toFixed(1)} ms (${measured.gcPauseKind ?? 'none'}), longest slice cpu ${job.longestSliceCpuMs.toFixed(1)} ms (wall ${job.longestSliceMs.toFixed(1)} ms, ${job.slices} slices)`,
      );
      return answered;
    };
    const rounds = Math.min(options.rounds, ROUNDS_MAX);
    for (let round = 1; round <= rounds; round++) {
      let snapshotId = '';
      for (const name of CALLS) {
        const answered = await measure(name, `round ${round}/${rounds}`, snapshotId);
        if (name === 'snapshot') snapshotId = answered;
      }
    }
    const rounded = oneShotMs(handle);
    await measure('reset', 'end', '');
    const oneShot: Record<CallName, BlockTime> = { ...rounded, reset: oneShotReset(handle) };
    const lock = (await adminCall(api, 'GET', '/_afp/state')).body as { lock: Record<string, number> };
    const century = await centuryOf(options.log);
    const crowd = await crowdOf(options.log);
    return {
      agents: options.agents,
      rounds,
      buildMs,
      calls: [...CALLS, 'reset' as const].map((name) => ({
        ...(worst.get(name) as TravelCall),
        name,
        oneShotMs: oneShot[name].wallMs,
        oneShotCpuMs: oneShot[name].cpuMs,
      })),
      century,
      crowd,
      lock: {
        slices: Number(lock.lock['slices']),
        longestSliceMs: Number(lock.lock['longest_slice_ms']),
        longestSliceCpuMs: Number(lock.lock['longest_slice_cpu_ms']),
      },
    };
  } finally {
    await handle.close();
  }
}

/** The century move on a served platform of its own (century-phase.ts). */
async function centuryOf(log: (line: string) => void): Promise<CenturyResult> {
  const handle = await travelServe();
  try {
    const century = await centuryMove(handle, () => {
      registerAgents(handle, 1, 'trader');
      return 'trader-0';
    });
    log(`travel: century move cpu ${century.cpuMs.toFixed(0)} ms, wall ${century.wallMs.toFixed(0)} ms`);
    return century;
  } finally {
    await handle.close();
  }
}

/** The crowded century on a served platform of its own (crowd-century-phase.ts). */
async function crowdOf(log: (line: string) => void): Promise<CrowdResult> {
  const handle = await travelServe();
  try {
    const crowd = await crowdCentury(handle, (count) => registerAgents(handle, count, 'crowd'));
    log(`travel: crowded century cpu ${crowd.cpuMs.toFixed(0)} ms, wall ${crowd.wallMs.toFixed(0)} ms`);
    return crowd;
  } finally {
    await handle.close();
  }
}

/** The served platform of the part (and of its test): ephemeral ports, manual clock, silent. */
export function travelServe(lock: Pick<ServeOptions, 'lockSliceMs' | 'lockQueueMax'> = {}): Promise<ServeHandle> {
  return startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: SEED,
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
    ...lock,
  });
}

/** Registers `agents` agents (`<prefix>-<n>`) through the dispatcher (one IP each, under the per-IP limit); the time it took (ms). */
export function registerAgents(handle: ServeHandle, agents: number, prefix: string): number {
  const startedMs = performance.now();
  for (let index = 0; index < agents; index++) {
    const answer = handle.dispatcher.handle(
      {
        mount: 'api',
        method: 'POST',
        path: '/register',
        query: {},
        headers: {},
        body: { agent_id: `${prefix}-${index}` },
        ip: `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`,
      },
      handle.clock.nowMs(),
    );
    if (answer.status !== 201) throw new Error(`travel: registration ${index} answered ${answer.status}`);
  }
  return performance.now() - startedMs;
}

/** The figures of the lock's last job (GET /_afp/state shows the lock as the request found it, before its own audit). */
async function lastJobOf(api: string): Promise<{ slices: number; longestSliceMs: number; longestSliceCpuMs: number }> {
  const lock = ((await adminCall(api, 'GET', '/_afp/state')).body as { lock: Record<string, number> }).lock;
  return {
    slices: Number(lock['last_job_slices']),
    longestSliceMs: Number(lock['last_job_longest_slice_ms']),
    longestSliceCpuMs: Number(lock['last_job_longest_slice_cpu_ms']),
  };
}

async function callOf(api: string, name: CallName, snapshotId: string): Promise<Record<string, unknown>> {
  const { status, body } =
    name === 'digest' || name === 'state'
      ? await adminCall(api, 'GET', `/_afp/${name}`)
      : await adminCall(api, 'POST', `/_afp/${name}`, name === 'revert' ? { id: snapshotId } : {});
  if (status !== 200) throw new Error(`travel: ${name} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * One admin call on a connection of its own (closed after it). Why not fetch's pool: on a loaded
 * machine a call may last longer than the server's 30 s keep-alive, a pooled connection idle that
 * long is closed by the server, and the next call sent on it failed with ECONNRESET (a POST is not
 * retried), ending the part.
 */
function adminCall(
  api: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const answered = Promise.withResolvers<{ status: number; body: Record<string, unknown> }>();
  const sent = request(`${api}${path}`, {
    method,
    agent: false,
    headers:
      text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
  });
  sent.on('error', answered.reject);
  sent.on('response', (response) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', answered.reject);
    response.on('end', () => {
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        answered.resolve({ status: response.statusCode ?? 0, body: parsed });
      } catch (error) {
        answered.reject(error);
      }
    });
  });
  sent.end(text);
  return answered.promise;
}

/** The one-shot copy, restore, digest and ledger audit of the served platform (wall and CPU ms each). The restore gives back the state it holds. */
function oneShotMs(handle: ServeHandle): Record<Exclude<CallName, 'reset'>, BlockTime> {
  let block = startBlock();
  const image = capturePlatform(handle.platform);
  const snapshot = block();
  block = startBlock();
  restorePlatform(image, handle.platform);
  const revert = block();
  block = startBlock();
  platformDigest(handle.platform);
  const digest = block();
  block = startBlock();
  handle.platform.ledger.auditSum();
  return { snapshot, revert, digest, state: block() };
}

/** The one-shot reset: a fresh platform of the served settings copied into the served one. */
function oneShotReset(handle: ServeHandle): BlockTime {
  const block = startBlock();
  copyToEnd(replaceSliced(new Platform({ seed: SEED, startMs: START_MS }), handle.platform));
  return block();
}

export function travelVerdict(result: TravelBenchResult): 'PASS' | 'MISS' {
  return result.lock.longestSliceCpuMs <= TARGET_HEALTH_WAIT_MS ? 'PASS' : 'MISS';
}

export function travelLines(result: TravelBenchResult): string[] {
  const fixed = (value: number, digits: number): string => value.toFixed(digits);
  return [
    `time travel (afp serve, ${result.agents} agents registered in ${fixed(result.buildMs, 0)} ms; ${result.rounds} rounds, then a reset; GET /health every ${PROBE_EVERY_MS} ms)`,
    ...result.calls.map(
      (call) =>
        `  ${call.name.padEnd(8)} ${fixed(call.wallMs, 0).padStart(6)} ms in slices, longest /health wait ${fixed(call.healthWaitMsMax, 1).padStart(6)} ms (${call.probes} probes; longest GC pause ${fixed(call.gcPauseMsMax, 1)} ms, ${call.gcPauseKind ?? 'none'}; longest slice cpu ${fixed(call.longestSliceCpuMs, 1)} ms, wall ${fixed(call.longestSliceMs, 1)} ms); in one go ${fixed(call.oneShotMs, 0).padStart(6)} ms (cpu ${fixed(call.oneShotCpuMs, 0)} ms)`,
    ),
    `  longest /health wait during ${result.calls.map((call) => call.name).join(', ')} ${fixed(Math.max(...result.calls.map((call) => call.healthWaitMsMax)), 1)} ms (wall)`,
    centuryLine(result.century),
    crowdLine(result.crowd),
    `longest block of the loop by a job (cpu)   ${fixed(result.lock.longestSliceCpuMs, 1)} ms  (wall ${fixed(result.lock.longestSliceMs, 1)} ms, ${result.lock.slices} slices)  target <= ${TARGET_HEALTH_WAIT_MS} ms  ${travelVerdict(result)}`,
  ];
}

export function travelJson(result: TravelBenchResult): Record<string, unknown> {
  return {
    ...result,
    target: { health_wait_ms_max: TARGET_HEALTH_WAIT_MS, verdict: travelVerdict(result) },
    century_target: { cpu_ms_max: TARGET_CENTURY_MS, verdict: centuryVerdict(result.century) },
    crowd_target: {
      cpu_ms_max: TARGET_CROWD_CPU_MS,
      health_wait_ms_max: TARGET_CROWD_HEALTH_MS,
      verdict: crowdVerdict(result.crowd),
    },
  };
}
