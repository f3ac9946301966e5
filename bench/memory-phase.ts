/**
 * The memory part of `npm run bench` (`--only memory`): bytes per agent and virtual seconds per
 * wall second of the quickstart mix at 10,000, 100,000 and 1,000,000 agents (issue 19: at most
 * 4 KB per agent, so a million agents fit in 4 GB). Each size runs in a fresh child process
 * (memory-child.ts), so no size inherits another's heap.
 *
 * Bytes per agent = (heap used + external after a forced full collection at the end of the run,
 * while the simulation is still live, minus the same reading before it was built) / agents. Why
 * not the RSS: it also holds garbage not yet collected, free pages V8 has not given back and the
 * young generation's semi-spaces, so it says more about when the collector last ran than about
 * what the run keeps; the child's peak RSS is printed beside it for the machine's view.
 * Bounds: the virtual time per size (`--memory-hours`, default 2 h: every agent registers in
 * the first 12 minutes and wakes at least once); the 1M size is bench-only, never in tests.
 * Sizes are scale factors of the quickstart's 1,000 agents, every population scaled alike.
 * Then the served rows (served-memory.ts): an `afp serve`'s resident bytes per agent registered
 * over HTTP, 50,000 agents per dialect (issue 71), target the same 4 KB.
 */
import { spawn } from 'node:child_process';
import { rssPerAgent, servedMemory, type ServedMemory } from './served-memory.ts';
import { fileURLToPath } from 'node:url';

/** Issue 19's goal: resident bytes per agent across all services. */
export const TARGET_BYTES_PER_AGENT = 4_096;
export const MEMORY_SIZES = [10_000, 100_000, 1_000_000] as const;
/** `--small`: one size, so the suite's small bench stays quick. */
export const MEMORY_SIZES_SMALL = [1_000] as const;

export interface MemorySize {
  readonly agents: number;
  readonly virtualMs: number;
  readonly wallMs: number;
  readonly requests: number;
  readonly events: number;
  /** Heap used + external after a forced GC at the run's end, minus before the run. */
  readonly liveBytes: number;
  readonly peakRssBytes: number;
  readonly outcome: string;
}

export interface MemoryBenchResult {
  readonly hours: number;
  readonly sizes: readonly MemorySize[];
  /** afp serve's resident bytes per agent registered over HTTP (served-memory.ts). */
  readonly served: readonly ServedMemory[];
}

export interface MemoryPartOptions {
  readonly sizes: readonly number[];
  readonly hours: number;
  /** Agents registered on each served row (SERVED_AGENTS; --small: SERVED_AGENTS_SMALL). */
  readonly servedAgents: number;
  readonly log: (line: string) => void;
}

export async function memoryPart(options: MemoryPartOptions): Promise<MemoryBenchResult> {
  const sizes: MemorySize[] = [];
  for (const agents of options.sizes) {
    options.log(`memory: ${agents} agents of the quickstart mix for ${options.hours} virtual h, in a fresh process`);
    const size = await sizeInChild(agents, options.hours);
    options.log(
      `memory: ${agents} agents: ${Math.round(size.liveBytes / agents)} bytes per agent, ${Math.round(vsecPerSecond(size))} vsec/s`,
    );
    sizes.push(size);
  }
  return { hours: options.hours, sizes, served: await servedMemory(options.servedAgents, options.log) };
}

function sizeInChild(agents: number, hours: number): Promise<MemorySize> {
  const script = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
  const args = ['--expose-gc', '--max-semi-space-size=32', script, String(agents), String(hours)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`the memory bench child (${agents} agents) exited ${String(code)}`));
        return;
      }
      try {
        resolve(JSON.parse(output) as MemorySize);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

export function vsecPerSecond(size: MemorySize): number {
  return size.wallMs > 0 ? size.virtualMs / size.wallMs : 0;
}

export function bytesPerAgent(size: MemorySize): number {
  return size.liveBytes / size.agents;
}

/**
 * What each agent past the smaller size costs: the growth in live bytes from one size to the next
 * over the agents added. The run's fixed part (compiled code, caches, the first events) cancels
 * out, so this is the figure that says whether a million agents fit in 4 GB.
 */
export function marginalBytesPerAgent(smaller: MemorySize, larger: MemorySize): number {
  return (larger.liveBytes - smaller.liveBytes) / (larger.agents - smaller.agents);
}

export function memoryVerdict(result: MemoryBenchResult): 'PASS' | 'MISS' {
  return result.sizes.every((size) => bytesPerAgent(size) <= TARGET_BYTES_PER_AGENT && size.outcome === 'completed')
    ? 'PASS'
    : 'MISS';
}

/** Every served row at most TARGET_BYTES_PER_AGENT resident bytes per agent, every agent registered. */
export function servedVerdict(result: MemoryBenchResult): 'PASS' | 'MISS' {
  return result.served.every((row) => rssPerAgent(row) <= TARGET_BYTES_PER_AGENT && row.registered === row.agents)
    ? 'PASS'
    : 'MISS';
}

export function memoryLines(result: MemoryBenchResult): string[] {
  const rows = result.sizes.map((size) => {
    const agents = String(size.agents).padStart(9);
    const perAgent = String(Math.round(bytesPerAgent(size))).padStart(7);
    return `${agents} agents  ${perAgent} B/agent  ${vsecPerSecond(size).toFixed(0).padStart(7)} vsec/s  peak RSS ${(size.peakRssBytes / 2 ** 20).toFixed(0)} MiB  ${size.requests} requests, ${size.events} events, ${size.outcome}`;
  });
  const marginal = result.sizes.slice(1).map((larger, index) => {
    const smaller = result.sizes[index] as MemorySize;
    return `  marginal ${smaller.agents} -> ${larger.agents} agents: ${Math.round(marginalBytesPerAgent(smaller, larger))} B per added agent`;
  });
  return [
    `memory (quickstart mix, ${result.hours} virtual h per size, heap used + external after a forced GC at the end / agents)`,
    ...rows,
    ...marginal,
    `bytes per agent   target <= ${TARGET_BYTES_PER_AGENT} at every size  ${memoryVerdict(result)}`,
    ...result.served.map(
      (row) =>
        `afp serve (${row.dialect}), ${row.registered}/${row.agents} agents registered over HTTP: ${Math.round(rssPerAgent(row))} resident B/agent (RSS ${(row.rssBeforeBytes / 2 ** 20).toFixed(0)} -> ${(row.rssAfterBytes / 2 ** 20).toFixed(0)} MiB)`,
    ),
    ...(result.served.length === 0
      ? []
      : [`served bytes per agent (RSS)   target <= ${TARGET_BYTES_PER_AGENT}  ${servedVerdict(result)}`]),
  ];
}

export function memoryJson(result: MemoryBenchResult): Record<string, unknown> {
  return {
    hours: result.hours,
    sizes: result.sizes.map((size, index) => {
      const smaller = index === 0 ? undefined : result.sizes[index - 1];
      return {
        ...size,
        bytesPerAgent: bytesPerAgent(size),
        marginalBytesPerAgent: smaller === undefined ? null : marginalBytesPerAgent(smaller, size),
        vsecPerSecond: vsecPerSecond(size),
      };
    }),
    target: { bytes_per_agent_max: TARGET_BYTES_PER_AGENT, verdict: memoryVerdict(result) },
    served: result.served.map((row) => ({ ...row, rssBytesPerAgent: rssPerAgent(row) })),
    served_target: { rss_bytes_per_agent_max: TARGET_BYTES_PER_AGENT, verdict: servedVerdict(result) },
  };
}
