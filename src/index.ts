/**
 * afp's library API: what `import … from 'afp'` gives. Why one curated file: the package's
 * `exports` point here, so everything a user may rely on is listed in one place and the rest of
 * src/ stays free to change. Grouped by the jobs users hire afp for; README.md "Library" shows
 * each group in use, and test/package/ type-checks an import of it from the packed tarball.
 */
import { AGENTS } from '../agents/index.ts';
import type { RunRecord } from './report/run-record.ts';
import { scenarioFromTable } from './agent/load-scenario.ts';
import { runScenarioWith, runSimulationWith, type SimRunOptions, type SimulationResult } from './sim.ts';
import type { Scenario } from './scenario/scenario.ts';

// Money: bigint micro-USDC (1 USDC = 1,000,000), as every amount in afp.
export { formatDecimal, parseDecimal, usdc, MICRO_PER_USDC, type Micro } from './core/money.ts';
export { VirtualClock, SystemClock, type Clock } from './core/clock.ts';

// The typed client, over any transport: in-process, or HTTP to afp serve or a deployment.
export {
  AfpClient,
  ENDPOINTS,
  ENDPOINT_IDS,
  endpointPath,
  type ApiResult,
  type ClientOptions,
  type EndpointId,
  type ErrorBody,
} from './client/client.ts';
export { CasinoClient, CASINO_ENDPOINTS, type CasinoEndpointId } from './client/casino-client.ts';
export { httpTransport, DEFAULT_HTTP_TIMEOUT_MS, type HttpTransportOptions } from './client/http-transport.ts';
export { inProcessTransport, type InProcessOptions } from './client/in-process.ts';
export { parseTarget } from './client/target.ts';
export { discoverTarget } from './live.ts';
export type { MountUrls, Transport, TransportRequest, TransportResponse } from './client/transport.ts';
export type * as Wire from './client/types.ts';

// The in-process platform: faucet, escrow and casino under a virtual clock.
export {
  createInProcessPlatform,
  IN_PROCESS_START_MS,
  type InProcessPlatform,
  type InProcessPlatformOptions,
} from './client/in-process-platform.ts';
export { Platform, SERVICE_NAMES, type PlatformOptions, type ServiceName } from './platform/platform.ts';
export { Dispatcher, type ApiRequest, type ApiResponse } from './http/dispatcher.ts';
export { ALL_ROUTES } from './http/routes/index.ts';
export { openApiDocument, type OpenApiOptions } from './http/openapi.ts';
export { startServe, type ServeHandle, type ServeOptions } from './server/listeners.ts';

// Scenarios: parse YAML, run it under the virtual clock, write the reports.
export {
  parseScenario,
  formatScenarioErrors,
  DEFAULT_SEED,
  type Scenario,
  type ScenarioError,
  type ScenarioResult,
  type ParseScenarioOptions,
} from './scenario/scenario.ts';
export { AGENTS, AGENT_NAMES } from '../agents/index.ts';
export type { SimulationResult } from './sim.ts';

// The runner and the scenario reader take the archetype table from their caller (src/sim and
// src/scenario sit below agents/); the library fills in the shipped table, so `agents` stays optional here.
type WithTable<T extends { readonly agents: unknown }> = Omit<T, 'agents'> & { readonly agents?: T['agents'] };
/** The runner's options; `agents` defaults to AGENTS (agents/index.ts). */
export type RunOptions = WithTable<SimRunOptions>;

export function scenarioFromText(
  text: string,
  options: WithTable<Parameters<typeof scenarioFromTable>[1]> = {},
): Scenario {
  return scenarioFromTable(text, { ...options, agents: options.agents ?? AGENTS });
}

export function runScenario(scenario: Scenario, options: RunOptions): Promise<RunRecord> {
  return runScenarioWith(scenario, { ...options, agents: options.agents ?? AGENTS });
}

export function runSimulation(scenario: Scenario, options: RunOptions): Promise<SimulationResult> {
  return runSimulationWith(scenario, { ...options, agents: options.agents ?? AGENTS });
}
export type { RunRecord } from './report/run-record.ts';
export {
  renderReports,
  writeReports,
  reportDigest,
  REPORT_FILES,
  SUMMARY_FILE,
  type ReportFile,
} from './report/write-reports.ts';

// Audits: house edges in-process (every game and variant) and against a live casino.
export { simulateHouseEdge, type EdgeRow, type EdgeSimulation, type EdgeSimulationOptions } from './audit/maths.ts';
export { simulateHouseEdgeInWorkers, REGISTRY_SOURCE, type ParallelEdgeSimulationOptions } from './audit/maths.ts';
export { GAMES, gameById } from './services/casino/games/index.ts';
export { auditEdgeLive, type EdgeAuditOptions, type EdgeAuditResult } from './audit.ts';
export { auditFairnessLive, type FairnessAuditOptions, type FairnessAuditResult } from './audit.ts';

// Live targets: target files, resolution of a URL or file, findings and their reports.
export { loadTargetFile, parseTargetFile, type TargetFileResult } from './live/target-file.ts';
export type { Target } from './live.ts';
export { resolveTarget, type ResolveResult } from './live/options.ts';
export { SEVERITIES, type Finding, type Severity } from './report/findings/finding.ts';
export type { FindingsReport } from './report/findings/findings-report.ts';
export { renderFindingsJson } from './report/findings/findings-json.ts';
export { renderFindingsHtml } from './report/findings/findings-html.ts';
export { renderFindingsJunit } from './report/findings/findings-junit.ts';
export { renderFindingsCsv } from './report/findings/findings-csv.ts';
