/**
 * Simulation: the state of one run — virtual clock, platform, dispatcher, agents, invariant
 * monitor and counts — and the observing transport every agent's client talks through.
 *
 * Observing transport: wraps the in-process transport; for every exchange it takes the
 * dispatcher's own view of the request and answer (captured synchronously, so even concurrent
 * requests of one agent are attributed exactly), counts it per agent and per endpoint, runs the
 * response checkers and feeds the optional recorder. Once the run is stopped (first violation,
 * a limit), every further request rejects with RunStopped.
 * Time: platform timers (the scenario's casino closures among them: Platform owns them) and hourly audits
 * run at their exact instants (`advanceTo`), in that order, before any agent event at or after
 * them; bankroll samples (casino-run-log.ts) are read at theirs, before anything due then, and
 * never move the clock or count as checks.
 * Casino: with `casino.starting_deposit`, every agent gets a simulated Base deposit when it learns
 * its key (`onKey`), credited on the clock by the platform's deposit timer.
 * Wallet: with `wallet.starting_funds`, every wallet an agent creates gets those coins and tokens
 * minted at its addresses right after the create answer (the admin mint's function, in-process).
 * Events: kept in memory (KeptEvents), or with `streamEvents` written to disk as they happen
 * (StreamedEvents: the CLI and the memory bench, so a large run keeps no event list); the domain
 * and wallet rows are folded as they come either way.
 * Limits: scenario `max_requests` and `max_events` (domain events), `REQUESTS_PER_STEP_MAX`.
 */
import type { Transport, TransportRequest, TransportResponse } from '../client/transport.ts';
import { AfpClient } from '../client/client.ts';
import { inProcessTransport } from '../client/in-process.ts';
import { formatDecimal } from '../core/money.ts';
import { assert } from '../core/assert.ts';
import { VirtualClock } from '../core/clock.ts';
import { Dispatcher, type ApiRequest, type ApiResponse, type DispatchRequest } from '../http/dispatcher.ts';
import type { Route } from '../http/route.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { agentSlots } from '../agent/agent-ring.ts';
import { Platform, type ServiceName } from '../platform/platform.ts';
import type { RateLimiterOptions } from '../platform/rate-limiter.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { DomainEvent } from '../services/shared/events.ts';
import { mintOnChain, type MintRequest } from '../services/wallet/wallet-mint.ts';
import { answerMint, type MintAnswer } from '../platform/wallet-mint-door.ts';
import { DomainRowsFold } from '../report/domains-csv.ts';
import { WalletRowsFold } from '../report/wallet-csv.ts';
import { KeptEvents } from '../report/run-events.ts';
import { TIMELINE_EVENTS_MAX } from '../report/timeline-html.ts';
import { AgentDirectory } from '../agent/agent-directory.ts';
import { AgentFakers } from '../agent/agent-fakers.ts';
import { CasinoRunLog } from './casino-run-log.ts';
import { InvariantMonitor } from './invariants/monitor.ts';
import { jsonText } from './json-text.ts';
import { RunStopped, type StopReason } from './run-stopped.ts';
import { ProbeCounter } from './probes.ts';
import { RequestTrace } from './request-trace.ts';
import { EndpointCounts, UNMATCHED } from '../agent/run-stats.ts';
import type { Scenario } from '../scenario/scenario.ts';
import {
  scenarioClosures,
  scenarioTrading,
  scenarioFaultWindows,
  scenarioPlatformConfig,
} from '../scenario/scenario-platform.ts';
import { RunAgent, type AgentHost } from '../agent/run-agent.ts';
import { StreamedEvents } from './streamed-events.ts';
import { simulatedIp } from '../agent/simulated-ip.ts';
import type { AnyAgentDefinition, PlatformFacts } from '../agent/agent.ts';
import { HOUR_MS } from '../agent/agent-kit.ts';

const NO_STRINGS: Readonly<Record<string, string>> = Object.freeze({});

/** More requests than this in one agent step is a runaway agent (a liveness limit). */
export const REQUESTS_PER_STEP_MAX = 20_000;

/** Structurally the replay recorder's `onExchange`, `onTier`, `onDeposit` and `onMint` (src/replay/recorder.ts). */
export interface ExchangeRecorder {
  onExchange(exchange: {
    atMs: number;
    agentId: string | null;
    request: TransportRequest;
    response: TransportResponse;
  }): void;
  /** Called when an agent of a pro or enterprise population gets its tier (free is the default). */
  onTier?(agentId: string, tier: 'pro' | 'enterprise'): void;
  /** Called when an agent gets the scenario's casino starting deposit (amount as USDC decimal text). */
  onDeposit?(agentId: string, deposit: { chain: string; amount: string }): void;
  /** Called for each starting fund minted at a created wallet's address, right after the create's exchange. */
  onMint?(mint: { chain: string; address: string; amount: string; token: string | null }): void;
}

export interface SimulationOptions {
  readonly seed: string;
  readonly agents: Readonly<Record<string, AnyAgentDefinition>>;
  readonly defects?: readonly DefectName[];
  readonly recorder?: ExchangeRecorder;
  /** The platform's rate-limiter memory bounds (tests make its sweeps happen at small populations). */
  readonly limiter?: RateLimiterOptions;
  /** Write the events to disk as they happen instead of keeping them (default false). */
  readonly streamEvents?: boolean;
}

export class Simulation implements AgentHost {
  readonly scenario: Scenario;
  readonly seed: string;
  readonly clock: VirtualClock;
  readonly platform: Platform;
  readonly directory = new AgentDirectory();
  readonly fakers = new AgentFakers();
  readonly monitor: InvariantMonitor;
  readonly endpoints = new EndpointCounts();
  readonly trace = new RequestTrace();
  readonly probes = new ProbeCounter();
  readonly events: KeptEvents | StreamedEvents;
  readonly domainRows = new DomainRowsFold();
  readonly walletRows = new WalletRowsFold();
  readonly agents: RunAgent[] = [];
  readonly endMs: number;
  readonly casinoLog: CasinoRunLog;
  stop: StopReason | null = null;
  requestsThisStep = 0;
  private nextAuditMs = 0;
  private readonly inner: Transport;
  private readonly routesById: ReadonlyMap<string, Route>;
  private readonly recorder: ExchangeRecorder | undefined;
  private captured: { request: ApiRequest; response: ApiResponse } | null = null;
  private lastClient: { agent: RunAgent; apiKey: string | null; client: AfpClient } | null = null;
  readonly platformFacts: PlatformFacts;

  constructor(scenario: Scenario, options: SimulationOptions) {
    this.scenario = scenario;
    this.seed = options.seed;
    this.clock = new VirtualClock(scenario.startMs);
    this.endMs = scenario.startMs + scenario.durationMs;
    this.nextAuditMs = scenario.startMs + HOUR_MS;
    this.recorder = options.recorder;
    this.events =
      options.streamEvents === true ? new StreamedEvents({ tailMax: TIMELINE_EVENTS_MAX }) : new KeptEvents();
    const trading = scenarioTrading(scenario);
    const config = scenarioPlatformConfig(scenario);
    const faults = scenarioFaultWindows(scenario);
    const closures = scenarioClosures(scenario);
    this.platformFacts = {
      seed: options.seed,
      config,
      tradingShocks: trading.shocks,
      marketClosures: trading.closures,
      outages: { faults, gameClosures: closures },
      archetypes: [...new Set(scenario.populations.map((population) => population.agent))].sort(),
      walletMint: (body) => Promise.resolve(this.lentMint({ ...body, token: body.token ?? null })),
    };
    this.platform = new Platform({
      seed: options.seed,
      startMs: scenario.startMs,
      config,
      faults,
      closures,
      trading,
      defects: options.defects ?? [],
      ...(options.limiter === undefined ? {} : { limiter: options.limiter }),
    });
    const dispatcher = new Dispatcher(this.platform, ALL_ROUTES);
    this.routesById = new Map(ALL_ROUTES.map((route) => [route.id, route]));
    this.inner = inProcessTransport({ dispatcher: this.capturing(dispatcher), clock: this.clock });
    this.monitor = new InvariantMonitor(scenario.invariants, {
      platform: this.platform,
      nowMs: () => this.clock.nowMs(),
    });
    this.platform.onEvent((event) => this.onDomainEvent(event));
    this.platform.ledger.onTransfer(this.monitor);
    this.createAgents(options.agents);
    this.casinoLog = new CasinoRunLog({ platform: this.platform, scenario, agents: this.agents });
  }

  /** Runs platform timers and hourly audits due at or before `targetMs`, each at its instant. */
  advanceTo(targetMs: number): void {
    while (this.stop === null) {
      const timerMs = this.platform.nextTimerMs() ?? Number.MAX_SAFE_INTEGER;
      const atMs = Math.min(timerMs, this.nextAuditMs);
      const sampleMs = this.casinoLog.nextSampleMs();
      if (sampleMs !== undefined && sampleMs <= atMs && sampleMs <= targetMs) {
        this.casinoLog.sample(sampleMs);
        continue;
      }
      if (atMs > targetMs) return;
      this.clock.set(atMs);
      if (timerMs === atMs) this.platform.advanceTo(atMs);
      if (this.nextAuditMs === atMs) {
        this.monitor.onHour(atMs);
        this.nextAuditMs += HOUR_MS;
      }
      this.afterEvent(atMs);
    }
  }

  /** Checks after every scheduler event; stops the run at the first violation. */
  afterEvent(atMs: number): void {
    this.monitor.onTick(atMs);
    if (this.monitor.failure !== null) this.stop ??= { kind: 'invariant' };
  }

  /**
   * The client of the agent that is acting: built when an agent first asks in its wake and reused
   * until another agent asks. Why not one per agent: its ~30 closures were 2 KB of every agent's
   * memory (issue 19), and a client is only its transport, key and IP, all derived from the agent.
   */
  clientFor(agent: RunAgent): AfpClient {
    const last = this.lastClient;
    if (last !== null && last.agent === agent && last.apiKey === agent.apiKey) return last.client;
    const client = new AfpClient(this.transportFor(agent), {
      ip: simulatedIp(agent.index),
      ...(agent.apiKey === null ? {} : { apiKey: agent.apiKey }),
    });
    this.lastClient = { agent, apiKey: agent.apiKey, client };
    return client;
  }

  transportFor(agent: RunAgent): Transport {
    return (request) => {
      this.admitRequest(agent);
      const pending = this.inner(request);
      const captured = this.captured;
      this.captured = null;
      return pending.then((response) => {
        assert(captured !== null, 'the in-process transport answered through the dispatcher');
        this.observe(agent, request, response, captured);
        return response;
      });
    };
  }

  onKey(agent: RunAgent, apiKey: string): void {
    const found = this.platform.authenticate(`Bearer ${apiKey}`);
    assert(typeof found === 'object' && found !== null, `the key agent ${agent.agentId} learned is a live key`);
    // Tier upgrades are out-of-band in the spec: the harness applies the population's tier.
    found.tier = agent.tier;
    if (agent.tier !== 'free') this.recorder?.onTier?.(found.id, agent.tier);
    this.directory.add(agent.archetype, found.id);
    const depositMicro = this.scenario.casino.startingDepositMicro;
    if (depositMicro !== null) {
      const deposit = this.platform.casino.account.simulateDeposit(
        { agentId: found.id, chain: 'base', amountMicro: depositMicro },
        this.clock.nowMs(),
      );
      assert(deposit.ok, `the starting deposit of agent ${found.id} is accepted`);
      this.recorder?.onDeposit?.(found.id, { chain: 'base', amount: formatDecimal(depositMicro) });
    }
  }

  report(agent: RunAgent, message: string, event: unknown): void {
    this.monitor.report({
      atMs: this.clock.nowMs(),
      event: jsonText({ agentId: agent.agentId, observed: event }),
      message: `${agent.agentId}: ${message}`,
    });
    this.stop ??= { kind: 'invariant' };
  }

  outage(service: ServiceName): boolean {
    return this.platform.activeFault(service, this.clock.nowMs()) !== undefined;
  }

  /** Whether any of the scenario's fault windows is open at `atMs` (for the coverage probes). */
  private inFault(atMs: number): boolean {
    const { startMs, faults } = this.scenario;
    return faults.some((fault) => atMs >= startMs + fault.fromMs && atMs < startMs + fault.fromMs + fault.forMs);
  }

  private admitRequest(agent: RunAgent): void {
    if (this.stop !== null) throw new RunStopped('the run has stopped');
    if (this.endpoints.requests >= this.scenario.limits.maxRequests) {
      this.stop = { kind: 'limit', message: `max_requests (${this.scenario.limits.maxRequests}) reached` };
      throw new RunStopped('request limit');
    }
    if (++this.requestsThisStep > REQUESTS_PER_STEP_MAX) {
      this.stop = {
        kind: 'limit',
        message: `agent ${agent.agentId} sent more than ${REQUESTS_PER_STEP_MAX} requests in one step`,
      };
      throw new RunStopped('per-step request limit');
    }
  }

  private observe(
    agent: RunAgent,
    request: TransportRequest,
    response: TransportResponse,
    captured: { request: ApiRequest; response: ApiResponse },
  ): void {
    const atMs = this.clock.nowMs();
    const routeId = captured.response.routeId;
    const route = routeId === null ? null : (this.routesById.get(routeId) ?? null);
    agent.counts.count(response.status);
    this.endpoints.count(route, captured.request.mount, response.status);
    this.trace.push({ atMs, agentId: agent.agentId, endpoint: routeId ?? UNMATCHED, status: response.status });
    if (this.events instanceof StreamedEvents && this.trace.dropped > 0)
      this.events.forgetBefore(this.trace.oldestAtMs());
    if (response.status >= 400)
      this.probes.onExchange(routeId, response.status, captured.response.body['code'], this.inFault(atMs));
    this.monitor.onExchange({
      atMs,
      agentId: agent.agentId,
      request: captured.request,
      response: captured.response,
      route,
    });
    this.recorder?.onExchange({ atMs, agentId: agent.agentId, request, response });
    if (this.monitor.failure !== null) this.stop ??= { kind: 'invariant' };
    if (routeId === 'wallet.primary.create' && response.status === 200 && agent.definition.fundsOwnWallets !== true)
      this.fundWallet(captured.response.body['addresses']);
  }

  /** A mint through the door lent to agents (PlatformFacts.walletMint): recorded like the starting funds. */
  private lentMint(mint: MintRequest): MintAnswer {
    if (this.stop !== null) throw new RunStopped('the run has stopped');
    const answer = answerMint(this.platform, mint, this.clock.nowMs());
    if (answer.status === 200) this.recorder?.onMint?.(mint);
    return answer;
  }

  /** The scenario's wallet.starting_funds, minted at the new wallet's addresses right after its answer. */
  private fundWallet(addresses: unknown): void {
    for (const fund of this.scenario.wallet.startingFunds) {
      const address =
        typeof addresses === 'object' && addresses !== null
          ? (addresses as Record<string, unknown>)[fund.chain]
          : undefined;
      assert(typeof address === 'string', `a created wallet has a ${fund.chain} address`);
      const minted = mintOnChain(
        this.platform.wallet,
        { chain: fund.chain, address, amount: fund.amount, token: fund.token },
        this.clock.nowMs(),
      );
      assert(minted.ok, `the scenario's starting funds on ${fund.chain} are minted (the scenario parser checked them)`);
      this.recorder?.onMint?.({ chain: fund.chain, address, amount: fund.amount, token: fund.token });
    }
  }

  private onDomainEvent(event: DomainEvent): void {
    if (this.events.count >= this.scenario.limits.maxEvents) {
      this.stop ??= { kind: 'limit', message: `max_events (${this.scenario.limits.maxEvents}) reached` };
    } else {
      this.events.push(event);
      this.domainRows.add(event);
      this.walletRows.add(event);
    }
    if (event.type === 'casino.bet') this.casinoLog.onBet(event.betId);
    this.probes.onEvent(event, event.type === 'escrow.disputed' && this.inFault(event.atMs));
    this.monitor.onEvent(event);
    if (this.monitor.failure !== null) this.stop ??= { kind: 'invariant' };
  }

  /**
   * A view of the dispatcher that keeps the last request (resolved: query, headers and the IP the
   * transport chose) and answer for the transport; the transport calls `dispatch`.
   */
  private capturing(dispatcher: Dispatcher): Dispatcher {
    const view = {
      platform: dispatcher.platform,
      router: dispatcher.router,
      dispatch: (request: DispatchRequest, nowMs: number, ip: string): ApiResponse => {
        const response = dispatcher.dispatch(request, nowMs, ip);
        this.captured = {
          request: { ...request, query: request.query ?? NO_STRINGS, headers: request.headers ?? NO_STRINGS, ip },
          response,
        };
        return response;
      },
    };
    return view as unknown as Dispatcher;
  }

  private createAgents(table: Readonly<Record<string, AnyAgentDefinition>>): void {
    const startSpreadMs = Math.min(HOUR_MS, Math.floor(this.scenario.durationMs / 10));
    for (const slot of agentSlots(this.scenario.populations, table).flat())
      this.agents.push(new RunAgent({ ...slot, seed: this.seed, startSpreadMs, idSuffix: null, host: this }));
  }
}
