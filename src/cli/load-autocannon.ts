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
import {
  AUTOCANNON_LIMITS,
  AUTOCANNON_METHODS,
  HIGH_RESOLUTION_CLOCK,
  runAutocannonCounted,
  type EngineCounts,
} from '../load/autocannon-engine.ts';
import {
  type MetricsOutputs,
  runMetricsOutputs,
  reachable,
  refusedAnswers,
  refusedLine,
  littleCheck,
  littleLine,
  type Concurrency,
  overallHistogram,
  percentilesOf,
  type LoadSnapshot,
  writeLoadReports,
  evaluateThresholds,
  parseThresholds,
  type Threshold,
} from '../load.ts';
import { parseOutFlags, urlEndpointName, urlMethodOf } from '../load/options.ts';
import { bodyOf, headersOf, isUrlRun, thresholdsOf, urlCredentials, urlOf } from './url-flags.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { exitOf, refusedFigures, thresholdLines } from './load-view.ts';
import type { InterruptSignal } from './process-interrupt.ts';
import { endpointRequest, parseAutocannonFlags, type AutocannonFlags } from './autocannon-flags.ts';
import { resolveTarget } from '../live/options.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { otherFormFlags, parseCommand, stringFlag, type ParsedArgs } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import type { RecordFields } from './json-output.ts';
import { CommandFailure, type Ending, invalidInput, unresolvedTarget, unsettled } from '../core/command-failure.ts';

/**
 * The flags of `afp load` that only the open-model engine takes. `--quiet` is not among them: the
 * closed loop prints no live view, so it is accepted and changes nothing (the usage lists it for both).
 */
const AFP_ENGINE_ONLY = [
  'seed',
  'shard',
  'workers',
  'rate',
  'vus',
  'max-vus',
  'iterations',
  'stage',
  'check',
  'requests',
  'insecure-skip-tls-verify',
];
/** A URL's flags: refused with a SCENARIO or --target (its --endpoint names the request). */
const URL_REQUEST_ONLY = ['url', 'method', 'header', 'body-file', 'threshold'];

export const AUTOCANNON_USAGE = `usage: ${usageLine(definitionOf('load'))}`;
const AUTOCANNON_OUT_DEFAULT = 'reports/autocannon-load';
const REACH_TIMEOUT_MS = 5_000;

export interface AutocannonIo {
  out(text: string): void;
  err(text: string): void;
  onInterrupt(handler: (signal: InterruptSignal) => void): () => void;
}

async function scenarioOf(file: string | undefined): Promise<Scenario | null | CommandFailure> {
  if (file === undefined) return null;
  const loaded = await loadScenarioFile('afp load', file);
  return loaded instanceof CommandFailure ? loaded : loaded.scenario;
}

export async function autocannonMain(
  argv: readonly string[],
  io: AutocannonIo,
  record: RecordFields = () => undefined,
): Promise<Ending> {
  if (isUrlRun(argv)) return autocannonUrl(argv, io, record);
  const parsed = parseTargetRun(argv);
  if (!('flags' in parsed)) return parsed;
  const { args, flags, targetSpec } = parsed;
  const scenario = await scenarioOf(args.positionals[0]);
  if (scenario instanceof CommandFailure) return scenario;
  const thresholds = parseThresholds(scenario?.load?.thresholds);
  if (!thresholds.ok) {
    return invalidInput(`${thresholds.errors.map((error) => `${args.positionals[0] ?? ''}: ${error}`).join('\n')}`);
  }
  // An autocannon run funds nothing (its one key is --key's): the file's keys funding is not needed.
  const resolved = await resolveTarget(targetSpec, { fundsNothing: true });
  if (!resolved.ok) {
    return unresolvedTarget(resolved.kind, `afp load: ${resolved.message}`);
  }
  const target = resolved.value;
  const request = endpointRequest(flags.endpoint, target, stringFlag(args, 'key') ?? null);
  if (typeof request === 'string') {
    return invalidInput(`afp load: ${request}`);
  }
  const durationMs = flags.durationMs ?? scenario?.load?.duration ?? 10_000;
  io.out(
    `engine: autocannon (a closed loop: ${flags.connections} connections, each sending its next request when the last is answered)\ntarget: ${target.name}\nendpoint: ${request.endpoint} (${request.method} ${request.url})\nduration: ${durationMs / 1000} s${flags.amount === undefined ? '' : `, at most ${flags.amount} requests`}\n`,
  );
  const ran = await runInterruptibly(io, (signal) =>
    runAutocannonCounted({
      url: request.url,
      method: request.method,
      headers: request.headers,
      endpoint: request.endpoint,
      connections: flags.connections,
      durationMs,
      timeoutMs: flags.timeoutMs,
      signal,
      ...(flags.amount === undefined ? {} : { amount: flags.amount }),
      ...(flags.body === undefined ? {} : { body: flags.body }),
    }),
  );
  sayUnsentAfterClose(ran.outcome.counts, target.name, io);
  return finishAutocannon({
    snapshot: ran.outcome.snapshot,
    concurrency: { value: flags.connections, source: 'configured connections' },
    thresholds: thresholds.thresholds,
    scenario,
    targetName: target.name,
    targetSource: target.source,
    out: parseOutFlags(args.lists['out'] ?? []).dir ?? AUTOCANNON_OUT_DEFAULT,
    interrupted: ran.interrupted,
    outputs: null,
    io,
    record,
  });
}

/** A target run's flags, checked (every error at once, then the usage). */
function parseTargetRun(
  argv: readonly string[],
): { args: ParsedArgs; flags: AutocannonFlags; targetSpec: string } | CommandFailure {
  // Every flag of `afp load` parses, so one of another form is named as such (never "unknown", its value a stray positional).
  const args = parseCommand(argv, definitionOf('load'));
  const errors = [
    ...args.errors,
    ...otherFormFlags(args, AFP_ENGINE_ONLY, "afp's own engine (--engine afp, the default)"),
    ...otherFormFlags(args, URL_REQUEST_ONLY, 'a URL run (afp load URL --engine autocannon …)'),
  ];
  if (stringFlag(args, 'engine') !== 'autocannon')
    errors.push(`--engine must be afp or autocannon, got '${stringFlag(args, 'engine') ?? ''}'`);
  if (args.positionals.length > 1)
    errors.push(`expected at most one SCENARIO file (its thresholds and duration), got ${args.positionals.length}`);
  const targetSpec = stringFlag(args, 'target');
  if (targetSpec === undefined) errors.push('--target URL|FILE is required (the live target to load)');
  const flags = parseAutocannonFlags(args);
  if ('errors' in flags) errors.push(...flags.errors);
  if (errors.length > 0 || 'errors' in flags || targetSpec === undefined) {
    return invalidInput(`${errors.map((error) => `afp load: ${error}`).join('\n')}\n${AUTOCANNON_USAGE}`);
  }
  return { args, flags, targetSpec };
}

/** The requests autocannon wrote onto connections the target had closed: said, not counted. */
function sayUnsentAfterClose(counts: EngineCounts, targetName: string, io: AutocannonIo): void {
  if (counts.unsentAfterClose > 0)
    io.out(
      `note: ${counts.unsentAfterClose} requests autocannon wrote onto connections ${targetName} had announced closed (Connection: close) are not requests of the run: the target never took them\n`,
    );
}

/**
 * `afp load URL --engine autocannon [--connections N] [--duration D] [--amount N] [--timeout D]
 * [--method M] [--header 'K: V']… [--body TEXT | --body-file FILE] [--threshold 'METRIC: EXPR']…
 * [--out DIR] [--out prometheus=URL] [--out json=FILE]`: the closed loop on a plain URL — no
 * scenario, target file or key. The metrics outputs get the run's final figures (autocannon's loop
 * has no live hook).
 */
async function autocannonUrl(argv: readonly string[], io: AutocannonIo, record: RecordFields): Promise<Ending> {
  const run = await parseUrlRun(argv);
  if (!('url' in run)) return run;
  const { url, shownUrl, flags, method, body } = run;
  const outputs = runMetricsOutputs(run.outs.outputs, HIGH_RESOLUTION_CLOCK, { tags: run.outs.tags });
  const prepared = await outputs?.prepare();
  const reach = typeof prepared === 'string' ? null : await reachable(url, REACH_TIMEOUT_MS);
  if (typeof prepared === 'string' || reach === null || !reach.ok) {
    return typeof prepared === 'string'
      ? invalidInput(`afp load: ${prepared}`)
      : unsettled(`afp load: ${shownUrl} is not reachable: ${reach?.ok === false ? reach.message : ''}`);
  }
  const endpoint = urlEndpointName({ url, method });
  const durationMs = flags.durationMs ?? AUTOCANNON_LIMITS.durationMs.default;
  io.out(
    `engine: autocannon (a closed loop: ${flags.connections} connections, each sending its next request when the last is answered)\ntarget: ${shownUrl}\nendpoint: ${endpoint}\nduration: ${durationMs / 1000} s${flags.amount === undefined ? '' : `, at most ${flags.amount} requests`}\n`,
  );
  const ran = await runInterruptibly(io, (signal) =>
    runAutocannonCounted({
      url,
      method,
      headers: run.headers,
      endpoint,
      connections: flags.connections,
      durationMs,
      timeoutMs: flags.timeoutMs,
      signal,
      ...(flags.amount === undefined ? {} : { amount: flags.amount }),
      ...(body === undefined ? {} : { body }),
    }),
  );
  sayUnsentAfterClose(ran.outcome.counts, 'the target', io);
  return finishAutocannon({
    snapshot: ran.outcome.snapshot,
    concurrency: { value: flags.connections, source: 'configured connections' },
    thresholds: run.thresholds,
    scenario: null,
    targetName: shownUrl,
    targetSource: 'url',
    out: run.outs.dir ?? AUTOCANNON_OUT_DEFAULT,
    interrupted: ran.interrupted,
    outputs,
    io,
    record,
  });
}

type UrlMethod = Extract<ReturnType<typeof urlMethodOf>, { method: unknown }>['method'];

/** A URL run's flags, checked (every error at once, then the usage): the URL, its request and thresholds, the outputs. */
async function parseUrlRun(argv: readonly string[]): Promise<
  | {
      url: string;
      shownUrl: string;
      flags: AutocannonFlags;
      headers: Readonly<Record<string, string>>;
      body: Awaited<ReturnType<typeof bodyOf>>;
      method: UrlMethod;
      thresholds: readonly Threshold[];
      outs: ReturnType<typeof parseOutFlags>;
    }
  | CommandFailure
> {
  const args = parseCommand(argv, definitionOf('load'));
  const errors = [
    ...args.errors,
    ...otherFormFlags(
      args,
      AFP_ENGINE_ONLY,
      "afp's own engine only (--engine autocannon is a closed loop of --connections N)",
    ),
    ...otherFormFlags(
      args,
      ['target', 'endpoint', 'key'],
      'a run against a target (afp load [SCENARIO] --target URL|FILE)',
    ),
  ];
  const given = urlOf(args, errors);
  // The URL's user:pw go as a Basic authorization header (as afp's engine and k6 send them), never shown.
  const credentials = given === null ? null : urlCredentials(given);
  const url = credentials?.url ?? null;
  const flags = parseAutocannonFlags({ ...args, flags: { ...args.flags, endpoint: url ?? '-' } });
  if ('errors' in flags) errors.push(...flags.errors);
  const givenHeaders = headersOf(args.lists['header'] ?? [], errors);
  const headers =
    credentials === null || credentials.authorization === null || givenHeaders['authorization'] !== undefined
      ? givenHeaders
      : { ...givenHeaders, authorization: credentials.authorization };
  const body = await bodyOf(args, errors);
  const methodOrError = urlMethodOf(stringFlag(args, 'method') ?? 'GET', body !== undefined);
  if ('error' in methodOrError) errors.push(methodOrError.error);
  else if (!AUTOCANNON_METHODS.includes(methodOrError.method))
    errors.push(
      `--method ${methodOrError.method} with --engine autocannon: autocannon waits for the body a HEAD answer announces, so every connection would stall; afp's engine sends HEAD (--vus N for a closed loop)`,
    );
  const thresholds = parseThresholds(thresholdsOf(args.lists['threshold'] ?? [], errors));
  if (!thresholds.ok)
    errors.push(...thresholds.errors.map((error) => error.replace(/^load\.thresholds\./, '--threshold ')));
  const outs = parseOutFlags(args.lists['out'] ?? [], args.lists['tag'] ?? []);
  errors.push(...outs.errors);
  if (errors.length > 0 || url === null || 'errors' in flags || !thresholds.ok || 'error' in methodOrError) {
    return invalidInput(`${errors.map((error) => `afp load: ${error}`).join('\n')}\n${AUTOCANNON_USAGE}`);
  }
  const shownUrl = credentials?.shownUrl ?? '';
  const { method } = methodOrError;
  return { url, shownUrl, flags, headers, body, method, thresholds: thresholds.thresholds, outs };
}

/** Runs `run` with Ctrl-C wired to its AbortSignal; whether it was interrupted. */
async function runInterruptibly<T>(
  io: AutocannonIo,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<{ outcome: T; interrupted: boolean }> {
  const abort = new AbortController();
  const stopListening = io.onInterrupt(() => abort.abort());
  try {
    return { outcome: await run(abort.signal), interrupted: abort.signal.aborted };
  } finally {
    stopListening();
  }
}

async function finishAutocannon(run: {
  snapshot: LoadSnapshot;
  concurrency: Concurrency;
  thresholds: readonly Threshold[];
  scenario: Scenario | null;
  targetName: string;
  targetSource: string;
  out: string;
  interrupted: boolean;
  outputs: MetricsOutputs | null;
  io: AutocannonIo;
  record: RecordFields;
}): Promise<Ending> {
  const { snapshot, io } = run;
  const judged = evaluateThresholds(run.thresholds, snapshot);
  const files = await writeLoadReports(run.out, {
    scenario: run.scenario?.name ?? 'autocannon',
    target: { name: run.targetName, source: run.targetSource },
    engine: 'autocannon',
    snapshot,
    thresholds: judged,
    concurrency: run.concurrency,
    ...(run.scenario === null ? {} : { seed: run.scenario.seed }),
    ...(run.interrupted ? { stopReason: 'interrupted' } : {}),
  });
  const requests = snapshot.endpoints.reduce((total, endpoint) => total + endpoint.requests, 0);
  const failed = snapshot.endpoints.reduce((total, endpoint) => total + endpoint.failed, 0);
  const noAnswer = snapshot.endpoints.reduce((total, endpoint) => total + (endpoint.statuses['0'] ?? 0), 0);
  const seconds = Math.max(0.001, (snapshot.endMs - snapshot.startMs) / 1000);
  const latency = percentilesOf(overallHistogram(snapshot));
  const little = littleCheck(snapshot, run.concurrency);
  const refused = refusedLine(refusedAnswers(snapshot));
  const lines = [
    ...(refused === null ? [] : [refused]),
    `requests: ${requests} (${(requests / seconds).toFixed(1)}/s over ${seconds.toFixed(1)} s), failed ${failed}`,
    `latency (ms, closed loop: from each write to its answer, measured by afp): p50 ${latency.p50Ms.toFixed(2)} · p90 ${latency.p90Ms.toFixed(2)} · p99 ${latency.p99Ms.toFixed(2)} · p99.9 ${latency.p999Ms.toFixed(2)} · max ${latency.maxMs.toFixed(2)}`,
    littleLine(little),
    ...thresholdLines(judged),
    ...(run.outputs === null ? [] : (await run.outputs.finish(snapshot)).map((note) => `note: ${note}`)),
    `files: ${[...files, ...(run.outputs?.files ?? [])].join(', ')}`,
  ];
  io.out(`${lines.join('\n')}\n`);
  run.record({
    ...(run.scenario === null ? {} : { seed: run.scenario.seed, scenario: run.scenario.name }),
    engine: 'autocannon',
    target: run.targetName,
    requests,
    failed,
    refused: refusedFigures(snapshot),
    no_answer: noAnswer,
    seconds,
    latency_ms: {
      p50: latency.p50Ms,
      p90: latency.p90Ms,
      p99: latency.p99Ms,
      p999: latency.p999Ms,
      max: latency.maxMs,
    },
    littles_law: little,
    thresholds: judged.map((threshold) => ({
      metric: threshold.metric,
      expression: threshold.expression,
      ok: threshold.ok,
    })),
    files,
  });
  return exitOf(snapshot, judged, run.targetName, io, run.interrupted);
}
