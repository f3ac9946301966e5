/**
 * `afp export k6`'s generator: a scenario in, the text of a k6 script (an ES module) out, or every
 * reason it cannot be written, all at once.
 *
 * The script: a header naming the scenario, its seed and afp's version; k6 `options` (k6-options.ts:
 * the load profile as one k6 scenario, the thresholds as written plus per-endpoint counts); the
 * endpoint rows it uses (the client's own table, src/client/client.ts); the populations with their
 * params; the cycle that gives each iteration its population (k6-mix.ts); the shared runtime
 * (k6-runtime.ts) and one function per archetype (flows/). setup() resolves the target's URLs
 * (AFP_TARGET or --target; style-A services from AFP_TARGET_<SERVICE> or an afp serve's
 * /_afp/mounts, as src/client/target.ts does) and registers the standing agents; each iteration
 * then is one agent's life (k6-flow.ts).
 * Refused, never approximated: an archetype without a flow (named, with the reason), a tier other
 * than free (the platform gives tiers out of band), a load profile k6 cannot take, a cycle or a
 * standing population past its bound. Pure and byte-stable: the same scenario, target and version
 * give the same bytes.
 */
import { ENDPOINTS, type EndpointId } from '../../client/client.ts';
import { targetUrlError } from '../../client/target.ts';
import type { Mount } from '../../http/route.ts';
import type { Population, Scenario } from '../../sim/scenario.ts';
import { k6Duration, k6Options } from './k6-options.ts';
import { CYCLE_MAX, populationCycle } from './k6-mix.ts';
import { K6_RUNTIME } from './k6-runtime.ts';
import { jsLiteral, type JsValue } from './js-literal.ts';
import type { K6Flow, ScriptParams } from './k6-flow.ts';
import { K6_FLOWS, refusalOf } from './flows/index.ts';

/** Standing agents (registered in setup, one by one) in all populations, at most. */
export const STANDING_MAX = 1_000;
export const REQUEST_TIMEOUT_MS = 30_000;
/** setup() gets a minute plus this much per standing agent (a registration and a claim each). */
const SETUP_MS_PER_STANDING_AGENT = 200;
const CYCLE_NUMBERS_PER_LINE = 40;

export interface K6ExportOptions {
  /** The style-B api URL baked in as the default target (AFP_TARGET overrides it); null: none. */
  readonly target: string | null;
  readonly afpVersion: string;
  /** The command line shown in the header (e.g. `afp export k6 scenarios/x.yaml`). */
  readonly command: string;
}

export type K6ExportResult =
  | {
      readonly ok: true;
      readonly text: string;
      readonly endpoints: readonly string[];
      readonly cycle: readonly number[];
    }
  | { readonly ok: false; readonly errors: readonly string[] };

interface ExportedPopulation {
  readonly population: Population;
  readonly index: number;
  readonly flow: K6Flow;
  readonly params: ScriptParams;
  readonly endpoints: readonly EndpointId[];
}

export function exportK6Script(scenario: Scenario, options: K6ExportOptions): K6ExportResult {
  const errors: string[] = [];
  if (options.target !== null) {
    const targetError = targetUrlError(options.target);
    if (targetError !== null) errors.push(`--target: ${targetError}`);
  }
  const exported = exportedPopulations(scenario, errors);
  const cycle = populationCycle(scenario.populations.map((population) => population.count));
  if (cycle === null)
    errors.push(
      `the populations' counts, divided by their greatest common divisor, sum to more than ${CYCLE_MAX}: the script's population cycle would be too long (use rounder counts)`,
    );
  const endpoints = endpointsOf(exported);
  const mounts = styleAMounts(endpoints);
  const tags = [...endpoints, ...(mounts.length > 0 ? ['afp.mounts'] : [])];
  const k6 = k6Options({
    name: scenario.name,
    load: scenario.load,
    scenarioDurationMs: scenario.durationMs,
    endpoints: tags,
  });
  if (!k6.ok) errors.push(...k6.errors);
  if (errors.length > 0 || cycle === null || !k6.ok) return { ok: false, errors };
  const standingAgents = exported
    .filter((row) => row.flow.standing)
    .reduce((sum, row) => sum + row.population.count, 0);
  const setupTimeout = k6Duration(60_000 + Math.ceil((standingAgents * SETUP_MS_PER_STANDING_AGENT) / 1_000) * 1_000);
  const text = [
    header(scenario, options, exported),
    "import http from 'k6/http';",
    "import { check } from 'k6';",
    "import exec from 'k6/execution';",
    '',
    `const SEED = ${JSON.stringify(scenario.seed)};`,
    `const DEFAULT_TARGET = ${JSON.stringify(options.target)};`,
    `const REQUEST_TIMEOUT = '${k6Duration(REQUEST_TIMEOUT_MS)}';`,
    '/** The style-A services the agents use: their URLs come from AFP_TARGET_<SERVICE> or /_afp/mounts. */',
    `const STYLE_A_MOUNTS = ${jsLiteral(mounts)};`,
    '',
    `export const options = ${jsLiteral({ ...k6.options, setupTimeout } as unknown as JsValue)};`,
    '',
    '/** The endpoint rows the flows use (afp route id → mount, method, path template). */',
    `const ENDPOINTS = ${jsLiteral(Object.fromEntries(endpoints.map((endpoint) => [endpoint, { ...ENDPOINTS[endpoint] }])))};`,
    '',
    `const POPULATIONS = ${jsLiteral(exported.map(populationRow))};`,
    '',
    '/** Iteration i belongs to POPULATIONS[CYCLE[i % CYCLE.length]]: counts as weights, interleaved. */',
    `const CYCLE = [\n${cycleLines(cycle)}\n];`,
    '',
    K6_RUNTIME,
    ...uniqueFlows(exported).map((flow) => `// ---- ${flow.agent} ----\n\n${flow.source}`),
    `const FLOWS = {\n${uniqueFlows(exported)
      .map((flow) => `  ${JSON.stringify(flow.agent)}: ${flow.functionName},`)
      .join('\n')}\n};\n`,
    LIFECYCLE,
  ].join('\n');
  return { ok: true, text, endpoints: tags, cycle };
}

function exportedPopulations(scenario: Scenario, errors: string[]): ExportedPopulation[] {
  const refused = new Map<string, string>();
  const exported: ExportedPopulation[] = [];
  let standing = 0;
  scenario.populations.forEach((population, index) => {
    const flow = K6_FLOWS[population.agent];
    if (flow === undefined) {
      refused.set(population.agent, refusalOf(population.agent));
      return;
    }
    if (population.tier !== 'free')
      errors.push(
        `populations[${index}] (${population.agent}): tier '${population.tier}' cannot be exported: a deployment gives tiers out of band, a k6 script registers free agents`,
      );
    const refusal = flow.refusal?.(population, scenario.populations) ?? null;
    if (refusal !== null) errors.push(`populations[${index}] (${population.agent}): ${refusal}`);
    if (flow.standing) standing += population.count;
    const params = flow.params(population.params);
    const styles: readonly ('A' | 'B')[] = population.style === 'mixed' ? ['A', 'B'] : [population.style];
    exported.push({
      population,
      index,
      flow,
      params,
      endpoints: styles.flatMap((style) => flow.endpoints(style, params)),
    });
  });
  for (const [agent, reason] of [...refused].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    errors.push(`archetype '${agent}' cannot be exported to k6 faithfully: ${reason}`);
  }
  if (standing > STANDING_MAX)
    errors.push(
      `${standing} standing agents (escrow sellers, registered in k6's setup) in all: at most ${STANDING_MAX}`,
    );
  return exported;
}

function endpointsOf(exported: readonly ExportedPopulation[]): EndpointId[] {
  return [...new Set(exported.flatMap((row) => row.endpoints))].sort();
}

function styleAMounts(endpoints: readonly EndpointId[]): Mount[] {
  return [...new Set(endpoints.map((endpoint) => ENDPOINTS[endpoint].mount).filter((mount) => mount !== 'api'))].sort();
}

function uniqueFlows(exported: readonly ExportedPopulation[]): K6Flow[] {
  return [...new Map(exported.map((row) => [row.flow.agent, row.flow])).values()].sort((a, b) =>
    a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0,
  );
}

function populationRow(row: ExportedPopulation): JsValue {
  const { population } = row;
  return {
    index: row.index,
    agent: population.agent,
    count: population.count,
    style: population.style,
    standing: row.flow.standing,
    params: row.params,
  };
}

function cycleLines(cycle: readonly number[]): string {
  const lines: string[] = [];
  for (let start = 0; start < cycle.length; start += CYCLE_NUMBERS_PER_LINE)
    lines.push(`  ${cycle.slice(start, start + CYCLE_NUMBERS_PER_LINE).join(', ')},`);
  return lines.join('\n');
}

function header(scenario: Scenario, options: K6ExportOptions, exported: readonly ExportedPopulation[]): string {
  const populations = exported.map((row) => {
    const life = row.flow.standing
      ? `${row.population.count} agents registered in setup(); an iteration is one move of one of them`
      : 'a fresh agent every iteration';
    return `//   ${row.index}: ${row.population.agent} × ${row.population.count} (style ${row.population.style}): ${life}`;
  });
  return [
    `// k6 script exported by afp ${options.afpVersion} from scenario ${JSON.stringify(scenario.name)}, seed ${JSON.stringify(scenario.seed)}.`,
    `// Written by \`${options.command.replace(/[\r\n]/g, ' ')}\`: do not edit, export again.`,
    '// Run: k6 run --no-usage-report -e AFP_TARGET=<the style-B api URL> <this file>',
    '// Env: AFP_TARGET (default: the --target of the export), AFP_TARGET_<SERVICE> (a style-A service URL;',
    "//   default: what an afp serve announces at /_afp/mounts), AFP_RUN_ID (agents' id prefix; default: random).",
    '// Every request is tagged endpoint=<afp route id>; http_req_failed counts answers the agent does not',
    '// expect; checks are the statuses and rules the agent checks. Populations (weights: their counts):',
    ...populations,
    '',
  ].join('\n');
}

/** setup(): URLs, run id, standing agents; the default function: one iteration, one agent's life. */
const LIFECYCLE = `// ---- lifecycle ----

function mountUrls(api) {
  const urls = { api };
  if (STYLE_A_MOUNTS.length === 0) return urls;
  let announced = {};
  if (STYLE_A_MOUNTS.some((mount) => __ENV['AFP_TARGET_' + mount.toUpperCase()] === undefined)) {
    const response = http.get(api + '/_afp/mounts', {
      tags: { endpoint: 'afp.mounts', name: 'api GET /_afp/mounts' },
      responseCallback: http.expectedStatuses({ min: 100, max: 599 }),
      timeout: REQUEST_TIMEOUT,
    });
    const body = response.status === 200 ? jsonOf(response.body) : null;
    if (body !== null && typeof body.mounts === 'object' && body.mounts !== null) announced = body.mounts;
  }
  for (const mount of STYLE_A_MOUNTS) {
    const given = __ENV['AFP_TARGET_' + mount.toUpperCase()];
    const value = given !== undefined ? given : announced[mount];
    const url = typeof value === 'object' && value !== null ? value.url : value;
    if (typeof url !== 'string' || !/^https?:\\/\\//.test(url)) {
      exec.test.abort('style-A agents need the ' + mount + ' service: set AFP_TARGET_' + mount.toUpperCase() + ' (an afp serve announces it at /_afp/mounts)');
    }
    urls[mount] = url.replace(/\\/+$/, '');
  }
  return urls;
}

/** 8 base-36 characters from k6's WebCrypto: reruns against one target register fresh agent ids. */
function randomRunId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => (byte % 36).toString(36)).join('');
}

export function setup() {
  const api = (__ENV.AFP_TARGET || DEFAULT_TARGET || '').replace(/\\/+$/, '');
  if (!/^https?:\\/\\//.test(api)) exec.test.abort('no target: export with --target URL or run k6 with -e AFP_TARGET=<the style-B api URL>');
  const run = __ENV.AFP_RUN_ID || randomRunId();
  if (!/^[A-Za-z0-9_.]{1,16}$/.test(run)) exec.test.abort('AFP_RUN_ID must be 1 to 16 characters of A-Z a-z 0-9 _ .');
  const urls = mountUrls(api);
  const standing = {};
  const byArchetype = {};
  for (const population of POPULATIONS) {
    if (!population.standing) continue;
    const agents = [];
    for (let index = 0; index < population.count; index++) {
      const draws = drawsFor('standing:' + population.index + ':' + index);
      const style = population.style === 'mixed' ? (draws.chance(5000) ? 'A' : 'B') : population.style;
      const agent = newAgent(run + '-' + population.agent + '-' + population.index + '-s' + index, ipOf(256 + population.index, index), style, draws, urls);
      if (!onboard(agent, null)) continue;
      if (!agent.nextClaimB) claimB(agent);
      agents.push({ id: agent.id, key: agent.key, style, ip: agent.ip });
    }
    standing[population.index] = agents;
    byArchetype[population.agent] = (byArchetype[population.agent] || []).concat(agents.map((agent) => agent.id));
  }
  return { run, urls, standing, byArchetype };
}

export default function (data) {
  const iteration = exec.scenario.iterationInTest;
  const population = POPULATIONS[CYCLE[iteration % CYCLE.length]];
  const draws = drawsFor('iteration:' + iteration);
  const flow = FLOWS[population.agent];
  if (population.standing) {
    const agents = data.standing[population.index];
    if (agents.length === 0) return;
    const chosen = agents[draws.int(agents.length)];
    const agent = newAgent(chosen.id, chosen.ip, chosen.style, draws, data.urls);
    agent.key = chosen.key;
    agent.claimedA = chosen.style === 'A';
    agent.nextClaimB = true;
    flow(population, agent, data);
    return;
  }
  const style = population.style === 'mixed' ? (draws.chance(5000) ? 'A' : 'B') : population.style;
  flow(population, newAgent(data.run + '-' + population.agent + '-' + population.index + '-' + iteration, ipOf(2, iteration), style, draws, data.urls), data);
}
`;
