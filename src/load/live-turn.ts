/**
 * LiveTurn: an agent's turn in a live run (afp load's pool, a k6 VU) with what both engines keep
 * for it besides the agent itself — its client, kept across iterations and rebuilt only when its
 * key changes, and the admin-door set-up calls made for it (a tier, a starting deposit), which
 * its next request and the end of its iteration wait for.
 *
 * Why one class: afp load (load-run.ts) and the k6 export (src/export/k6/k6-agent-run.ts) run the
 * same agents over different transports; the client cache and the set-up wait were written twice.
 */
import { AfpClient } from '../client/client.ts';
import type { Transport } from '../client/transport.ts';
import { AgentTurn } from '../agent/agent-turn.ts';
import { simulatedIp } from '../agent/simulated-ip.ts';

export class LiveTurn extends AgentTurn {
  private client: AfpClient | null = null;
  private clientKey: string | null = null;

  /** The agent's client: the one kept while its key is the same, else a new one over `transport()`. */
  clientOver(transport: () => Transport): AfpClient {
    const { agent } = this;
    if (this.client !== null && this.clientKey === agent.apiKey) return this.client;
    this.client = new AfpClient(transport(), {
      ip: simulatedIp(agent.index),
      ...(agent.apiKey === null ? {} : { apiKey: agent.apiKey }),
    });
    this.clientKey = agent.apiKey;
    return this.client;
  }

  /** Set-up calls made for the agent: awaited before its next request, cleared once done (unless later calls replaced them). */
  awaitSetup(calls: readonly Promise<void>[]): void {
    if (calls.length === 0) return;
    const pending: Promise<void> = Promise.all(calls).then(() => {
      if (this.pendingSetup === pending) this.pendingSetup = null;
    });
    this.pendingSetup = pending;
  }
}
