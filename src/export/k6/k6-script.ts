/**
 * `afp export k6`'s generator: a scenario in, one k6 script (an ES module) out — afp's own agents,
 * client and route names bundled with esbuild (k6-bundle.ts) over k6's http.asyncRequest
 * (k6-agent-run.ts) — or every reason it cannot be written, all at once.
 *
 * The script: a header naming the scenario, its seed and afp's version; k6 `options`
 * (k6-options.ts: the `load:` profile as one k6 scenario, VUs as afp load's agents free to take
 * an arrival; the thresholds as written plus a request count per endpoint); the populations as
 * afp's parser read them here (a JavaScript literal, money as bigint), so every agent gets the
 * params `afp run` gives it without a parser in each VU; and the glue that hands k6's modules to
 * the runtime. Runs unchanged with k6's --execution-segment: each process owns its segment's
 * agents (k6-segment.ts).
 * Refused, never approximated: a scenario without a `load:` section, a profile k6 cannot take,
 * more VUs than the scenario has agents (each VU steps its own agents, one at a time).
 * Byte-stable: the same scenario, seed, target and version give the same bytes.
 */
import type { AnyAgentDefinition } from '../../agent/agent.ts';
import { ALL_ROUTES } from '../../http/routes/index.ts';
import { targetUrlError } from '../../client/target.ts';
import type { Scenario } from '../../scenario/scenario.ts';
import { AGENT_MODULES } from '../../../agents/index.ts';
import { jsComment, jsLiteral, jsonSource, jsString, jsValueOf, type JsValue } from './js-literal.ts';
import type { K6Scenario } from './k6-agent-run.ts';
import { bundleK6Script, rootModule } from './k6-bundle.ts';
import { GUARDED_METRICS, k6Duration, k6Options, type K6Options } from './k6-options.ts';
import { mountsNeeded } from './k6-mounts.ts';
import type { ServiceName } from '../../platform/platform.ts';
import { resolveLoadPlan, LOAD_DEFAULTS, arrivalSchedule } from '../../load.ts';
import { LOAD_LIMITS } from '../../scenario/load-schema.ts';

export const REQUEST_TIMEOUT_MS = 30_000;

export interface K6ExportOptions {
  /** The style-B api URL baked in as the default target (AFP_TARGET overrides it); null: none. */
  readonly target: string | null;
  readonly afpVersion: string;
  /** The command line shown in the header (e.g. `afp export k6 scenarios/x.yaml`). */
  readonly command: string;
  /** The seed the agents draw from (`--seed`, else the scenario's). */
  readonly seed: string;
  readonly agents: Readonly<Record<string, AnyAgentDefinition>>;
}

export type K6ExportResult =
  | {
      readonly ok: true;
      readonly text: string;
      readonly endpoints: readonly string[];
      /** The style-A mounts the agents send to, each of which setup() requires a URL for (k6-mounts.ts). */
      readonly mounts: readonly ServiceName[];
      /** The guards the export added (GUARDED_METRICS the scenario's thresholds do not name). */
      readonly guards: readonly string[];
    }
  | { readonly ok: false; readonly errors: readonly string[] };

export async function exportK6Script(scenario: Scenario, options: K6ExportOptions): Promise<K6ExportResult> {
  const errors: string[] = [];
  if (options.target !== null) {
    const targetError = targetUrlError(options.target);
    if (targetError !== null) errors.push(`--target: ${targetError}`);
  }
  const agentCount = scenario.populations.reduce((sum, population) => sum + population.count, 0);
  const endpoints = endpointsOf(scenario, options.agents);
  const k6 = k6Options({
    name: scenario.name,
    load: scenario.load,
    scenarioDurationMs: scenario.durationMs,
    endpoints,
    agentCount,
    guarded: GUARDED_METRICS,
  });
  if (!k6.ok) errors.push(...k6.errors);
  if (errors.length > 0 || !k6.ok) return { ok: false, errors };
  const mounts = mountsNeeded(scenario.populations, options.agents);
  const bundled = await bundleK6Script(entry(scenario, options, k6.options, mounts));
  if (!bundled.ok) return { ok: false, errors: bundled.errors.map((error) => `bundling: ${error}`) };
  const own = Object.keys(scenario.load?.thresholds ?? {}).map((key) => key.replace(/\{.*$/, '').trim());
  const guards = GUARDED_METRICS.filter((metric) => !own.includes(metric));
  return {
    ok: true,
    text: `${header(scenario, options, agentCount, mounts)}${bundled.text}`,
    endpoints,
    mounts,
    guards,
  };
}

/** Every route id of the services the scenario's archetypes use (all, when one crosses services). */
function endpointsOf(scenario: Scenario, agents: Readonly<Record<string, AnyAgentDefinition>>): string[] {
  const services = scenario.populations.map((population) => agents[population.agent]?.service);
  const wanted = services.includes(undefined) ? null : new Set(services);
  const ids = ALL_ROUTES.filter((route) => wanted === null || wanted.has(route.service)).map((route) => route.id);
  return [...new Set(ids)].sort();
}

/**
 * The entry's imports of the archetypes the scenario's populations use, each module whole, and the
 * AGENTS table made of them: the script carries no archetype it never runs (the whole table made
 * it larger than a ConfigMap holds).
 */
function archetypeImports(scenario: Scenario): string {
  const names = [...new Set(scenario.populations.map((population) => population.agent))].sort();
  const imports = names.map(
    (name, index) =>
      `import * as archetype${index} from ${jsString(rootModule(`agents/${AGENT_MODULES[name] ?? name}`))};`,
  );
  const rows = names.map((name, index) => `  [${jsString(name)}, archetype${index}],`);
  return `${imports.join('\n')}
const AGENTS = Object.fromEntries(
  [
${rows.map((row) => `  ${row}`).join('\n')}
  ].map(([name, module]) => [name, Object.values(module).find((value) => value !== null && typeof value === 'object' && value.name === name)]),
);`;
}

/**
 * The import of shims/curve-windows.ts (goja-sized curve tables), before the agents, when an
 * archetype of the scenario warms up (the wallet archetypes build their key tables at init);
 * other scripts carry no curve code for it.
 */
function curveWindows(scenario: Scenario, agents: Readonly<Record<string, AnyAgentDefinition>>): string {
  const warms = scenario.populations.some((population) => agents[population.agent]?.warmUp !== undefined);
  return warms ? `import ${jsString(rootModule('src/export/k6/shims/curve-windows'))};\n` : '';
}

/** An arrival-rate executor (the default): the open model, where agents are stepped as afp load's ring reaches them. */
function openModel(scenario: Scenario): boolean {
  const executor = scenario.load?.executor ?? 'constant-arrival-rate';
  return executor === 'constant-arrival-rate' || executor === 'ramping-arrival-rate';
}

/**
 * The arrivals afp load's schedule holds for the scenario's profile (null under a VU executor): the
 * runtime steps no agent at an arrival past them, in one process or across segments.
 */
function arrivalsOf(scenario: Scenario): number | null {
  const planned = resolveLoadPlan({
    load: scenario.load,
    scenarioDurationMs: Math.min(scenario.durationMs, LOAD_LIMITS.durationMs.max),
  });
  if (!planned.ok || planned.plan.kind === 'vus') return null;
  return arrivalSchedule(planned.plan).countBefore(planned.plan.durationMs + 1);
}

/** What the runtime reads of the scenario (K6Scenario), as the parser read it here. */
function runScenario(scenario: Scenario): JsValue {
  return jsValueOf(
    {
      populations: scenario.populations,
      maxAgents: scenario.limits.maxAgents,
      startingDepositMicro: scenario.casino.startingDepositMicro,
    } satisfies K6Scenario,
    'scenario',
  );
}

/**
 * The VUs k6 initializes for the script's one scenario: maxVUs under an arrival-rate executor (all
 * allocated before the start), `vus` under constant-vus, the peak of start and stage targets
 * under ramping-vus (an arrival-rate executor's stage targets are rates, not VUs).
 */
function peakVus(k6Options: K6Options): number {
  const [scenario = {}] = Object.values(k6Options.scenarios);
  const { maxVUs, vus, startVUs, stages } = scenario;
  if (typeof maxVUs === 'number') return maxVUs;
  if (typeof vus === 'number') return vus;
  const targets = Array.isArray(stages) ? stages.map((stage: { target?: unknown }) => stage.target) : [];
  return Math.max(1, ...[startVUs, ...targets].filter((count): count is number => typeof count === 'number'));
}

function entry(
  scenario: Scenario,
  options: K6ExportOptions,
  k6Options: K6Options,
  mounts: readonly ServiceName[],
): string {
  const load = scenario.load;
  const graceful = load?.graceful_stop ?? LOAD_DEFAULTS.gracefulStopMs;
  const k6Setup = { setupTimeout: k6Duration(60_000), teardownTimeout: k6Duration(Math.max(graceful, 1_000)) };
  return `import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
${curveWindows(scenario, options.agents)}${archetypeImports(scenario)}
import { K6AgentRun } from ${jsString(rootModule('src/export/k6/k6-agent-run'))};
import { k6Setup } from ${jsString(rootModule('src/export/k6/k6-setup'))};

export const options = ${jsonSource({ ...k6Options, ...k6Setup }, 2)};

const TIMEOUT = ${JSON.stringify(k6Duration(REQUEST_TIMEOUT_MS))};
// http_req_failed counts what afp load counts as failed: no answer, a 429, a 5xx.
const expected = http.expectedStatuses({ min: 100, max: 428 }, { min: 430, max: 499 });
const segment = () => {
  const given = exec.test.options.executionSegment;
  return given === null || given === undefined || String(given) === '' ? null : String(given);
};
// Agent steps that came more than a VU count of arrivals after afp load's ring reached them: the
// VUs could not keep the schedule (dropped_iterations does not count an arrival a VU took late).
const lateSteps = new Counter('afp_late_agent_steps');
// The one clock of a k6 run (live only: k6 always drives a deployment): the wall clock, injected
// here as afp load injects systemLoadClock, into setup() and the agents (who add the target's
// offset that setup() reads).
const wallClockMs = () => Date.now();
const run = new K6AgentRun(
  {
    http,
    expected,
    check: (passed, name) => check(passed, { [name]: (value) => value === true }),
    late: () => lateSteps.add(1),
    nowMs: wallClockMs,
    initVu: () => __VU,
    vu: () => ({ inInstance: exec.vu.idInInstance, ofInstance: exec.instance.vusInitialized, iterationInTest: exec.scenario.iterationInTest, iterationInInstance: exec.scenario.iterationInInstance }),
    segment,
    abort: (message) => exec.test.abort(message),
  },
  { scenario: ${jsLiteral(runScenario(scenario), 1)}, seed: ${jsString(options.seed)}, agents: AGENTS, timeout: TIMEOUT, openModel: ${JSON.stringify(openModel(scenario))}, vus: ${JSON.stringify(peakVus(k6Options))}, arrivals: ${JSON.stringify(arrivalsOf(scenario))} },
);

export function setup() {
  return k6Setup({
    http,
    expected,
    defaultTarget: ${jsonSource(options.target)},
    timeout: TIMEOUT,
    env: (name) => (__ENV[name] === undefined || __ENV[name] === '' ? undefined : __ENV[name]),
    randomTag: () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => (byte % 36).toString(36)).join(''),
    nowMs: wallClockMs,
    segment,
    abort: (message) => exec.test.abort(message),
    needs: ${JSON.stringify(mounts)},
  });
}

export default async function (data) {
  await run.iteration(data);
}
`;
}

function header(
  scenario: Scenario,
  options: K6ExportOptions,
  agentCount: number,
  mounts: readonly ServiceName[],
): string {
  return [
    `// k6 script exported by afp ${jsComment(options.afpVersion)} from scenario ${jsString(scenario.name)}, seed ${jsString(options.seed)}.`,
    `// Written by \`${jsComment(options.command)}\`: do not edit, export again.`,
    "// afp's own agents, client and route names, bundled (esbuild) over k6's http.asyncRequest: the traffic",
    `// afp load sends — the same ${agentCount} agents (each VU owns some, registers each once and reuses it), the`,
    '// same ids, counterparties once registered, the same arrival model. Every request is tagged endpoint=<afp route id>.',
    '// Run: k6 run -e AFP_TARGET=<the style-B api URL> <this file>',
    '// Env: AFP_TARGET (default: the --target of the export), AFP_TARGET_<SERVICE> (a style-A service URL;',
    "//   default: what an afp serve announces at /_afp/mounts), AFP_RUN_ID (agents' id tag; default: random;",
    '//   required with --execution-segment, the same in every process).',
    `//   The agents send to ${mounts.length === 0 ? 'the api URL only' : `the api URL and ${mounts.join(', ')}`}: a mount without a URL aborts the run (exit 108).`,
    '// Thresholds: dropped_iterations and afp_late_agent_steps stay at count==0 unless load.thresholds names them.',
    '// Across processes or machines: k6 run --execution-segment 0:1/2 … and 1/2:1 …: each owns its agents.',
    '',
  ].join('\n');
}
