/**
 * MixRecorder: the in-memory recorder the benchmark hands the simulator (structurally its
 * `ExchangeRecorder`) or wraps around a transport (the synthetic mix). It keeps, per exchange,
 * the instant, the agent, the request, the status, and the answer's body for the first
 * `bodiesKept` exchanges only (the HTTP phase's prefix; memory stays bounded on large mixes).
 *
 * Tier upgrades are out-of-band in the simulator (it sets a population's tier right after the
 * agent registers); `finish(tierOf)` marks each successful registration with the tier to apply
 * after it, so a replay sees the same limits the run saw.
 * Limits: at most `exchangesMax` exchanges; one more is a bug of the caller (thrown).
 */
import type { Transport, TransportRequest, TransportResponse } from '../src/client/transport.ts';
import type { Tier } from '../src/services/shared/agents.ts';
import type { MixExchange } from './traffic-mix.ts';

export const EXCHANGES_MAX = 20_000_000;

export interface RecordedExchangeInput {
  readonly atMs: number;
  readonly agentId: string | null;
  readonly request: TransportRequest;
  readonly response: TransportResponse;
}

export class MixRecorder {
  private readonly exchanges: MixExchange[] = [];
  /** Index of each successful registration → the agent it registered. */
  private readonly registrations = new Map<number, string>();
  private readonly bodiesKept: number;

  constructor(options: { bodiesKept: number }) {
    this.bodiesKept = options.bodiesKept;
  }

  get size(): number {
    return this.exchanges.length;
  }

  onExchange(exchange: RecordedExchangeInput): void {
    if (this.exchanges.length >= EXCHANGES_MAX) throw new Error(`a bench mix holds at most ${EXCHANGES_MAX} exchanges`);
    const { request, response } = exchange;
    const index = this.exchanges.length;
    const registered = registeredAgent(response);
    if (registered !== null) this.registrations.set(index, registered);
    // Bodies are copied: the recorder must not see a later mutation by the agent or the platform.
    const copy: TransportRequest =
      request.body === undefined ? request : { ...request, body: structuredClone(request.body) };
    this.exchanges.push({
      atMs: exchange.atMs,
      agentId: exchange.agentId,
      request: copy,
      status: response.status,
      body: index < this.bodiesKept ? structuredClone(response.body) : undefined,
    });
  }

  /** The exchanges, each registration followed by its agent's tier when that is not 'free'. */
  finish(tierOf: (agentId: string) => Tier | undefined): MixExchange[] {
    for (const [index, agentId] of this.registrations) {
      const tier = tierOf(agentId);
      const exchange = this.exchanges[index];
      if (tier === undefined || tier === 'free' || exchange === undefined) continue;
      this.exchanges[index] = { ...exchange, tierAfter: { agentId, tier } };
    }
    return this.exchanges;
  }

  /** `inner` with every exchange recorded against `agentId` at the clock's instant. */
  recording(inner: Transport, agentId: string | null, nowMs: () => number): Transport {
    return async (request) => {
      const atMs = nowMs();
      const response = await inner(request);
      this.onExchange({ atMs, agentId, request, response });
      return response;
    };
  }
}

/** The agent a 201 registration answer created, else null. */
function registeredAgent(response: TransportResponse): string | null {
  if (response.status !== 201) return null;
  const body = response.body;
  if (typeof body !== 'object' || body === null) return null;
  const fields = body as Record<string, unknown>;
  return typeof fields['agent_id'] === 'string' && typeof fields['api_key'] === 'string' ? fields['agent_id'] : null;
}
