/**
 * `afp load [SCENARIO] --engine autocannon --endpoint E --target URL|FILE [--connections N]
 * [--duration D] [--amount N] [--timeout D] [--body JSON] [--key KEY] [--out DIR]`: "how many
 * requests a second can this endpoint take" — one endpoint, a closed loop of `--connections`
 * through autocannon's programmatic API (src/load/autocannon-engine.ts), measured into the same
 * recorder, judged by the same thresholds (the SCENARIO's `load:` section, when one is given; its
 * duration is the default) and written as the same reports as the open-model run (engine
 * `autocannon`). Ctrl-C stops it early; what was measured is still reported.
 * Exit codes as `afp load`: 0, 5 a threshold failed, 2 invalid input, 4 the target does not answer.
 */
import { readFile } from 'node:fs/promises';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { runAutocannonCounted, type EngineCounts } from '../load/autocannon-engine.ts';
import { littleCheck, littleLine, type Concurrency } from '../load/littles-law.ts';
import { endpointRequest, parseAutocannonFlags } from '../load/autocannon-flags.ts';
import { overallHistogram, percentilesOf, type LoadSnapshot } from '../load/load-recorder.ts';
import { writeLoadReports } from '../load/report/write-load-reports.ts';
import { evaluateThresholds, failedThresholds, parseThresholds, type Threshold, type ThresholdResult } from '../load/thresholds.ts';
import { resolveTarget } from '../live/resolve-target.ts';
import { formatScenarioErrors, parseScenario, type Scenario } from '../sim/scenario.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { EXIT, exitOfUnresolvedTarget } from './exit-codes.ts';
import type { RecordFields } from './json-output.ts';

/**
 * The flags of `afp load` that only the open-model engine takes. `--quiet` is not among them: the
 * closed loop prints no live view, so it is accepted and changes nothing (the usage lists it for both).
 */
const AFP_ENGINE_ONLY = ['seed', 'shard', 'workers'];

export const AUTOCANNON_USAGE = `usage: ${usageLine(definitionOf('load'))}`;

export interface AutocannonIo {
  out(text: string): void;
  err(text: string): void;
  onInterrupt(handler: () => void): () => void;
}

async function scenarioOf(file: string | undefined, io: AutocannonIo): Promise<Scenario | null | 'invalid'> {
  if (file === undefined) return null;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    io.err(`afp load: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 'invalid';
  }
  const parsed = parseScenario(text, { fileName: file, agentParams: (name) => AGENTS[name]?.params, knownAgents: AGENT_NAMES });
  if (!parsed.ok) {
    io.err(`${formatScenarioErrors(file, parsed.errors)}\n`);
    return 'invalid';
  }
  return parsed.scenario;
}

export async function autocannonMain(argv: readonly string[], io: AutocannonIo, record: RecordFields = () => undefined): Promise<number> {
  const args = parseCommand(argv, definitionOf('load'), AFP_ENGINE_ONLY);
  const errors = [...args.errors];
  if (stringFlag(args, 'engine') !== 'autocannon') errors.push(`--engine must be afp or autocannon, got '${stringFlag(args, 'engine') ?? ''}'`);
  if (args.positionals.length > 1) errors.push(`expected at most one SCENARIO file (its thresholds and duration), got ${args.positionals.length}`);
  const targetSpec = stringFlag(args, 'target');
  if (targetSpec === undefined) errors.push('--target URL|FILE is required (the live target to load)');
  const flags = parseAutocannonFlags(args);
  if ('errors' in flags) errors.push(...flags.errors);
  if (errors.length > 0 || 'errors' in flags || targetSpec === undefined) {
    io.err(`${errors.map((error) => `afp load: ${error}`).join('\n')}\n${AUTOCANNON_USAGE}\n`);
    return EXIT.invalidInput;
  }
  const scenario = await scenarioOf(args.positionals[0], io);
  if (scenario === 'invalid') return EXIT.invalidInput;
  const thresholds = parseThresholds(scenario?.load?.thresholds);
  if (!thresholds.ok) {
    io.err(`${thresholds.errors.map((error) => `${args.positionals[0] ?? ''}: ${error}`).join('\n')}\n`);
    return EXIT.invalidInput;
  }
  const resolved = await resolveTarget(targetSpec);
  if (!resolved.ok) {
    io.err(`afp load: ${resolved.message}\n`);
    return exitOfUnresolvedTarget(resolved.kind);
  }
  const target = resolved.value;
  const request = endpointRequest(flags.endpoint, target, stringFlag(args, 'key') ?? null);
  if (typeof request === 'string') {
    io.err(`afp load: ${request}\n`);
    return EXIT.invalidInput;
  }
  const durationMs = flags.durationMs ?? scenario?.load?.duration ?? 10_000;
  io.out(`engine: autocannon (a closed loop: ${flags.connections} connections, each sending its next request when the last is answered)\ntarget: ${target.name}\nendpoint: ${request.endpoint} (${request.method} ${request.url})\nduration: ${durationMs / 1000} s${flags.amount === undefined ? '' : `, at most ${flags.amount} requests`}\n`);
  const abort = new AbortController();
  const stopListening = io.onInterrupt(() => abort.abort());
  let snapshot: LoadSnapshot;
  let counts: EngineCounts;
  try {
    ({ snapshot, counts } = await runAutocannonCounted({
      url: request.url, method: request.method, headers: request.headers, endpoint: request.endpoint, connections: flags.connections, durationMs, timeoutMs: flags.timeoutMs, signal: abort.signal,
      ...(flags.amount === undefined ? {} : { amount: flags.amount }), ...(flags.body === undefined ? {} : { body: flags.body }),
    }));
  } finally {
    stopListening();
  }
  if (counts.unsentAfterClose > 0) io.out(`note: ${counts.unsentAfterClose} requests autocannon wrote onto connections ${target.name} had announced closed (Connection: close) are not requests of the run: the target never took them\n`);
  const concurrency: Concurrency = { value: flags.connections, source: 'configured connections' };
  return finishAutocannon({ snapshot, concurrency, thresholds: thresholds.thresholds, scenario, targetName: target.name, targetSource: target.source, out: stringFlag(args, 'out') ?? 'reports/autocannon-load', interrupted: abort.signal.aborted, io, record });
}

async function finishAutocannon(run: { snapshot: LoadSnapshot; concurrency: Concurrency; thresholds: readonly Threshold[]; scenario: Scenario | null; targetName: string; targetSource: string; out: string; interrupted: boolean; io: AutocannonIo; record: RecordFields }): Promise<number> {
  const { snapshot, io } = run;
  const judged = evaluateThresholds(run.thresholds, snapshot);
  const files = await writeLoadReports(run.out, {
    scenario: run.scenario?.name ?? 'autocannon', target: { name: run.targetName, source: run.targetSource }, engine: 'autocannon', snapshot, thresholds: judged, concurrency: run.concurrency,
    ...(run.scenario === null ? {} : { seed: run.scenario.seed }), ...(run.interrupted ? { stopReason: 'interrupted' } : {}),
  });
  const requests = snapshot.endpoints.reduce((total, endpoint) => total + endpoint.requests, 0);
  const failed = snapshot.endpoints.reduce((total, endpoint) => total + endpoint.failed, 0);
  const noAnswer = snapshot.endpoints.reduce((total, endpoint) => total + (endpoint.statuses['0'] ?? 0), 0);
  const seconds = Math.max(0.001, (snapshot.endMs - snapshot.startMs) / 1000);
  const latency = percentilesOf(overallHistogram(snapshot));
  const little = littleCheck(snapshot, run.concurrency);
  const lines = [
    `requests: ${requests} (${(requests / seconds).toFixed(1)}/s over ${seconds.toFixed(1)} s), failed ${failed}`,
    `latency (ms, closed loop: from each write to its answer, measured by afp): p50 ${latency.p50Ms.toFixed(2)} · p90 ${latency.p90Ms.toFixed(2)} · p99 ${latency.p99Ms.toFixed(2)} · p99.9 ${latency.p999Ms.toFixed(2)} · max ${latency.maxMs.toFixed(2)}`,
    littleLine(little),
    ...thresholdLines(judged),
    `files: ${files.join(', ')}`,
  ];
  io.out(`${lines.join('\n')}\n`);
  run.record({ ...(run.scenario === null ? {} : { seed: run.scenario.seed, scenario: run.scenario.name }), engine: 'autocannon', target: run.targetName, requests, failed, no_answer: noAnswer, seconds, latency_ms: { p50: latency.p50Ms, p90: latency.p90Ms, p99: latency.p99Ms, p999: latency.p999Ms, max: latency.maxMs }, littles_law: little, thresholds: judged.map((threshold) => ({ metric: threshold.metric, expression: threshold.expression, ok: threshold.ok })), files });
  if (requests > 0 && noAnswer === requests) {
    io.err(`afp load: ${run.targetName} answered none of the ${requests} requests\n`);
    return EXIT.liveness;
  }
  const failing = failedThresholds(judged);
  if (failing.length > 0) {
    io.out(`FAILED: ${failing.length} of ${judged.length} thresholds\n`);
    return EXIT.loadThreshold;
  }
  return EXIT.ok;
}

/** The thresholds as the terminal shows them (both engines). */
export function thresholdLines(results: readonly ThresholdResult[]): string[] {
  if (results.length === 0) return [];
  return ['thresholds:', ...results.map((result) => `  ${result.ok ? 'pass' : 'FAIL'} ${result.metric}: ${result.expression} (observed ${Number.isInteger(result.value) ? String(result.value) : result.value.toFixed(4)}${result.noData ? ', no data' : ''})`)];
}
